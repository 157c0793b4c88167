// SPDX-License-Identifier: BSD-3-Clause
#include "engines/memory/tile_memory.h"

#include "engines/common/burst_train.h"

#include <algorithm>
#include <cstring>
#include <functional>

namespace ptosim::engines {

TileMemory::TileMemory(sc_core::sc_module_name name, unsigned slots, std::uint64_t slot_stride,
                       const model::MemoryParams& params, const model::ClockParams& clock)
    : sc_core::sc_module(name), target_socket("target_socket"), m_clock(clock), m_slot_stride(slot_stride),
      m_storage(slots), m_ports(params) {
  target_socket.register_b_transport(this, &TileMemory::b_transport);
  target_socket.register_transport_dbg(this, &TileMemory::transport_dbg);
  target_socket.register_get_direct_mem_ptr(this, &TileMemory::get_direct_mem_ptr);
  SC_METHOD(update_port_trace);
  sensitive << m_port_change;
  dont_initialize();
}

void TileMemory::trace_to(traces::VcdRecorder& rec, const std::string& scope) {
  m_tracing = true;
  m_active_ports.attach(&rec, rec.declare(scope, "active_ports", traces::VcdRecorder::width_for(m_ports.port_bytes().size())));
}

void TileMemory::sample_ports_at(std::uint64_t cycle) {
  m_samples.push_back(cycle);
  std::push_heap(m_samples.begin(), m_samples.end(), std::greater<>());
  if (cycle < m_armed) {
    m_armed = cycle;
    m_port_change.notify(m_clock.to_time(model::Cycles(cycle)) - sc_core::sc_time_stamp());
  }
}

void TileMemory::update_port_trace() {
  const std::uint64_t now = m_clock.now_cycles();
  while (!m_samples.empty() && m_samples.front() <= now) {
    std::pop_heap(m_samples.begin(), m_samples.end(), std::greater<>());
    m_samples.pop_back();
  }
  m_active_ports.set(m_ports.active_at(now), Clocked::now_ps);
  m_armed = ~std::uint64_t{0};
  if (!m_samples.empty()) {
    m_armed = m_samples.front();
    m_port_change.notify(m_clock.to_time(model::Cycles(m_armed)) - sc_core::sc_time_stamp());
  }
}

std::optional<unsigned> TileMemory::slot_of(std::uint64_t addr, std::uint64_t len) {
  if (!in_slot(addr, len)) return std::nullopt;
  const std::uint64_t slot = m_slot_stride.quotient(addr), offset = m_slot_stride.remainder(addr);
  const auto s = static_cast<unsigned>(slot);
  if (m_storage.size(s) < offset + len) {
    // Storage grows to what tiles use (a power of two), not to the slot's full stride: first
    // touches of large slots would dominate short runs. Growing may move the bytes, so direct
    // pointers to the slot are revoked.
    std::uint64_t size = 128;
    while (size < offset + len) size <<= 1;
    const std::uint8_t* before = m_storage.size(s) != 0 ? m_storage.data(s) : nullptr;
    m_storage.grow(s, size);
    if (before && before != m_storage.data(s))
      target_socket->invalidate_direct_mem_ptr(slot * m_slot_stride.divisor(), (slot + 1) * m_slot_stride.divisor() - 1);
  }
  return s;
}

bool TileMemory::get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
  // The request's data length says how much of the slot the initiator needs (at least a byte).
  const auto s = slot_of(gp.get_address(), std::max<std::uint64_t>(1, gp.get_data_length()));
  if (!s) return false;
  const std::uint64_t base = std::uint64_t{*s} * m_slot_stride.divisor();
  dmi.set_dmi_ptr(m_storage.data(*s));
  dmi.set_start_address(base);
  dmi.set_end_address(base + m_storage.size(*s) - 1);
  dmi.allow_read_write();
  dmi.set_read_latency(m_clock.to_time(model::Cycles(m_ports.occupancy(1))));
  dmi.set_write_latency(m_clock.to_time(model::Cycles(m_ports.occupancy(1))));
  return true;
}

