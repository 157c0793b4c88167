// SPDX-License-Identifier: BSD-3-Clause
// TileState: the architectural tile metadata of one core (Local and Shared descriptors, allocation,
// per-element definedness, capacity), the PEs' private GPRs and the sticky numeric status.
// Payload bytes live apart, in TileStorage, so a TLM memory can own them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/common/pe_mask.h"
#include "model/common/result.h"
#include "model/numeric/flags.h"
#include "model/state/definedness.h"
#include "model/state/tile_descriptor.h"
#include "model/state/tile_ref.h"

namespace ptosim::model {

constexpr int kGprCount = 24;

/// How a new destination picks its register in its hand.
enum class AllocationPolicy : std::uint8_t {
  Asl,    ///< lowest free register of the hand, never released (the ASL, literally)
  Queue,  ///< ADR 0076 queue: the newest result is X#1, older ones shift, X#16 is released
};
const char* allocation_policy_name(AllocationPolicy p);
std::optional<AllocationPolicy> allocation_policy_from_name(std::string_view name);

/// A policy with its queue depth: "asl", "queue" (16 entries per hand) or "queue:N" (N = 1..16
/// entries per hand: X#N is the oldest kept, X#(N+1) and beyond are never allocated).
struct AllocationSpec {
  AllocationPolicy policy = AllocationPolicy::Asl;
  unsigned queue_depth = 16;
};
std::optional<AllocationSpec> allocation_spec_from_text(std::string_view text);
/// The spec as allocation_spec_from_text reads it: "asl" or "queue:N".
std::string allocation_spec_text(const AllocationSpec& spec);


/// Every element of the valid rectangle of a fragment with descriptor `d` is defined. Inline:
/// preflight asks it of every source on every participating PE.
inline bool region_defined(const Definedness& defined, const TileDescriptor& d) {
  return defined.size() >= d.element_count() && defined.rect_defined(d.valid_rows, d.valid_cols, d.cols);
}

struct LocalTile {
  bool allocated = false;
  TileDescriptor desc;
  std::array<Definedness, kPeCount> defined;  ///< meaningful for PEs in desc.pe_mask
  /// The descriptor installed, when it was legal (descriptor_problem found nothing): CUBE
  /// preflight checks its sources' descriptors on every bundle, and one still equal to it needs
  /// no second check.
  std::optional<TileDescriptor> legal_desc;

  /// `d` is the descriptor installed here and found legal then.
  bool installed_legal(const TileDescriptor& d) const { return legal_desc && *legal_desc == d; }

  bool element_defined(int pe, std::uint32_t r, std::uint32_t c) const {
    return defined[pe].test(std::uint64_t{r} * desc.cols + c);
  }
  /// The first PE of `mask` whose fragment has an undefined element in the valid rectangle, or -1.
  /// Preflight asks it of every source: the descriptor is read once, not once per PE.
  int first_pe_with_undefined_region(PeMask mask) const {
    const TileDescriptor d = desc;
    for (int pe = 0; pe < kPeCount; ++pe)
      if (mask.has(pe) && !region_defined(defined[pe], d)) return pe;
    return -1;
  }
};

struct SharedTile {
  bool allocated = false;
  TileDescriptor desc;     ///< ordinary layouts only; rows derive from the (per-PE) capacity
  PeMask allocation_mask;  ///< fixed by the first write
  PeMask initialized_mask; ///< which PE quarters were written
  bool published = false;
  Definedness defined;     ///< one fragment shared by every PE of the core

  bool valid_region_defined() const { return region_defined(defined, desc); }
};

/// A destination to allocate: its hand (0..3 = T, U, M, N) and descriptor.
struct DestinationRequest {
  unsigned hand = 0;
  TileDescriptor desc;
  bool desc_checked = false;  ///< the caller found desc legal (descriptor_problem): not checked again
};

class TileState {
 public:
  explicit TileState(AllocationPolicy policy = AllocationPolicy::Asl, unsigned queue_depth = kHandSize);

  AllocationPolicy policy() const { return m_policy; }

  // Mutable access marks the tile so the next capacity query re-charges it: finish changing a tile
  // before asking for capacity again.

  /// Local register by its architectural name (X#k index 0..63), resolved through the policy.
  LocalTile& local(unsigned index) { return slot(physical_index(index)); }
  const LocalTile& local(unsigned index) const { return m_local[physical_index(index)]; }
  /// The physical slot (payload location) an architectural Local index currently names.
  unsigned physical_index(unsigned index) const { return m_order[index / kHandSize][index % kHandSize]; }
  /// The physical slot of any tile register: a Local one's as physical_index, a Shared one's its
  /// index (Shared registers are never renamed). The register must exist (TileRef::parse's range).
  unsigned physical_slot(TileRef ref) const { return ref.is_shared() ? ref.index : physical_index(ref.index); }
  /// Local register by physical slot (stable while its names shift under the queue policy).
  LocalTile& slot(unsigned physical) {
    m_touched_local |= std::uint64_t{1} << physical;
    return m_local[physical];
  }
  const LocalTile& slot(unsigned physical) const { return m_local[physical]; }

  SharedTile& shared(unsigned index) {
    m_touched_shared[index / 64] |= std::uint64_t{1} << (index % 64);
    return m_shared[index];
  }
  const SharedTile& shared(unsigned index) const { return m_shared[index]; }

  /// Bytes charged against TILE_CAPACITY on PE `pe`: the capacity of every live tile (Local or
  /// Shared) whose mask includes that PE. TILE_CAPACITY bounds each PE's tile memory separately
  /// (2048 CELLs per PE), a documented choice where the ASL sums all PEs against one bound.
  std::uint64_t capacity_in_use(int pe) const;
  /// The most loaded PE's capacity_in_use.
  std::uint64_t capacity_in_use() const;
  /// capacity_in_use of every PE.
  std::array<std::uint64_t, kPeCount> capacity_per_pe() const;
  std::uint64_t tile_capacity() const { return m_tile_capacity; }
  void set_tile_capacity(std::uint64_t bytes) { m_tile_capacity = bytes; }

