// SPDX-License-Identifier: BSD-3-Clause
// DebugPort: an initiator that reads and writes target memory with debug transport (no simulated
// time) — how a platform loads inputs and inspects results.
#pragma once

#include <cstdint>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

namespace ptosim::interconnect {

class DebugPort : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<DebugPort> initiator_socket;

  explicit DebugPort(sc_core::sc_module_name name) : sc_core::sc_module(name), initiator_socket("initiator_socket") {}

  /// Returns true when the whole range was transferred.
  bool read(std::uint64_t addr, std::uint8_t* data, std::uint64_t len) { return transfer(tlm::TLM_READ_COMMAND, addr, data, len); }
  bool write(std::uint64_t addr, const std::uint8_t* data, std::uint64_t len) {
    return transfer(tlm::TLM_WRITE_COMMAND, addr, const_cast<std::uint8_t*>(data), len);
  }

 private:
  bool transfer(tlm::tlm_command cmd, std::uint64_t addr, std::uint8_t* data, std::uint64_t len) {
    tlm::tlm_generic_payload gp;
    gp.set_command(cmd);
    gp.set_address(addr);
    gp.set_data_ptr(data);
    gp.set_data_length(static_cast<unsigned int>(len));
    gp.set_streaming_width(static_cast<unsigned int>(len));
    return initiator_socket->transport_dbg(gp) == len;
  }
};

}  // namespace ptosim::interconnect
