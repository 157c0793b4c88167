// SPDX-License-Identifier: BSD-3-Clause
// TileMemory: a TLM-2.0 target holding tile payloads (a PE's Local memory or the Shared memory)
// around model::TileStorage. Slot s occupies [s * slot_stride, (s + 1) * slot_stride). Access
// timing (ports, banks, latency) comes from model::MemoryPortModel. It grants DMI per slot (and
// revokes it when a slot's storage grows and moves), serves debug transport, and times
// TLM_IGNORE_COMMAND transactions that carry a BurstTrain extension as bursts, without moving data.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "engines/common/clocked.h"
#include "model/common/invariant_divisor.h"
#include "model/memory/port_model.h"
#include "model/state/tile_storage.h"
#include "traces/vcd_recorder.h"

namespace ptosim::engines {

struct BurstTrain;

class TileMemory : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(TileMemory);
  tlm_utils::simple_target_socket<TileMemory> target_socket;

  TileMemory(sc_core::sc_module_name name, unsigned slots, std::uint64_t slot_stride,
             const model::MemoryParams& params, const model::ClockParams& clock);

  std::uint64_t size_bytes() const { return std::uint64_t{m_storage.slot_count()} * m_slot_stride.divisor(); }
  std::uint64_t bytes_read() const { return m_bytes_read; }
  std::uint64_t bytes_written() const { return m_bytes_written; }
  const model::MemoryPortModel& ports() const { return m_ports; }
  /// Declares the traced "active_ports" signal (accesses holding a port) under `scope`.
  void trace_to(traces::VcdRecorder& rec, const std::string& scope);

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& gp);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi);
  /// Whether [addr, addr + len) lies in one slot.
  bool in_slot(std::uint64_t addr, std::uint64_t len) const {
    return m_slot_stride.quotient(addr) < m_storage.slot_count() && m_slot_stride.remainder(addr) + len <= m_slot_stride.divisor();
  }
  /// The slot holding [addr, addr + len), or nullopt; the slot's bytes are made to cover that range.
  std::optional<unsigned> slot_of(std::uint64_t addr, std::uint64_t len);
  /// Books an access arriving at cycle `arrival` on the ports (it is cycle `now`); returns the
  /// cycle it completes.
  std::uint64_t book(std::uint64_t now, std::uint64_t arrival, std::uint64_t addr, std::uint64_t len);
  /// Books `train`'s bursts, its addresses `shift` above this memory's; `delay` becomes the last
  /// completion. False (nothing booked) if a transfer lies outside a slot.
  bool book_train(BurstTrain& train, std::uint64_t shift, sc_core::sc_time& delay);
  /// Copies between the payload and storage; returns false on an out-of-slot access.
  bool move_data(tlm::tlm_generic_payload& gp);
  void update_port_trace();

  Clocked m_clock;
  model::InvariantDivisor m_slot_stride;
  model::TileStorage m_storage;
  model::MemoryPortModel m_ports;
  std::uint64_t m_bytes_read = 0;
  std::uint64_t m_bytes_written = 0;
  /// Schedules a port-activity sample at `cycle` (at or after now).
  void sample_ports_at(std::uint64_t cycle);

  // Port activity is traced at booking starts and ends, which lie ahead of the caller's time: a
  // min-heap of pending sample cycles (one event armed for the earliest) collapses the many
  // bookings that start or end on the same cycle into one sample.
  bool m_tracing = false;
  std::vector<std::uint64_t> m_samples;
  std::uint64_t m_armed = ~std::uint64_t{0};
  sc_core::sc_event m_port_change;
  traces::TracedValue m_active_ports;
};

}  // namespace ptosim::engines
