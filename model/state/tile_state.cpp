// SPDX-License-Identifier: BSD-3-Clause
#include "model/state/tile_state.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ptosim::model {

const char* allocation_policy_name(AllocationPolicy p) { return p == AllocationPolicy::Asl ? "asl" : "queue"; }

std::optional<AllocationPolicy> allocation_policy_from_name(std::string_view name) {
  if (name == "asl") return AllocationPolicy::Asl;
  if (name == "queue") return AllocationPolicy::Queue;
  return std::nullopt;
}

std::optional<AllocationSpec> allocation_spec_from_text(std::string_view text) {
  if (const auto p = allocation_policy_from_name(text)) return AllocationSpec{*p, kHandSize};
  if (text.substr(0, 6) != "queue:" || text.size() < 7 || text.size() > 8) return std::nullopt;
  unsigned depth = 0;
  for (char c : text.substr(6)) {
    if (c < '0' || c > '9') return std::nullopt;
    depth = depth * 10 + static_cast<unsigned>(c - '0');
  }
  if (depth < 1 || depth > kHandSize) return std::nullopt;
  return AllocationSpec{AllocationPolicy::Queue, depth};
}

std::string allocation_spec_text(const AllocationSpec& spec) {
  if (spec.policy == AllocationPolicy::Asl) return allocation_policy_name(spec.policy);
  return std::string(allocation_policy_name(spec.policy)) + ":" + std::to_string(spec.queue_depth);
}

TileState::TileState(AllocationPolicy policy, unsigned queue_depth) : m_policy(policy), m_queue_depth(queue_depth) {
  for (unsigned hand = 0; hand < 4; ++hand)
    for (unsigned k = 0; k < kHandSize; ++k) m_order[hand][k] = static_cast<std::uint8_t>(hand * kHandSize + k);
}

void TileState::reconcile_capacity() const {
  auto recharge = [this](Charge& charged, Charge now) {
    for (int pe = 0; pe < kPeCount; ++pe) {
      if (charged.mask.has(pe)) m_in_use[pe] -= charged.bytes;
      if (now.mask.has(pe)) m_in_use[pe] += now.bytes;
    }
    charged = now;
  };
  // Visits the set bits of `touched`, clearing it.
  auto each_marked = [](std::uint64_t& touched, unsigned base, auto visit) {
    for (; touched != 0; touched &= touched - 1) visit(base + static_cast<unsigned>(__builtin_ctzll(touched)));
  };
  each_marked(m_touched_local, 0, [&](unsigned i) {
    const LocalTile& t = m_local[i];
    recharge(m_local_charge[i], t.allocated ? Charge{t.desc.pe_mask, t.desc.capacity_bytes} : Charge{});
  });
  for (unsigned w = 0; w < m_touched_shared.size(); ++w)
    each_marked(m_touched_shared[w], w * 64, [&](unsigned i) {
      const SharedTile& t = m_shared[i];
      recharge(m_shared_charge[i], t.allocated ? Charge{t.allocation_mask, t.desc.capacity_bytes} : Charge{});
    });
}

std::array<std::uint64_t, kPeCount> TileState::capacity_per_pe() const {
  reconcile_capacity();
  return m_in_use;
}

std::uint64_t TileState::capacity_in_use(int pe) const { return capacity_per_pe()[pe]; }

std::uint64_t TileState::capacity_in_use() const {
  const auto used = capacity_per_pe();
  return *std::max_element(used.begin(), used.end());
}

