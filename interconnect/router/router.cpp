// SPDX-License-Identifier: BSD-3-Clause
#include "interconnect/router/router.h"

#include <algorithm>

namespace ptosim::interconnect {

Router::Router(sc_core::sc_module_name name, sc_core::sc_time hop_latency)
    : sc_core::sc_module(name), target_socket("target_socket"), initiator_socket("initiator_socket"),
      m_hop_latency(hop_latency) {
  target_socket.register_b_transport(this, &Router::b_transport);
  target_socket.register_transport_dbg(this, &Router::transport_dbg);
  target_socket.register_get_direct_mem_ptr(this, &Router::get_direct_mem_ptr);
  initiator_socket.register_invalidate_direct_mem_ptr(this, &Router::invalidate_direct_mem_ptr);
}

void Router::map(unsigned index, model::AddressRange range, std::string target_name) {
  for (const Route& r : m_routes) {
    if (r.range.overlaps(range)) {
      SC_REPORT_ERROR(name(), ("map: the range of " + target_name + " overlaps that of " + r.name).c_str());
      return;  // unmapped, should the report not throw
    }
  }
  m_routes.push_back(Route{range, index, std::move(target_name)});
}

const Router::Route* Router::decode(std::uint64_t addr, std::uint64_t len) const {
  for (const Route& r : m_routes)
    if (r.range.contains(addr, len)) return &r;
  return nullptr;
}

void Router::b_transport(int, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const std::uint64_t addr = gp.get_address();
  const Route* route = decode(addr, gp.get_data_length());
  if (!route) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  ++m_transactions;
  delay += m_hop_latency;
  gp.set_address(addr - route->range.base);
  initiator_socket[route->index]->b_transport(gp, delay);
  gp.set_address(addr);
}

unsigned int Router::transport_dbg(int, tlm::tlm_generic_payload& gp) {
  const std::uint64_t addr = gp.get_address();
  const Route* route = decode(addr, gp.get_data_length());
  if (!route) return 0;
  gp.set_address(addr - route->range.base);
  const unsigned int n = initiator_socket[route->index]->transport_dbg(gp);
  gp.set_address(addr);
  return n;
}

bool Router::get_direct_mem_ptr(int, tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
  const std::uint64_t addr = gp.get_address();
  const Route* route = decode(addr, 1);
  if (!route) {  // no DMI at an unmapped address (and nothing said of the rest)
    dmi.set_start_address(addr);
    dmi.set_end_address(addr);
    return false;
  }
  gp.set_address(addr - route->range.base);
  const bool granted = initiator_socket[route->index]->get_direct_mem_ptr(gp, dmi);
  gp.set_address(addr);
  // Target-relative range back to the initiator's addresses, clipped to the route (a target may
  // answer "everything", up to ~0, which must not wrap).
  const std::uint64_t last_offset = route->range.size - 1;
  dmi.set_start_address(route->range.base + std::min<std::uint64_t>(dmi.get_start_address(), last_offset));
  dmi.set_end_address(route->range.base + std::min<std::uint64_t>(dmi.get_end_address(), last_offset));
  if (granted) {  // an access through the pointer crosses the router too
    dmi.set_read_latency(dmi.get_read_latency() + m_hop_latency);
    dmi.set_write_latency(dmi.get_write_latency() + m_hop_latency);
  }
  return granted;
}

void Router::invalidate_direct_mem_ptr(int id, sc_dt::uint64 start, sc_dt::uint64 end) {
  for (const Route& r : m_routes) {
    if (r.index != static_cast<unsigned>(id)) continue;
    // Clip to the route first: "everything" (end = ~0) must not wrap past the top of the map.
    if (start >= r.range.size) continue;
    const std::uint64_t last = std::min<std::uint64_t>(end, r.range.size - 1);
    for (unsigned i = 0; i < target_socket.size(); ++i)
      target_socket[i]->invalidate_direct_mem_ptr(r.range.base + start, r.range.base + last);
  }
}

}  // namespace ptosim::interconnect
