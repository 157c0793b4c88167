// SPDX-License-Identifier: BSD-3-Clause
// MemoryPortModel: when an access to a banked, multi-ported memory can start and finish. Engines
// run ahead of simulated time (temporal decoupling) and book their bursts at future cycles, so each
// port keeps a calendar of booked intervals and an access takes the earliest free slot of any port.
// Two accesses on different ports that start in the same bank at the same cycle conflict: the
// later one loses at least a cycle, and takes the earliest free slot of any port after it. Pure
// cycle arithmetic; the TLM memory target asks it for delays.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

#include "model/common/invariant_divisor.h"
#include "model/params/platform_params.h"

namespace ptosim::model {

class MemoryPortModel {
 public:
  explicit MemoryPortModel(const MemoryParams& params);

  struct Grant {
    std::uint64_t start = 0;     ///< cycle the access holds a port
    std::uint64_t done = 0;      ///< cycle the transfer completes (start + occupancy + latency)
    bool bank_conflict = false;  ///< lost a cycle to another access starting in the same bank
    unsigned port = 0;
  };

  /// Books an access of `bytes` at byte address `addr` arriving at cycle `arrival`. Bookings that
  /// ended before `now` are forgotten (nothing can arrive in the past). Inline: engines book every
  /// burst through it.
  Grant reserve(std::uint64_t now, std::uint64_t arrival, std::uint64_t addr, std::uint64_t bytes);

  /// What the accesses booked so far add up to.
  struct Counts {
    std::uint64_t accesses = 0;
    std::uint64_t bank_conflicts = 0;
    std::uint64_t wait_cycles = 0;  ///< cycles accesses waited for a port or bank
    std::vector<std::uint64_t> port_bytes;
    std::vector<std::uint64_t> port_busy_cycles;
    /// Adds what `to` counts beyond `from` (a memory mirroring another's bookings counts them
    /// without booking).
    void add(const Counts& from, const Counts& to);
  };

  /// Adds what `to` counts beyond `from` to this model's counts.
  void add_counts(const Counts& from, const Counts& to) { m_counts.add(from, to); }
  /// Takes `other`'s bookings; the counts stay.
  void copy_bookings(const MemoryPortModel& other) { m_calendar = other.m_calendar; }
  /// Whether this model and `other` have the same bookings that can still delay an access
  /// arriving at cycle `now` or later (those that end after it): then they grant alike from now on.
  bool same_bookings_from(std::uint64_t now, const MemoryPortModel& other) const;

  std::uint64_t occupancy(std::uint64_t bytes) const { return std::max<std::uint64_t>(1, m_port_width.quotient_up(bytes)); }
  /// Cycles of an access of `bytes` to idle ports, from arrival to done (occupancy and latency).
  std::uint64_t uncontended_cycles(std::uint64_t bytes) const { return occupancy(bytes) + m_params.access_latency_cycles; }
  const Counts& counts() const { return m_counts; }

 private:
  struct Booking {
    std::uint64_t start;
    std::uint64_t end;  ///< exclusive
    std::uint64_t bank;
    bool operator==(const Booking& o) const { return start == o.start && end == o.end && bank == o.bank; }
  };
  /// Earliest start >= t at which [start, start + occ) is free on `port`.
  std::uint64_t earliest_fit(unsigned port, std::uint64_t t, std::uint64_t occ) const;
  /// The earliest such start on any port (ties: the lowest port), and that port into `port`.
  std::uint64_t earliest_fit_any(std::uint64_t t, std::uint64_t occ, unsigned& port) const;
  /// Whether an access on a port other than `port` starts at `start` in `bank`.
  bool bank_taken(unsigned port, std::uint64_t start, std::uint64_t bank) const;
  /// Adds `booking` to a port's calendar (kept sorted), forgetting bookings that ended before `now`.
  void insert(std::vector<Booking>& cal, std::uint64_t now, const Booking& booking);
  static void insert_in_order(std::vector<Booking>& cal, const Booking& booking);
  static void forget_before(std::vector<Booking>& cal, std::uint64_t now);
  /// The first booking of `cal` that has not ended by cycle `now` (ends are sorted like starts: a
  /// port's bookings never overlap).
  static std::vector<Booking>::const_iterator first_live(const std::vector<Booking>& cal, std::uint64_t now);

  MemoryParams m_params;
  InvariantDivisor m_port_width;  ///< bytes per cycle
  InvariantDivisor m_bank_width;
  InvariantDivisor m_banks;
  std::vector<std::vector<Booking>> m_calendar;  ///< per port, sorted by start
  Counts m_counts;
};

inline std::uint64_t MemoryPortModel::earliest_fit(unsigned port, std::uint64_t t, std::uint64_t occ) const {
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

inline std::uint64_t MemoryPortModel::earliest_fit_any(std::uint64_t t, std::uint64_t occ, unsigned& port) const {
  port = 0;
  std::uint64_t start = earliest_fit(0, t, occ);
  for (unsigned p = 1; p < m_params.ports && start != t; ++p) {  // none starts before t
    const std::uint64_t s = earliest_fit(p, t, occ);
    if (s < start) {
      start = s;
      port = p;
    }
  }
  return start;
}

inline bool MemoryPortModel::bank_taken(unsigned port, std::uint64_t start, std::uint64_t bank) const {
  for (unsigned p = 0; p < m_params.ports; ++p) {
    if (p == port) continue;
    const auto& cal = m_calendar[p];
    if (cal.empty() || cal.back().start < start) continue;  // nothing starts there at or after `start`
    auto it = std::prev(cal.end());
    while (it != cal.begin() && std::prev(it)->start >= start) --it;  // the first booking starting at or after `start`
    if (it->start == start && it->bank == bank) return true;
  }
  return false;
}

inline MemoryPortModel::Grant MemoryPortModel::reserve(std::uint64_t now, std::uint64_t arrival, std::uint64_t addr,
                                                       std::uint64_t bytes) {
  const std::uint64_t occ = occupancy(bytes);
  const std::uint64_t bank = m_banks.remainder(m_bank_width.quotient(addr));
  Grant g;
  g.start = earliest_fit_any(arrival, occ, g.port);
  // A concurrent access on another port that starts in the same bank wins that bank first: look
  // again, on every port, from the next cycle.
  if (m_params.ports > 1)
    while (bank_taken(g.port, g.start, bank)) {
      g.bank_conflict = true;
      g.start = earliest_fit_any(g.start + 1, occ, g.port);
    }
  insert(m_calendar[g.port], now, Booking{g.start, g.start + occ, bank});
  g.done = g.start + occ + m_params.access_latency_cycles;

  ++m_counts.accesses;
  m_counts.bank_conflicts += g.bank_conflict ? 1 : 0;
  m_counts.wait_cycles += g.start - arrival;
  m_counts.port_bytes[g.port] += bytes;
  m_counts.port_busy_cycles[g.port] += occ;
  return g;
}

inline void MemoryPortModel::insert(std::vector<Booking>& cal, std::uint64_t now, const Booking& booking) {
  // Forget bookings that ended before now, in batches (nothing arrives in the past); only the
  // calendar that grows needs it.
  if (cal.size() > 64) forget_before(cal, now);
  if (cal.empty() || cal.back().start <= booking.start)
    cal.push_back(booking);  // the common case: the latest booking of its port
  else
    insert_in_order(cal, booking);
}

}  // namespace ptosim::model
