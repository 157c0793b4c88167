// SPDX-License-Identifier: BSD-3-Clause
// Router: forwards TLM-2.0 transactions from any bound initiator to the target whose address range
// holds them (half-open ranges, base subtracted), adding a fixed hop latency. Blocking transport,
// debug transport and DMI (requests forwarded, granted ranges and invalidations translated back);
// contention is modelled by the memory targets.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "model/common/address_range.h"

namespace ptosim::interconnect {

class Router : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Router> target_socket;        ///< initiators bind here
  tlm_utils::multi_passthrough_initiator_socket<Router> initiator_socket;  ///< targets bind here, in map() order

  Router(sc_core::sc_module_name name, sc_core::sc_time hop_latency);

  /// Declares that the target bound as the `index`-th initiator_socket binding serves `range`; a
  /// range overlapping one mapped before is an error (SC_REPORT_ERROR).
  void map(unsigned index, model::AddressRange range, std::string target_name);

  std::uint64_t transactions() const { return m_transactions; }

 private:
  struct Route {
    model::AddressRange range;
    unsigned index;
    std::string name;
  };

  void b_transport(int id, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned int transport_dbg(int id, tlm::tlm_generic_payload& gp);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi);
  void invalidate_direct_mem_ptr(int id, sc_dt::uint64 start, sc_dt::uint64 end);
  const Route* decode(std::uint64_t addr, std::uint64_t len) const;

  sc_core::sc_time m_hop_latency;
  std::vector<Route> m_routes;
  std::uint64_t m_transactions = 0;
};

}  // namespace ptosim::interconnect
