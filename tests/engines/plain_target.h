// SPDX-License-Identifier: BSD-3-Clause
// PlainTarget: the simplest TLM target — it answers every b_transport OK and does nothing else
// (no data, no timing, no extensions understood). Engine tests bind it where a memory must know
// nothing of the project's own protocol.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

namespace ptosim::test {

struct PlainTarget : sc_core::sc_module {
  tlm_utils::simple_target_socket<PlainTarget> socket{"socket"};
  explicit PlainTarget(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    socket.register_b_transport(this, &PlainTarget::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time&) { gp.set_response_status(tlm::TLM_OK_RESPONSE); }
};

}  // namespace ptosim::test
