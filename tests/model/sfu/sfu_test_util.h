// SPDX-License-Identifier: BSD-3-Clause
// Helpers of the SFU tests: a FunctionalMachine with named input tiles, programs run from assembly
// text through the whole front end (assembler, BlockBuilder), and fault expectations.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/bundle/assembler.h"
#include "model/bundle/block_builder.h"
#include "model/exec/functional_machine.h"

namespace ptosim::model::sfu_test {

inline unsigned reg_index(const std::string& name) {
  const auto ref = TileRef::parse(name);
  REQUIRE(ref);
  REQUIRE(ref->is_local());
  return ref->index;
}

/// A FunctionalMachine driven by assembly text.
class Machine {
 public:
  explicit Machine(AllocationPolicy policy = AllocationPolicy::Asl) : m(policy) {}

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

  void gpr(unsigned selector, std::uint64_t value) {
    for (int pe = 0; pe < kPeCount; ++pe) m.state().set_gpr(pe, selector, value);
  }

  /// Assembles `program` and executes its bundles in order up to the first fault; the program must
  /// assemble and contain no instruction-level fault.
  std::vector<BundleOutcome> run(const std::string& program) {
    const Assembly a = assemble(program, "test.s");
    INFO(program);
    for (const AsmError& e : a.errors) FAIL_CHECK(format_error(e));
    REQUIRE(a.ok());
    const ProgramBlocks blocks = build_blocks(a.instructions);
    if (blocks.fault) FAIL_CHECK(format_block_fault(*blocks.fault));
    REQUIRE_FALSE(blocks.fault);
    std::vector<BundleOutcome> out;
    for (const Bundle& b : blocks.bundles) {
      out.push_back(m.execute(b));
      if (out.back().kind == BundleOutcome::Kind::Faulted) break;
    }
    return out;
  }

  /// Runs a one-bundle program and returns its outcome.
  BundleOutcome run1(const std::string& program) {
    auto out = run(program);
    REQUIRE(out.size() == 1);
    return out[0];
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
  const TileDescriptor& desc(unsigned index) const { return m.state().local(index).desc; }
  bool allocated(unsigned index) const { return m.state().local(index).allocated; }

  FunctionalMachine m;
};

/// Element [r, c] of a fragment read back with Machine::read (nullopt = undefined).
inline std::optional<std::uint64_t> at(const FragmentData& f, const TileDescriptor& d, std::uint32_t r, std::uint32_t c) {
  return f.at(std::size_t{r} * d.cols + c);
}

/// The outcome is a fault of class `code` whose rule mentions `text`.
inline void check_fault(const BundleOutcome& o, FaultCode code, const std::string& text) {
  REQUIRE(o.kind == BundleOutcome::Kind::Faulted);
  REQUIRE(o.fault);
  INFO(o.fault->rule);
  CHECK(o.fault->code == code);
  CHECK(o.fault->rule.find(text) != std::string::npos);
  CHECK(o.destinations.empty());
}

/// `n` copies of `v`.
inline FragmentData fill(std::size_t n, std::uint64_t v) { return FragmentData(n, v); }

}  // namespace ptosim::model::sfu_test