  /// Checks that every request can be placed (free register in its hand, capacity) without changing
  /// anything; TileAllocation fault otherwise.
  Status check_allocation(const std::vector<DestinationRequest>& requests) const {
    return check_requests(requests.data(), requests.size());
  }
  /// The same for a single request, without building a list for it.
  Status check_allocation(const DestinationRequest& request) const { return check_requests(&request, 1); }
  /// Places every request in order (all-or-nothing) and returns their architectural names. New
  /// tiles start fully undefined. Under the Queue policy, older results of the hand shift by one
  /// and the one pushed past X#16 is released.
  Result<std::vector<TileRef>> allocate(const std::vector<DestinationRequest>& requests);
  /// allocate for requests check_allocation accepted with no allocation, descriptor or capacity
  /// change since (the dispatcher checks before waiting for room, then places): no second check.
  /// `names` is cleared, then receives the names (the dispatcher reuses one list for every bundle).
  void allocate_checked(const std::vector<DestinationRequest>& requests, std::vector<TileRef>& names);
  /// Installs a tile at a named register (scenario/program inputs), replacing what was there. A
  /// descriptor preflight would reject installs (and faults there); one install_problem names is
  /// std::invalid_argument, before any change.
  void install_local(unsigned index, const TileDescriptor& desc);
  void install_shared(unsigned index, const TileDescriptor& desc, PeMask allocation, PeMask initialized,
                      bool published);

  /// Why a tile cannot be installed at register `index` of `space`: no such register, a capacity
  /// beyond the largest tile, or more elements than the capacity holds. Nothing if it can.
  static std::optional<std::string> install_problem(TileRef::Space space, unsigned index, const TileDescriptor& desc);
  /// Why installing `desc` at register `index` of `space` would charge some PE of its mask beyond
  /// the tile capacity (the register's current tile counted as replaced), or nothing. A Shared
  /// tile is charged on `desc.pe_mask` (its allocation). A register that does not exist is a
  /// problem too (index_problem).
  std::optional<std::string> install_capacity_problem(TileRef::Space space, unsigned index, const TileDescriptor& desc) const;
  /// Why `desc`, given field by field (a host's tile window), cannot be installed at register
  /// `index` of `space` as an input tile: what install_problem names, an illegal descriptor
  /// (descriptor_problem), a Shared tile in a CUBE layout, an ordinary layout whose rows are not
  /// the rows its capacity holds (which a program file derives), or what install_capacity_problem
  /// names. Nothing if it can.
  std::optional<std::string> input_tile_problem(TileRef::Space space, unsigned index, const TileDescriptor& desc) const;
  /// Why `index` names no register of `space`, or nothing.
  static std::optional<std::string> index_problem(TileRef::Space space, unsigned index);
  /// Why Local register `index` has no fragment `pe` to read (no such register or PE), or nothing.
  static std::optional<std::string> fragment_problem(unsigned index, int pe);
  /// Why PE `pe` has no GPR `selector` to set (selector 0 reads as zero and is not set), or nothing.
  static std::optional<std::string> gpr_problem(int pe, unsigned selector);

  std::uint64_t gpr(int pe, unsigned selector) const { return selector == 0 ? 0 : m_gprs[pe][selector]; }
  void set_gpr(int pe, unsigned selector, std::uint64_t value) {
    if (selector != 0) m_gprs[pe][selector] = value;
  }

  NumericFlags status() const { return m_status; }
  void set_status(NumericFlags flags) { m_status = flags & kAllFlags; }
  void raise_status(NumericFlags flags) { m_status |= flags & kAllFlags; }

 private:
  /// What one tile charges against TILE_CAPACITY: `bytes` on each PE of `mask` (nothing when free).
  struct Charge {
    PeMask mask;
    std::uint32_t bytes = 0;
  };
  /// install_local for a descriptor whose legality the caller knows.
  void place_local(unsigned index, const TileDescriptor& desc, bool legal);
  /// Re-charges the tiles marked by mutable access since the last capacity query.
  void reconcile_capacity() const;
  /// check_allocation of requests[0, count).
  Status check_requests(const DestinationRequest* requests, std::size_t count) const;

  AllocationPolicy m_policy;
  unsigned m_queue_depth;
  std::array<LocalTile, kLocalTileCount> m_local{};
  std::array<SharedTile, kSharedTileCount> m_shared{};
  /// Queue policy: m_order[hand][k] = physical slot holding X#(k+1). Identity under Asl.
  std::array<std::array<std::uint8_t, kHandSize>, 4> m_order{};
  std::array<std::array<std::uint64_t, kGprCount>, kPeCount> m_gprs{};
  NumericFlags m_status = 0;
  std::uint64_t m_tile_capacity = kDefaultTileCapacity;
  // Capacity in use as running per-PE sums: allocation checks run on every bundle, and rescanning
  // all 320 tiles each time dominated them. Kept exact by re-charging marked tiles on demand.
  mutable std::array<std::uint64_t, kPeCount> m_in_use{};
  mutable std::array<Charge, kLocalTileCount> m_local_charge{};
  mutable std::array<Charge, kSharedTileCount> m_shared_charge{};
  mutable std::uint64_t m_touched_local = 0;  ///< bit per physical Local slot
  mutable std::array<std::uint64_t, kSharedTileCount / 64> m_touched_shared{};
};

}  // namespace ptosim::model
