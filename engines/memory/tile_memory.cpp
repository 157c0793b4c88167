// SPDX-License-Identifier: BSD-3-Clause
#include "engines/memory/tile_memory.h"

#include "engines/common/burst_train.h"

#include <algorithm>
#include <cstring>

namespace ptosim::engines {

TileMemory::TileMemory(sc_core::sc_module_name name, unsigned instances, unsigned slots, std::uint64_t slot_stride,
                       const model::MemoryParams& params, const model::ClockParams& clock)
    : sc_core::sc_module(name), target_socket("target_socket"), m_clock(clock), m_slot_stride(slot_stride),
      m_instance_bytes(slots * slot_stride), m_storage(instances * slots, slot_stride),
      m_instances(instances, Instance(params)) {
  target_socket.register_b_transport(this, &TileMemory::b_transport);
  target_socket.register_transport_dbg(this, &TileMemory::transport_dbg);
  target_socket.register_get_direct_mem_ptr(this, &TileMemory::get_direct_mem_ptr);
  start_mirroring();
}

std::uint64_t TileMemory::bytes_read(unsigned instance) const {
  const std::uint64_t own = m_instances[instance].bytes_read;
  return m_mirroring && instance > 0 ? own + m_instances.front().bytes_read - m_mirror_read_from : own;
}

std::uint64_t TileMemory::bytes_written(unsigned instance) const {
  const std::uint64_t own = m_instances[instance].bytes_written;
  return m_mirroring && instance > 0 ? own + m_instances.front().bytes_written - m_mirror_written_from : own;
}

model::MemoryPortModel::Counts TileMemory::port_counts(unsigned instance) const {
  model::MemoryPortModel::Counts counts = m_instances[instance].ports.counts();
  if (m_mirroring && instance > 0) counts.add(m_mirror_from, m_instances.front().ports.counts());
  return counts;
}

void TileMemory::trace_to(traces::VcdRecorder& rec, unsigned instance, const std::string& scope) {
  m_recorder = &rec;
  Instance& in = m_instances.at(instance);
  const int signal = rec.declare(scope, "active_ports", traces::VcdRecorder::width_for(in.ports.counts().port_bytes.size()));
  in.trace_group = rec.declare_group();
  rec.join(in.trace_group, signal);
  if (m_trace_all < 0) m_trace_all = rec.declare_group(true);  // alike while they mirror
  rec.join(m_trace_all, signal);
}

void TileMemory::grow_slot(unsigned slot, std::uint64_t bytes) {
  // Storage grows to what tiles use (a power of two), not to the slot's full stride: first
  // touches of large slots would dominate short runs. It never moves (model::TileStorage), so
  // direct pointers stay valid.
  if (m_storage.size(slot) >= bytes) return;
  std::uint64_t size = 128;
  while (size < bytes) size <<= 1;
  m_storage.grow(slot, std::min(size, m_slot_stride.divisor()));
}

bool TileMemory::get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
  // The request's data length says how much of the slot the initiator needs (at least a byte).
  const std::uint64_t addr = gp.get_address(), len = std::max<std::uint64_t>(1, gp.get_data_length());
  if (!in_slot(addr, len)) {  // refused for this address only: the slot serves shorter requests
    dmi.set_start_address(addr);
    dmi.set_end_address(addr);
    return false;
  }
  const auto slot = static_cast<unsigned>(m_slot_stride.quotient(addr));
  grow_slot(slot, m_slot_stride.remainder(addr) + len);
  const std::uint64_t base = std::uint64_t{slot} * m_slot_stride.divisor();
  // An access through the pointer costs what one port-width access to idle ports costs (the
  // router adds its hop); DMI bypasses the port calendars, so it never contends.
  const sc_core::sc_time latency = m_clock.to_time(model::Cycles(m_instances.front().ports.uncontended_cycles(1)));
  dmi.set_dmi_ptr(m_storage.data(slot));
  dmi.set_start_address(base);
  dmi.set_end_address(base + m_storage.size(slot) - 1);
  dmi.allow_read_write();
  dmi.set_read_latency(latency);
  dmi.set_write_latency(latency);
  return true;
}

tlm::tlm_response_status TileMemory::access_status(const tlm::tlm_generic_payload& gp) const {
  // Tile payloads move as whole, contiguous bytes within a slot: no byte enables, no streaming.
  // IEEE 1666 allows no access of zero bytes.
  if (gp.get_data_length() == 0) return tlm::TLM_GENERIC_ERROR_RESPONSE;
  if (gp.get_byte_enable_ptr()) return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
  if (gp.get_streaming_width() < gp.get_data_length()) return tlm::TLM_BURST_ERROR_RESPONSE;
  if (!in_slot(gp.get_address(), gp.get_data_length())) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  return tlm::TLM_OK_RESPONSE;
}