Status TileState::check_requests(const DestinationRequest* requests, std::size_t count) const {
  std::array<std::uint64_t, kPeCount> in_use = capacity_per_pe();
  // The state as the requests so far would leave it: each hand's order, and the earlier request
  // now holding each slot (null: the slot keeps its current tile and charge).
  auto order = m_order;
  // Left uninitialised (clearing it cost more than the rest of a one-request check): an entry is
  // read only once its bit in granted_slots is set.
  std::array<const DestinationRequest*, kLocalTileCount> granted;
  std::uint64_t granted_slots = 0;
  auto holder_of = [&](unsigned slot) { return (granted_slots >> slot) & 1U ? granted[slot] : nullptr; };

  for (std::size_t i = 0; i < count; ++i) {
    const DestinationRequest& req = requests[i];
    const char hand = kHandLetters[req.hand];
    if (const auto problem = req.desc_checked ? std::nullopt : descriptor_problem(req.desc))
      return fault(FaultCode::TileAllocation,
                   std::string("destination in hand ") + hand + " cannot be allocated: " + std::string(problem->rule));
    unsigned slot = 0;
    if (m_policy == AllocationPolicy::Asl) {
      bool found = false;
      for (unsigned k = 0; k < kHandSize && !found; ++k) {
        slot = req.hand * kHandSize + k;
        found = !m_local[slot].allocated && !holder_of(slot);
      }
      if (!found)
        return fault(FaultCode::TileAllocation, std::string("no free register in hand ") + hand +
                                                    " (allocation policy asl never releases a register)");
    } else {
      // The oldest entry (X#depth) is released and becomes the new X#1.
      auto& q = order[req.hand];
      slot = q[m_queue_depth - 1];
      for (unsigned k = m_queue_depth - 1; k > 0; --k) q[k] = q[k - 1];
      q[0] = static_cast<std::uint8_t>(slot);
      // A bundle's results publish together: the queue may release older tiles, never one of them.
      if (holder_of(slot))
        return fault(FaultCode::TileAllocation, std::string("hand ") + hand + "'s queue (queue:" +
                                                    std::to_string(m_queue_depth) +
                                                    ") cannot hold every destination this bundle puts in it");
      const Charge released = m_local_charge[slot];
      for (int pe = 0; pe < kPeCount; ++pe)
        if (released.mask.has(pe)) in_use[pe] -= released.bytes;
    }
    for (int pe = 0; pe < kPeCount; ++pe) {
      if (!req.desc.pe_mask.has(pe)) continue;
      if (in_use[pe] + req.desc.capacity_bytes > m_tile_capacity)
        return fault(FaultCode::TileAllocation,
                     "tile capacity exhausted on PE" + std::to_string(pe) + ": destination needs " +
                         std::to_string(req.desc.capacity_bytes) + " bytes, " + std::to_string(in_use[pe]) + " of " +
                         std::to_string(m_tile_capacity) + " in use");
      in_use[pe] += req.desc.capacity_bytes;
    }
    granted[slot] = &req;
    granted_slots |= std::uint64_t{1} << slot;
  }
  return std::nullopt;
}

Result<std::vector<TileRef>> TileState::allocate(const std::vector<DestinationRequest>& requests) {
  if (auto problem = check_allocation(requests)) return *problem;
  std::vector<TileRef> names;
  allocate_checked(requests, names);
  return names;
}

void TileState::allocate_checked(const std::vector<DestinationRequest>& requests, std::vector<TileRef>& names) {
  names.clear();
  for (const DestinationRequest& req : requests) {
    unsigned index = 0;
    if (m_policy == AllocationPolicy::Asl) {
      for (unsigned k = 0; k < kHandSize; ++k) {
        index = req.hand * kHandSize + k;
        if (!m_local[index].allocated) break;
      }
    } else {
      auto& q = m_order[req.hand];
      const std::uint8_t slot = q[m_queue_depth - 1];
      for (unsigned k = m_queue_depth - 1; k > 0; --k) q[k] = q[k - 1];
      q[0] = slot;
      index = req.hand * kHandSize;
      // Older names now refer to the shifted slots; every earlier result is one position older.
      for (TileRef& earlier : names)
        if (earlier.hand() == req.hand) earlier.index = static_cast<std::uint16_t>(earlier.index + 1);
    }
    place_local(index, req.desc, true);  // checked by check_allocation, or by its caller (desc_checked)
    names.push_back(TileRef::local(index));
  }
}

std::optional<std::string> TileState::index_problem(TileRef::Space space, unsigned index) {
  const bool shared = space == TileRef::Space::Shared;
  const unsigned count = shared ? kSharedTileCount : kLocalTileCount;
  if (index < count) return std::nullopt;
  return std::string(shared ? "Shared" : "Local") + " register index " + std::to_string(index) + " is past the " +
         std::to_string(count) + " registers";
}

std::optional<std::string> TileState::fragment_problem(unsigned index, int pe) {
  if (auto problem = index_problem(TileRef::Space::Local, index)) return problem;
  if (pe < 0 || pe >= kPeCount) return "PE " + std::to_string(pe) + " is not one of the four";
  return std::nullopt;
}

std::optional<std::string> TileState::gpr_problem(int pe, unsigned selector) {
  if (pe >= 0 && pe < kPeCount && selector != 0 && selector < kGprCount) return std::nullopt;
  return "PE " + std::to_string(pe) + " GPR " + std::to_string(selector) + " does not exist (PEs 0.." +
         std::to_string(kPeCount - 1) + ", GPRs 1.." + std::to_string(kGprCount - 1) + ")";
}

