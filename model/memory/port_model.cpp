// SPDX-License-Identifier: BSD-3-Clause
#include "model/memory/port_model.h"

#include <algorithm>

namespace ptosim::model {

MemoryPortModel::MemoryPortModel(const MemoryParams& params)
    : m_params(params), m_port_width(params.bytes_per_cycle), m_bank_width(params.bank_width_bytes), m_banks(params.banks),
      m_calendar(params.ports) {
  m_counts.port_bytes.assign(params.ports, 0);
  m_counts.port_busy_cycles.assign(params.ports, 0);
}

void MemoryPortModel::insert_in_order(std::vector<Booking>& cal, const Booking& booking) {
  cal.insert(std::upper_bound(cal.begin(), cal.end(), booking.start, [](std::uint64_t s, const Booking& b) { return s < b.start; }),
             booking);
}

std::vector<MemoryPortModel::Booking>::const_iterator MemoryPortModel::first_live(const std::vector<Booking>& cal,
                                                                                 std::uint64_t now) {
  return std::partition_point(cal.begin(), cal.end(), [now](const Booking& b) { return b.end <= now; });
}

void MemoryPortModel::forget_before(std::vector<Booking>& cal, std::uint64_t now) {
  cal.erase(cal.cbegin(), first_live(cal, now));
}

void MemoryPortModel::Counts::add(const Counts& from, const Counts& to) {
  accesses += to.accesses - from.accesses;
  bank_conflicts += to.bank_conflicts - from.bank_conflicts;
  wait_cycles += to.wait_cycles - from.wait_cycles;
  for (std::size_t p = 0; p < port_bytes.size(); ++p) {
    port_bytes[p] += to.port_bytes[p] - from.port_bytes[p];
    port_busy_cycles[p] += to.port_busy_cycles[p] - from.port_busy_cycles[p];
  }
}

bool MemoryPortModel::same_bookings_from(std::uint64_t now, const MemoryPortModel& other) const {
  // Nothing arrives before now, so a booking that ended by then can neither delay an access nor
  // share its start.
  for (std::size_t p = 0; p < m_calendar.size(); ++p) {
    const auto& a = m_calendar[p];
    const auto& b = other.m_calendar[p];
    if (!std::equal(first_live(a, now), a.end(), first_live(b, now), b.end())) return false;
  }
  return true;
}

}  // namespace ptosim::model
