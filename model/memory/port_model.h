// SPDX-License-Identifier: BSD-3-Clause
// MemoryPortModel: when an access to a banked, multi-ported memory can start and finish. Engines
// run ahead of simulated time (temporal decoupling) and book their bursts at future cycles, so each
// port keeps a calendar of booked intervals and an access takes the earliest free slot of any port.
// Two accesses that overlap in time and start in the same bank conflict: the later one loses a
// cycle. Pure cycle arithmetic; the TLM memory target asks it for delays.
#pragma once

#include <cstdint>
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
  /// ended before `now` are forgotten (nothing can arrive in the past).
  Grant reserve(std::uint64_t now, std::uint64_t arrival, std::uint64_t addr, std::uint64_t bytes);

  std::uint64_t occupancy(std::uint64_t bytes) const;
  std::uint64_t accesses() const { return m_accesses; }
  std::uint64_t bank_conflicts() const { return m_bank_conflicts; }
  std::uint64_t wait_cycles() const { return m_wait_cycles; }  ///< cycles accesses waited for a port or bank
  const std::vector<std::uint64_t>& port_bytes() const { return m_port_bytes; }
  const std::vector<std::uint64_t>& port_busy_cycles() const { return m_port_busy; }
  /// Accesses holding a port at cycle `t` (for tracing port activity).
  unsigned active_at(std::uint64_t t) const;

 private:
  struct Booking {
    std::uint64_t start;
    std::uint64_t end;  ///< exclusive
    std::uint64_t bank;
  };
  /// Earliest start >= t at which [start, start + occ) is free on `port`.
  std::uint64_t earliest_fit(unsigned port, std::uint64_t t, std::uint64_t occ) const;

  MemoryParams m_params;
  InvariantDivisor m_port_width;  ///< bytes per cycle
  InvariantDivisor m_bank_width;
  InvariantDivisor m_banks;
  std::vector<std::vector<Booking>> m_calendar;  ///< per port, sorted by start
  std::vector<std::uint64_t> m_port_bytes;
  std::vector<std::uint64_t> m_port_busy;
  std::uint64_t m_accesses = 0;
  std::uint64_t m_bank_conflicts = 0;
  std::uint64_t m_wait_cycles = 0;
};

}  // namespace ptosim::model
