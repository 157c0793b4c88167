// SPDX-License-Identifier: BSD-3-Clause
// The functional machine's loading and reading interface refuses what it cannot hold or name.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "model/exec/functional_machine.h"

using namespace ptosim::model;

TEST_CASE("Functional machine: loads it cannot store and reads of registers or PEs that do not exist throw",
          "[exec]") {
  FunctionalMachine m;
  TileDescriptor d;
  d.dtype = DataType::FP32;
  d.rows = d.cols = d.valid_rows = d.valid_cols = 8;
  d.capacity_bytes = 64;  // 8 x 8 FP32 needs 256
  d.pe_mask = PeMask::all();
  std::array<FragmentData, kPeCount> data;
  data.fill(FragmentData(64, 0x3F800000));
  CHECK_THROWS_WITH(m.load_local(0, d, data), "8x8 FP32 elements need more than the capacity of 64 B");
  CHECK_THROWS_AS(m.load_shared(0, d, PeMask::all(), data[0]), std::invalid_argument);
  CHECK_FALSE(m.state().local(0).allocated);
  d.capacity_bytes = 256;
  m.load_local(0, d, data);
  CHECK(m.read_local(0, 3)[63] == 0x3F800000U);
  CHECK_THROWS_WITH(m.read_local(0, 4), "PE 4 is not one of the four");
  CHECK_THROWS_WITH(m.read_local(64, 0), "Local register index 64 is past the 64 registers");
  CHECK_THROWS_AS(m.read_shared(256), std::out_of_range);
}