std::optional<std::string> TileState::install_problem(TileRef::Space space, unsigned index, const TileDescriptor& desc) {
  if (auto problem = index_problem(space, index)) return problem;
  if (desc.capacity_bytes > kMaxTileBytes)
    return "capacity " + std::to_string(desc.capacity_bytes) + " B exceeds the largest tile, " +
           std::to_string(kMaxTileBytes) + " B";
  if (!desc.storage_fits())
    return std::to_string(desc.rows) + "x" + std::to_string(desc.cols) + " " + data_type_name(desc.dtype) +
           " elements need more than the capacity of " + std::to_string(desc.capacity_bytes) + " B";
  return std::nullopt;
}

std::optional<std::string> TileState::install_capacity_problem(TileRef::Space space, unsigned index,
                                                               const TileDescriptor& desc) const {
  if (auto problem = index_problem(space, index)) return problem;
  const std::array<std::uint64_t, kPeCount> in_use = capacity_per_pe();
  PeMask replaced;
  std::uint64_t replaced_bytes = 0;
  if (space == TileRef::Space::Local && local(index).allocated) {
    replaced = local(index).desc.pe_mask;
    replaced_bytes = local(index).desc.capacity_bytes;
  } else if (space == TileRef::Space::Shared && shared(index).allocated) {
    replaced = shared(index).allocation_mask;
    replaced_bytes = shared(index).desc.capacity_bytes;
  }
  for (int pe = 0; pe < kPeCount; ++pe) {
    if (!desc.pe_mask.has(pe)) continue;
    // The replaced tile's bytes are part of in_use on its PEs: no wrap.
    const std::uint64_t total = in_use[pe] - (replaced.has(pe) ? replaced_bytes : 0) + desc.capacity_bytes;
    if (total > m_tile_capacity)
      return "the tiles would hold " + std::to_string(total) + " bytes on PE" + std::to_string(pe) +
             ", beyond its tile capacity (" + std::to_string(m_tile_capacity) + ")";
  }
  return std::nullopt;
}

std::optional<std::string> TileState::input_tile_problem(TileRef::Space space, unsigned index,
                                                         const TileDescriptor& desc) const {
  if (auto problem = install_problem(space, index, desc)) return problem;
  const bool cube = is_cube_layout(desc.layout);
  if (cube && space == TileRef::Space::Shared) return std::string("Shared tiles never use CUBE layouts");
  if (const auto illegal = descriptor_problem(desc)) return std::string(illegal->rule);
  if (!cube) {
    const auto derived = derived_rows(desc.dtype, desc.capacity_bytes, desc.cols);
    if (!derived)
      return "capacity " + std::to_string(desc.capacity_bytes) + " B does not divide into 1..65535 rows of " +
             std::to_string(desc.cols) + " " + data_type_name(desc.dtype) + " elements";
    if (*derived != desc.rows)
      return std::to_string(desc.rows) + " rows are not the " + std::to_string(*derived) + " the capacity holds";
  }
  return install_capacity_problem(space, index, desc);
}

void TileState::install_local(unsigned index, const TileDescriptor& desc) {
  if (auto problem = install_problem(TileRef::Space::Local, index, desc)) throw std::invalid_argument(*problem);
  place_local(index, desc, !descriptor_problem(desc));
}

void TileState::place_local(unsigned index, const TileDescriptor& desc, bool legal) {
  LocalTile& t = local(index);
  t.allocated = true;
  t.desc = desc;
  if (legal)
    t.legal_desc = desc;
  else
    t.legal_desc.reset();
  for (int pe = 0; pe < kPeCount; ++pe) t.defined[pe].assign(desc.pe_mask.has(pe) ? desc.element_count() : 0, false);
}

void TileState::install_shared(unsigned index, const TileDescriptor& desc, PeMask allocation, PeMask initialized,
                               bool published) {
  if (auto problem = install_problem(TileRef::Space::Shared, index, desc)) throw std::invalid_argument(*problem);
  SharedTile& t = shared(index);
  t.allocated = true;
  t.desc = desc;
  t.allocation_mask = allocation;
  t.initialized_mask = initialized;
  t.published = published;
  t.defined.assign(desc.element_count(), false);
}

}  // namespace ptosim::model