void TileMemory::move_data(tlm::tlm_generic_payload& gp) {
  const std::uint64_t addr = gp.get_address();
  const std::uint64_t len = gp.get_data_length();
  const auto slot = static_cast<unsigned>(m_slot_stride.quotient(addr));
  const std::uint64_t offset = m_slot_stride.remainder(addr);
  if (gp.is_write()) {
    grow_slot(slot, offset + len);
    std::memcpy(m_storage.data(slot) + offset, gp.get_data_ptr(), len);
    return;
  }
  // Bytes a slot has not grown to yet read as zero: a read changes nothing.
  const std::uint64_t size = m_storage.size(slot);
  const std::uint64_t held = offset < size ? std::min(len, size - offset) : 0;
  if (held != 0) std::memcpy(gp.get_data_ptr(), m_storage.data(slot) + offset, held);
  std::memset(gp.get_data_ptr() + held, 0, len - held);
}

void TileMemory::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  auto* train = gp.get_extension<BurstTrain>();
  if (train) {  // trains move no data: they ride on TLM_IGNORE_COMMAND only
    gp.set_response_status(gp.get_command() == tlm::TLM_IGNORE_COMMAND
                               ? book_train(*train, train->origin - gp.get_address(), delay)
                               : tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  // An ignored command is answered as the read or write would be, and moves and books nothing.
  const tlm::tlm_response_status status = access_status(gp);
  if (status != tlm::TLM_OK_RESPONSE || gp.get_command() == tlm::TLM_IGNORE_COMMAND) {
    gp.set_response_status(status);
    return;
  }
  move_data(gp);
  const std::uint64_t addr = gp.get_address(), len = gp.get_data_length();
  const unsigned instance = instance_of(addr);
  stop_mirroring();  // one instance's access: the others do not see it
  const sc_core::sc_time stamp = sc_core::sc_time_stamp();
  const auto grant = book(instance, m_clock.now_cycles(), m_clock.to_cycles(stamp + delay),
                          addr - instance * instance_bytes(), len, nullptr);
  delay = m_clock.to_time(model::Cycles(grant.done)) - stamp;
  Instance& in = m_instances[instance];
  (gp.is_read() ? in.bytes_read : in.bytes_written) += len;
  gp.set_dmi_allowed(true);  // the hint: every slot's bytes can be had directly
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

model::MemoryPortModel::Grant TileMemory::book(unsigned instance, std::uint64_t now, std::uint64_t arrival,
                                               std::uint64_t offset, std::uint64_t len,
                                               std::vector<ActivityRun>* runs) {
  Instance& in = m_instances[instance];
  const auto grant = in.ports.reserve(now, arrival, offset, len);
  // While the instances mirror, instance 0's booking is every instance's.
  const int group = m_mirroring ? m_trace_all : in.trace_group;
  if (m_recorder && group >= 0) trace_activity(group, grant.start, grant.start + in.ports.occupancy(len), runs);
  return grant;
}

void TileMemory::trace_activity(int group, std::uint64_t start, std::uint64_t end, std::vector<ActivityRun>* runs) {
  if (runs) {
    for (ActivityRun& r : *runs)
      if (r.group == group && r.end == start) {
        r.end = end;
        return;
      }
    runs->push_back({group, start, end});
    return;
  }
  m_recorder->add_at(group, 1, m_clock.cycle_ps(start));
  m_recorder->add_at(group, -1, m_clock.cycle_ps(end));
}

void TileMemory::report_runs() {
  for (const ActivityRun& r : m_runs) trace_activity(r.group, r.start, r.end, nullptr);
  m_runs.clear();
}

void TileMemory::start_mirroring() {
  const Instance& lead = m_instances.front();
  m_mirror_from = lead.ports.counts();
  m_mirror_read_from = lead.bytes_read;
  m_mirror_written_from = lead.bytes_written;
  m_mirroring = true;
}

void TileMemory::stop_mirroring() {
  if (!m_mirroring) return;
  const Instance& lead = m_instances.front();
  for (std::size_t i = 1; i < m_instances.size(); ++i) {
    Instance& in = m_instances[i];
    in.ports.copy_bookings(lead.ports);
    in.ports.add_counts(m_mirror_from, lead.ports.counts());
    in.bytes_read += lead.bytes_read - m_mirror_read_from;
    in.bytes_written += lead.bytes_written - m_mirror_written_from;
  }
  m_mirroring = false;
}

bool TileMemory::group_instance(const BurstTrain& train, std::size_t g, std::uint64_t shift, unsigned& instance) const {
  instance = kNone;
  for (std::size_t j = 0; j < train.group_size; ++j) {
    const model::BurstStream& s = *train.streams[g * train.group_size + j];
    for (std::size_t t = s.next; t < s.transfers.size(); ++t) {
      const std::uint64_t addr = s.transfers[t].address - shift;
      if (!in_slot(addr, s.transfers[t].bytes)) return false;
      if (instance == kNone) instance = instance_of(addr);
      if (instance_of(addr) != instance) return false;
    }
  }
  return true;
}

// Every burst of every command passes here: flattening inlines the whole per-burst path (port
// reservation included), which the compiler's size limits would otherwise leave as calls.
[[gnu::flatten]] tlm::tlm_response_status TileMemory::book_train(BurstTrain& train, std::uint64_t shift,
                                                                   sc_core::sc_time& delay) {
  const std::size_t n = train.group_size;
  if (n == 0 || train.stream_count % n != 0) return tlm::TLM_GENERIC_ERROR_RESPONSE;
  const std::size_t groups = train.stream_count / n;
  // Every transfer still to book must lie in a slot of its group's instance, the groups in rising
  // instances, or nothing is booked. Copies lie where the first group does, an instance apart.
  m_group_instance.resize(groups);
  unsigned& first = m_group_instance[0];
  if (!group_instance(train, 0, shift, first)) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  const bool copies = train.copies && groups > 1;
  if (copies && first != kNone && first + groups > instances()) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  const bool mirror = copies && m_mirroring && groups == instances();
  if (copies && !mirror) {
    for (std::size_t g = 1; g < groups; ++g)
      for (std::size_t j = 0; j < n; ++j) {
        const model::BurstStream& lead = *train.streams[j];
        model::BurstStream& s = *train.streams[g * n + j];
        s.write = lead.write;
        s.transfers = lead.transfers;
        for (model::StreamTransfer& t : s.transfers) t.address += g * instance_bytes();
        s.follow(lead);
      }
    train.copies = false;
  }
  if (!mirror) {
    unsigned last = first;
    for (std::size_t g = 1; g < groups; ++g) {
      unsigned& instance = m_group_instance[g];
      if (!group_instance(train, g, shift, instance)) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
      if (instance == kNone) continue;
      if (last != kNone && instance <= last) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
      last = instance;
    }
  }
  // The pacers speak the initiator's times; the bursts reach this memory `hop` later (the delay the
  // interconnect added to the train, sent with none).
  const std::uint64_t stamp = sc_core::sc_time_stamp().value(), period = m_clock.period().value();
  const std::uint64_t hop = delay.value();
  const std::uint64_t now = stamp / period;
  std::uint64_t done = stamp;
  // Traced, the train's port activity is gathered and reported once it is booked.
  m_runs.clear();  // not empty only if reporting the last train's threw
  std::vector<ActivityRun>* const runs = m_recorder ? &m_runs : nullptr;
  const auto book_group = [&](std::size_t g, unsigned instance) {
    // The initiator's address of the instance's first byte.
    const std::uint64_t base = shift + instance * instance_bytes();
    const model::StreamsBooked booked = model::book_streams(
        train.streams + g * n, n, train.burst_bytes, train.horizon,
        [&](const model::BurstStream& s, std::uint64_t addr, std::uint64_t bytes) {
          const std::uint64_t arrival = m_clock.to_cycles(s.pacer.next_issue() + hop);  // the next clock edge
          const auto grant = book(instance, now, arrival, addr - base, bytes, runs);
          (s.write ? m_instances[instance].bytes_written : m_instances[instance].bytes_read) += bytes;
          return grant.done * period;
        });
    done = std::max(done, booked.done);
    return booked.bytes;
  };
  if (mirror) {
    train.booked_bytes = groups * book_group(0, 0);
  } else {
    stop_mirroring();
    train.booked_bytes = 0;
    for (std::size_t g = 0; g < groups; ++g)
      if (m_group_instance[g] != kNone) train.booked_bytes += book_group(g, m_group_instance[g]);
    // Instances that book alike from here on can mirror again.
    if (groups == instances() && groups > 1 &&
        std::all_of(m_instances.begin() + 1, m_instances.end(),
                    [&](const Instance& in) { return in.ports.same_bookings_from(now, m_instances.front().ports); }))
      start_mirroring();
  }
  if (runs) report_runs();
  delay = sc_core::sc_time::from_value(done - stamp);
  return tlm::TLM_OK_RESPONSE;
}

unsigned int TileMemory::transport_dbg(tlm::tlm_generic_payload& gp) {
  // What b_transport refuses moves nothing here either; an ignored command moves nothing.
  if (gp.get_command() == tlm::TLM_IGNORE_COMMAND || gp.get_extension<BurstTrain>() ||
      access_status(gp) != tlm::TLM_OK_RESPONSE)
    return 0;
  move_data(gp);
  return static_cast<unsigned int>(gp.get_data_length());
}

}  // namespace ptosim::engines
