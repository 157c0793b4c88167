// SPDX-License-Identifier: BSD-3-Clause
// FunctionalMachine: one core's complete architectural state (tile metadata, payloads, GPRs,
// status) executing bundles one at a time with preflight-then-atomic-publish semantics. It is the
// reference the SystemC platform must agree with, and what `ptosim exec` runs.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/bundle/bundle.h"
#include "model/exec/payload_store.h"
#include "model/plan/exec_plan.h"
#include "model/state/tile_state.h"

namespace ptosim::model {

struct BundleOutcome {
  enum class Kind { Committed, Noop, Faulted };
  Kind kind = Kind::Committed;
  std::optional<Fault> fault;
  std::vector<TileRef> destinations;  ///< architectural names of the new tiles (at commit)
  NumericFlags flags = 0;             ///< flags the bundle raised
  std::vector<std::string> skipped_checks;
};

/// Per-element contents of one PE fragment in logical row-major order (nullopt = undefined).
using FragmentData = std::vector<std::optional<std::uint64_t>>;

/// Writes `data` into a fragment's payload `bytes` (through the layout) and sets its definedness.
void store_fragment(const TileDescriptor& d, std::uint8_t* bytes, Definedness& defined, const FragmentData& data);
/// The logical elements of a fragment's payload, nullopt where undefined.
FragmentData fetch_fragment(const TileDescriptor& d, const std::uint8_t* bytes, const Definedness& defined);

class FunctionalMachine {
 public:
  explicit FunctionalMachine(AllocationPolicy policy = AllocationPolicy::Asl, unsigned queue_depth = kHandSize);

  /// Runs one completed bundle: strict no-op, fault with no effect, or atomic commit.
  BundleOutcome execute(const Bundle& b);

  /// Installs a Local tile with the given per-PE contents (PEs outside desc.pe_mask are ignored);
  /// std::invalid_argument, before any change, for what TileState::install_problem names.
  void load_local(unsigned index, const TileDescriptor& desc, const std::array<FragmentData, kPeCount>& data);
  /// Installs a Shared tile (published, every quarter of `allocation` initialised); as load_local.
  void load_shared(unsigned index, const TileDescriptor& desc, PeMask allocation, const FragmentData& data);
  /// Contents of a fragment in logical row-major order, undefined elements as nullopt;
  /// std::out_of_range for a register or PE that does not exist.
  FragmentData read_local(unsigned index, int pe) const;
  FragmentData read_shared(unsigned index) const;

  TileState& state() { return m_state; }
  const TileState& state() const { return m_state; }
  const PayloadStore& payloads() const { return m_payloads; }

 private:
  TileState m_state;
  PayloadStore m_payloads;
};

/// Runs the engine core of `plan` for one PE.
NumericFlags execute_plan(const ExecPlan& plan, const PePayloads& io);

}  // namespace ptosim::model