bool TileMemory::move_data(tlm::tlm_generic_payload& gp) {
  const std::uint64_t addr = gp.get_address();
  const std::uint64_t len = gp.get_data_length();
  if (gp.get_byte_enable_ptr()) return false;  // tile payloads move whole bytes
  const auto s = slot_of(addr, len);
  if (!s) return false;
  const std::uint64_t offset = m_slot_stride.remainder(addr);
  if (gp.is_read()) {
    std::memcpy(gp.get_data_ptr(), m_storage.data(*s) + offset, len);
  } else if (gp.is_write()) {
    std::memcpy(m_storage.data(*s) + offset, gp.get_data_ptr(), len);
  }
  return true;
}

void TileMemory::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  auto* train = gp.get_extension<BurstTrain>();
  if (gp.get_command() == tlm::TLM_IGNORE_COMMAND) {
    const bool ok = !train || book_train(*train, train->origin - gp.get_address(), delay);
    gp.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (train) {  // trains move no data: they ride on TLM_IGNORE_COMMAND only
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  // Tile payloads move as whole, contiguous bytes: no byte enables, no streaming.
  if (gp.get_byte_enable_ptr()) {
    gp.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  if (gp.get_streaming_width() < gp.get_data_length()) {
    gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  const std::uint64_t addr = gp.get_address(), len = gp.get_data_length();
  if (!move_data(gp)) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  const sc_core::sc_time stamp = sc_core::sc_time_stamp();
  delay = m_clock.to_time(model::Cycles(book(m_clock.now_cycles(), m_clock.to_cycles(stamp + delay), addr, len))) - stamp;
  (gp.is_read() ? m_bytes_read : m_bytes_written) += len;
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

std::uint64_t TileMemory::book(std::uint64_t now, std::uint64_t arrival, std::uint64_t addr, std::uint64_t len) {
  const auto grant = m_ports.reserve(now, arrival, addr, len);
  if (m_tracing) {
    sample_ports_at(grant.start);
    sample_ports_at(grant.start + m_ports.occupancy(len));
  }
  return grant.done;
}

// Every burst of every command passes here: flattening inlines the whole per-burst path (port
// reservation included), which the compiler's size limits would otherwise leave as calls.
[[gnu::flatten]] bool TileMemory::book_train(BurstTrain& train, std::uint64_t shift, sc_core::sc_time& delay) {
  // Every transfer still to book must lie in one slot, or nothing is booked.
  for (std::size_t i = 0; i < train.stream_count; ++i) {
    const model::BurstStream& s = *train.streams[i];
    for (std::size_t t = s.next; t < s.transfers.size(); ++t)
      if (!in_slot(s.transfers[t].address - shift, s.transfers[t].bytes)) return false;
  }
  // The pacers speak the initiator's times; the bursts reach this memory `hop` later (the delay the
  // interconnect added to the train, sent with none).
  const std::uint64_t stamp = sc_core::sc_time_stamp().value(), period = m_clock.period().value();
  const std::uint64_t hop = delay.value();
  const std::uint64_t now = stamp / period;
  std::uint64_t done = stamp;
  train.booked_bytes = model::book_streams(
      train.streams, train.stream_count, train.burst_bytes, train.horizon,
      [&](const model::BurstStream& s, std::uint64_t addr, std::uint64_t bytes) {
        const std::uint64_t arrival = m_clock.to_cycles(s.pacer.next_issue() + hop);  // the next clock edge
        const std::uint64_t completes = book(now, arrival, addr - shift, bytes) * period;
        (s.write ? m_bytes_written : m_bytes_read) += bytes;
        done = std::max(done, completes);
        return completes;
      });
  delay = sc_core::sc_time::from_value(done - stamp);
  return true;
}

unsigned int TileMemory::transport_dbg(tlm::tlm_generic_payload& gp) {
  return move_data(gp) ? static_cast<unsigned int>(gp.get_data_length()) : 0;
}

}  // namespace ptosim::engines
