// SPDX-License-Identifier: BSD-3-Clause
// Helpers of the SFU tests: the shared machine harness with named input tiles (per-PE contents),
// element access and fills, and a minimal legal bundle of every SFU operation.
#pragma once

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "model/numeric/scalar_ops.h"
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
    INFO((o.fault ? o.fault->rule : std::string("no fault")));
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

/// A minimal well-formed bundle of `op` on BSTART type `t`, with inputs of type `t` installed:
/// sources U#1 (and U#2) of one valid row and two columns, destination T<1> (T<4> for THISTOGRAM).
inline std::string minimal_bundle(Machine& m, Operation op, DataType t) {
  const std::string head = std::string("BSTART.SFU ") + operation_mnemonic(op) + ", " + data_type_name(t) + "\n";
  const bool expansion = (op >= Operation::TROWEXPAND && op <= Operation::TROWEXPANDEXPDIF) ||
                         (op >= Operation::TCOLEXPAND && op <= Operation::TCOLEXPANDEXPDIF);
  const bool row = op <= Operation::TROWARGMIN;
  const FragmentData zeros = fill(2, 0);  // a valid encoding of every type (E8M0 0 is 2^-127)
  switch (op) {
    case Operation::TCI:
    case Operation::TTRI:
      return head + "B.DIM zero, 2, ->LB0\nB.IOT mask=1111, last, ->T<1>\nBSTOP\n";
    case Operation::THISTOGRAM:
      m.tile("U#1", t, 128, 2, 1, 2, zeros);
      m.tile("U#2", DataType::U8, 128, 1, 1, 1, fill(1, 0));
      return head + "B.DATR dtype=U32, byteid=" + (t == DataType::U16 ? "1" : "3") +  // unfiltered
             "\nB.IOT U#1, U#2, mask=1111, last, ->T<4>\nBSTOP\n";
    case Operation::TFILLPAD:
      m.tile("U#1", t, 128, 2, 1, 2, zeros);
      return head + "B.IOT U#1, mask=1111, last, ->T<1>\nBSTOP\n";
    case Operation::TCONCAT:
      m.tile("U#1", t, 128, 2, 1, 2, zeros);
      m.tile("U#2", t, 128, 2, 1, 2, zeros);
      return head + "B.DIM zero, 4, ->LB0\nB.DIM zero, 4, ->LB2\nB.IOT U#1, U#2, mask=1111, last, ->T<1>\nBSTOP\n";
    default:
      break;
  }
  m.tile("U#1", t, 128, 2, 1, 2, zeros);
  if (!expansion) return head + "B.DIM zero, 2, ->LB0\nB.IOT U#1, mask=1111, last, ->T<1>\nBSTOP\n";
  const std::uint64_t one = numeric::one(t);  // a valid non-zero divisor
  if (row) m.tile("U#2", t, 128, 1, 1, 1, {one});
  else m.tile("U#2", t, 128, 2, 1, 2, {one, one});
  const bool copy = op == Operation::TROWEXPAND || op == Operation::TCOLEXPAND;
  return head + "B.DIM zero, 2, ->LB0\nB.IOT " + (copy ? "" : "U#1, ") + "U#2, mask=1111, last, ->T<1>\nBSTOP\n";
}

}  // namespace ptosim::model::sfu_test
