// SPDX-License-Identifier: BSD-3-Clause
// Helpers of the SFU tests: the shared machine harness with named input tiles (per-PE contents),
// element access and fills.
#pragma once

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "tests/model/support/machine_harness.h"

namespace ptosim::model::sfu_test {

using test::reg_index;

/// The shared harness with the SFU tests' tile installers.
class Machine : public test::MachineHarness {
 public:
  using MachineHarness::MachineHarness;

  /// Installs a Local tile whose rows derive from capacity and Col; `data` lists logical elements in
  /// row-major order (missing ones stay undefined) and is the content of every PE in `mask`.
  TileDescriptor tile(const std::string& reg, DataType t, std::uint32_t capacity, std::uint32_t cols,
                      std::uint32_t valid_rows, std::uint32_t valid_cols, const FragmentData& data,
                      Layout layout = Layout::RowMajor, PeMask mask = PeMask::all()) {
    std::array<FragmentData, kPeCount> per_pe;
    per_pe.fill(data);
    return tile_per_pe(reg, t, capacity, cols, valid_rows, valid_cols, per_pe, layout, mask);
  }

  TileDescriptor tile_per_pe(const std::string& reg, DataType t, std::uint32_t capacity, std::uint32_t cols,
                             std::uint32_t valid_rows, std::uint32_t valid_cols,
                             const std::array<FragmentData, kPeCount>& data, Layout layout = Layout::RowMajor,
                             PeMask mask = PeMask::all()) {
    TileDescriptor d;
    d.dtype = t;
    d.capacity_bytes = capacity;
    const auto rows = derived_rows(t, capacity, cols);
    REQUIRE(rows);
    d.rows = *rows;
    d.cols = cols;
    d.valid_rows = valid_rows;
    d.valid_cols = valid_cols;
    d.layout = layout;
    d.pe_mask = mask;
    REQUIRE_FALSE(descriptor_problem(d));
    m.load_local(reg_index(reg), d, data);
    return d;
  }

  /// Runs a one-bundle program that must commit; returns its destination register.
  unsigned commit(const std::string& program) {
    const BundleOutcome o = run1(program);
    INFO(program);
    if (o.fault) INFO(o.fault->rule);
    REQUIRE(o.kind == BundleOutcome::Kind::Committed);
    REQUIRE(o.destinations.size() == 1);
    return o.destinations[0].index;
  }

  FragmentData read(unsigned index, int pe = 0) const { return m.read_local(index, pe); }
  bool allocated(unsigned index) const { return m.state().local(index).allocated; }
};

/// Element [r, c] of a fragment read back with Machine::read (nullopt = undefined).
inline std::optional<std::uint64_t> at(const FragmentData& f, const TileDescriptor& d, std::uint32_t r, std::uint32_t c) {
  return f.at(std::size_t{r} * d.cols + c);
}

/// `n` copies of `v`.
inline FragmentData fill(std::size_t n, std::uint64_t v) { return FragmentData(n, v); }

}  // namespace ptosim::model::sfu_test
