// SPDX-License-Identifier: BSD-3-Clause
// The harness the SFU and CUBE tests share: a FunctionalMachine driven by assembly text through the
// whole front end (assembler, BlockBuilder), and rejections checked against a snapshot of the
// complete architectural state (a rejected bundle must change nothing).
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "model/bundle/assembler.h"
#include "model/bundle/block_builder.h"
#include "model/exec/functional_machine.h"

namespace ptosim::model::test {

/// Index 0..63 of a Local register name ("T#1", "U#16", ...).
inline unsigned reg_index(const std::string& name) {
  const auto ref = TileRef::parse(name);
  REQUIRE(ref);
  REQUIRE(ref->is_local());
  return ref->index;
}

/// Everything architectural of a machine, one item per register or state field: Local and Shared
/// registers (allocation, name-to-slot mapping, complete descriptor, per-PE payload with
/// definedness), every PE's GPRs, capacity, and the sticky status. Strings, so that a failing
/// comparison prints the item that changed.
struct Snapshot {
  std::vector<std::string> items;
  bool operator==(const Snapshot& o) const { return items == o.items; }
};

inline std::string describe(const TileDescriptor& d) {
  return std::string(data_type_name(d.dtype)) + " " + std::to_string(d.capacity_bytes) + "B " +
         std::to_string(d.rows) + "x" + std::to_string(d.cols) + " valid " + std::to_string(d.valid_rows) + "x" +
         std::to_string(d.valid_cols) + " " + layout_name(d.layout) + " " + location_name(d.location) + " " +
         d.pe_mask.to_string();
}

inline void append_payload(std::string& item, const FragmentData& data) {
  for (const auto& e : data) item += e ? std::to_string(*e) + "," : "u,";
}

inline Snapshot snapshot(const FunctionalMachine& m) {
  Snapshot s;
  const TileState& st = m.state();
  for (unsigned i = 0; i < kLocalTileCount; ++i) {
    const LocalTile& t = st.local(i);
    std::string item = std::to_string(i) + (t.allocated ? ":a" : ":-") + std::to_string(st.physical_index(i));
    if (t.allocated) {
      item += " " + describe(t.desc) + " ";
      for (int pe = 0; pe < kPeCount; ++pe)
        if (t.desc.pe_mask.has(pe)) append_payload(item += "|", m.read_local(i, pe));
    }
    s.items.push_back(item);
  }
  for (unsigned i = 0; i < kSharedTileCount; ++i) {
    const SharedTile& t = st.shared(i);
    if (!t.allocated) continue;
    std::string item = "S" + std::to_string(i) + " " + describe(t.desc) + " " + t.allocation_mask.to_string() +
                       t.initialized_mask.to_string() + (t.published ? "p " : "- ");
    append_payload(item, m.read_shared(i));
    s.items.push_back(item);
  }
  for (int pe = 0; pe < kPeCount; ++pe) {
    std::string item = "GPR PE" + std::to_string(pe) + ":";
    for (int g = 0; g < kGprCount; ++g) item += " " + std::to_string(st.gpr(pe, static_cast<unsigned>(g)));
    s.items.push_back(item);
  }
  s.items.push_back("capacity " + std::to_string(st.capacity_in_use()) + "/" + std::to_string(st.tile_capacity()) +
                    " status " + std::to_string(st.status()));
  return s;
}

/// A FunctionalMachine driven by assembly text; the SFU and CUBE helpers add their tile installers.
class MachineHarness {
 public:
  explicit MachineHarness(AllocationPolicy policy = AllocationPolicy::Asl) : m(policy) {}

  /// Sets GPR `selector` of every PE.
  void gpr(unsigned selector, std::uint64_t value) {
    for (int pe = 0; pe < kPeCount; ++pe) m.state().set_gpr(pe, selector, value);
  }

  /// The single bundle of a program that must assemble and build into one block without
  /// instruction-level faults (tests that alter fields the front end fixes start from it too).
  static Bundle bundle_of(const std::string& program) {
    const Assembly a = assemble(program, "test.s");
    INFO(program);
    for (const AsmError& e : a.errors) FAIL_CHECK(format_error(e));
    REQUIRE(a.ok());
    const ProgramBlocks blocks = build_blocks(a.instructions);
    if (blocks.fault) FAIL_CHECK(format_block_fault(*blocks.fault));
    REQUIRE_FALSE(blocks.fault);
    REQUIRE(blocks.bundles.size() == 1);
    return blocks.bundles[0];
  }

  /// Runs a one-bundle program and returns its outcome.
  BundleOutcome run1(const std::string& program) { return m.execute(bundle_of(program)); }

  /// A one-bundle program that must fault with `code` and a rule mentioning `text`, and leave every
  /// register, descriptor, payload, GPR, capacity and flag exactly as it was.
  void reject(const std::string& program, FaultCode code, const std::string& text) {
    INFO(program);
    reject(bundle_of(program), code, text);
  }

  /// As reject() for a Bundle built directly.
  void reject(const Bundle& b, FaultCode code, const std::string& text) {
    const Snapshot before = snapshot(m);
    const BundleOutcome o = m.execute(b);
    REQUIRE(o.kind == BundleOutcome::Kind::Faulted);
    REQUIRE(o.fault);
    INFO(o.fault->rule);
    CHECK(fault_code_name(o.fault->code) == std::string(fault_code_name(code)));
    CHECK(o.fault->rule.find(text) != std::string::npos);
    CHECK(o.destinations.empty());
    CHECK(o.flags == 0);
    CHECK(snapshot(m) == before);
  }

  const TileDescriptor& desc(unsigned index) const { return m.state().local(index).desc; }

  FunctionalMachine m;
};

}  // namespace ptosim::model::test
