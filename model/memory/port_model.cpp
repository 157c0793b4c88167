// SPDX-License-Identifier: BSD-3-Clause
#include "model/memory/port_model.h"

#include <algorithm>
#include <iterator>

namespace ptosim::model {

MemoryPortModel::MemoryPortModel(const MemoryParams& params)
    : m_params(params), m_port_width(params.bytes_per_cycle), m_bank_width(params.bank_width_bytes), m_banks(params.banks),
      m_calendar(params.ports), m_port_bytes(params.ports, 0), m_port_busy(params.ports, 0) {}

std::uint64_t MemoryPortModel::occupancy(std::uint64_t bytes) const {
  return std::max<std::uint64_t>(1, m_port_width.quotient_up(bytes));
}

std::uint64_t MemoryPortModel::earliest_fit(unsigned port, std::uint64_t t, std::uint64_t occ) const {
  // Bookings of a port never overlap, so their ends are sorted like their starts.
  const auto& cal = m_calendar[port];
  if (cal.empty() || cal.back().end <= t) return t;  // the common case: nothing booked from t on
  // Requests arrive close to the latest bookings: search from the back.
  auto it = std::prev(cal.end());
  while (it != cal.begin() && std::prev(it)->end > t) --it;  // the first booking ending after t
  for (; it != cal.end(); ++it) {
    if (it->start >= t + occ) break;  // the gap before this booking holds the access
    t = it->end;
  }
  return t;
}

MemoryPortModel::Grant MemoryPortModel::reserve(std::uint64_t now, std::uint64_t arrival, std::uint64_t addr,
                                                std::uint64_t bytes) {
  const std::uint64_t occ = occupancy(bytes);
  Grant g;
  g.start = ~std::uint64_t{0};
  for (unsigned p = 0; p < m_calendar.size() && g.start != arrival; ++p) {  // none starts before arrival
    const std::uint64_t s = earliest_fit(p, arrival, occ);
    if (s < g.start) {
      g.start = s;
      g.port = p;
    }
  }
  // A concurrent access on another port that starts in the same bank wins that bank first.
  const std::uint64_t bank = m_banks.remainder(m_bank_width.quotient(addr));
  for (unsigned p = 0; p < m_calendar.size() && !g.bank_conflict; ++p) {
    if (p == g.port) continue;
    const auto& cal = m_calendar[p];
    if (cal.empty() || cal.back().start < g.start) continue;  // nothing starts there at or after g.start
    auto it = std::prev(cal.end());
    while (it != cal.begin() && std::prev(it)->start >= g.start) --it;  // the first booking starting at or after g.start
    g.bank_conflict = it->start == g.start && it->bank == bank;
  }
  if (g.bank_conflict) g.start = earliest_fit(g.port, g.start + 1, occ);

  auto& cal = m_calendar[g.port];
  // Forget bookings that ended before now, in batches (nothing arrives in the past); only the
  // calendar that grows needs it.
  if (cal.size() > 64)
    cal.erase(cal.begin(), std::partition_point(cal.begin(), cal.end(), [now](const Booking& b) { return b.end <= now; }));
  const Booking booking{g.start, g.start + occ, bank};
  if (cal.empty() || cal.back().start <= g.start)
    cal.push_back(booking);  // the common case: the latest booking of its port
  else
    cal.insert(std::upper_bound(cal.begin(), cal.end(), g.start, [](std::uint64_t s, const Booking& b) { return s < b.start; }),
               booking);
  g.done = g.start + occ + m_params.access_latency_cycles;

  ++m_accesses;
  m_bank_conflicts += g.bank_conflict ? 1 : 0;
  m_wait_cycles += g.start - arrival;
  m_port_bytes[g.port] += bytes;
  m_port_busy[g.port] += occ;
  return g;
}

unsigned MemoryPortModel::active_at(std::uint64_t t) const {
  // A port's bookings never overlap: at most the last one starting at or before t holds it.
  unsigned n = 0;
  for (const auto& cal : m_calendar) {
    const auto it = std::partition_point(cal.begin(), cal.end(), [t](const Booking& b) { return b.start <= t; });
    if (it != cal.begin() && t < std::prev(it)->end) ++n;
  }
  return n;
}

}  // namespace ptosim::model
