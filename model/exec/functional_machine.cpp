// SPDX-License-Identifier: BSD-3-Clause
#include "model/exec/functional_machine.h"

#include <algorithm>
#include <stdexcept>

#include "model/cube/cube_core.h"
#include "model/exec/preflight.h"
#include "model/plan/preflight_support.h"
#include "model/sfu/sfu_core.h"
#include "model/state/element_access.h"

namespace ptosim::model {

void store_fragment(const TileDescriptor& d, std::uint8_t* bytes, Definedness& defined, const FragmentData& data) {
  defined.assign(d.element_count(), false);
  for (std::uint64_t i = 0; i < data.size() && i < d.element_count(); ++i) {
    if (!data[i]) continue;
    const auto r = static_cast<std::uint32_t>(i / d.cols), c = static_cast<std::uint32_t>(i % d.cols);
    store_element(d, bytes, r, c, *data[i] & element_mask(d.dtype));
    defined.set(i, true);
  }
}

FragmentData fetch_fragment(const TileDescriptor& d, const std::uint8_t* bytes, const Definedness& defined) {
  FragmentData data(d.element_count());
  for (std::uint64_t i = 0; i < d.element_count(); ++i)
    if (defined[i])
      data[i] = load_element(d, bytes, static_cast<std::uint32_t>(i / d.cols), static_cast<std::uint32_t>(i % d.cols));
  return data;
}

NumericFlags execute_plan(const ExecPlan& plan, const PePayloads& io) {
  return plan.engine() == Engine::Cube ? cube_execute(plan, io) : sfu_execute(plan, io);
}

FunctionalMachine::FunctionalMachine(AllocationPolicy policy, unsigned queue_depth) : m_state(policy, queue_depth) {}

BundleOutcome FunctionalMachine::execute(const Bundle& b) {
  BundleOutcome out;
  if (b.is_strict_noop()) {
    out.kind = BundleOutcome::Kind::Noop;
    return out;
  }
  auto planned = preflight(b, m_state, &m_payloads);
  if (!planned) {
    out.kind = BundleOutcome::Kind::Faulted;
    out.fault = planned.fault();
    return out;
  }
  ExecPlan& plan = *planned;

  std::vector<DestinationRequest> requests;
  for (const DestOperand& d : plan.dests) requests.push_back({d.hand, d.desc});
  auto names = m_state.allocate(requests);
  if (!names) {
    out.kind = BundleOutcome::Kind::Faulted;
    out.fault = names.fault();
    return out;
  }
  for (std::size_t i = 0; i < plan.dests.size(); ++i) {
    plan.dests[i].ref = (*names)[i];
    plan.dests[i].slot = m_state.physical_index((*names)[i].index);
  }

  // Sources are read in place, except one whose slot a destination takes over (the queue policy
  // can release a source to its own bundle's result): that one is copied first (read-old/write-new).
  std::vector<std::vector<std::uint8_t>> copies;
  for (int pe = 0; pe < kPeCount; ++pe) {
    if (!plan.mask.has(pe)) continue;
    PePayloads io;
    io.pe = pe;
    for (const SourceOperand& src : plan.sources) {
      const std::uint8_t* p = m_payloads.fragment(src.ref.space, src.slot, pe);
      const bool overwritten = src.ref.is_local() && std::any_of(plan.dests.begin(), plan.dests.end(),
                                                                 [&](const DestOperand& d) { return d.slot == src.slot; });
      if (overwritten) {
        copies.emplace_back(p, p + m_payloads.fragment_size(src.ref.space, src.slot, pe));
        p = copies.back().data();
      }
      io.sources.push_back(p);
    }
    for (const DestOperand& d : plan.dests) {
      m_payloads.reset(TileRef::Space::Local, d.slot, pe, d.desc.capacity_bytes);
      io.dests.push_back(m_payloads.fragment(TileRef::Space::Local, d.slot, pe));
    }
    out.flags |= execute_plan(plan, io);
    for (std::size_t i = 0; i < plan.dests.size(); ++i) write_padding(plan.dests[i], io.dests[i]);
  }
  for (const DestOperand& d : plan.dests) publish_result_definedness(d, plan.mask, m_state.local(d.ref.index));
  m_state.raise_status(out.flags);
  out.destinations = *names;
  out.skipped_checks = plan.skipped_checks;
  return out;
}

void FunctionalMachine::load_local(unsigned index, const TileDescriptor& desc,
                                   const std::array<FragmentData, kPeCount>& data) {
  m_state.install_local(index, desc);
  LocalTile& t = m_state.local(index);
  const unsigned slot = m_state.physical_index(index);
  for (int pe = 0; pe < kPeCount; ++pe) {
    if (!desc.pe_mask.has(pe)) continue;
    m_payloads.reset(TileRef::Space::Local, slot, pe, desc.capacity_bytes);
    store_fragment(desc, m_payloads.fragment(TileRef::Space::Local, slot, pe), t.defined[pe], data[pe]);
  }
}

void FunctionalMachine::load_shared(unsigned index, const TileDescriptor& desc, PeMask allocation,
                                    const FragmentData& data) {
  m_state.install_shared(index, desc, allocation, allocation, true);
  m_payloads.reset(TileRef::Space::Shared, index, 0, desc.capacity_bytes);
  store_fragment(desc, m_payloads.fragment(TileRef::Space::Shared, index, 0), m_state.shared(index).defined, data);
}

FragmentData FunctionalMachine::read_local(unsigned index, int pe) const {
  if (auto problem = TileState::fragment_problem(index, pe)) throw std::out_of_range(*problem);
  const LocalTile& t = m_state.local(index);
  return fetch_fragment(t.desc, m_payloads.fragment(TileRef::Space::Local, m_state.physical_index(index), pe),
                        t.defined[pe]);
}

FragmentData FunctionalMachine::read_shared(unsigned index) const {
  if (auto problem = TileState::index_problem(TileRef::Space::Shared, index)) throw std::out_of_range(*problem);
  const SharedTile& t = m_state.shared(index);
  return fetch_fragment(t.desc, m_payloads.fragment(TileRef::Space::Shared, index, 0), t.defined);
}

}  // namespace ptosim::model
