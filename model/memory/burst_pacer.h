// SPDX-License-Identifier: BSD-3-Clause
// BurstPacer: when the bursts of one operand stream leave their initiator, and when they have moved.
// A stream issues a burst every len / rate (rounded to the time unit), and a burst leaves only once
// the one `outstanding` requests back has completed; a burst has moved once the memory is done with
// it and len / rate after it left, at a clock edge. Times are integer units of the caller's time
// base (SystemC time values on the platform). The initiator owns a pacer per stream; the memory that
// books a train of the stream's bursts advances it, so pacing carries across the stream's transfers.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "model/common/invariant_divisor.h"

namespace ptosim::model {

class BurstPacer {
 public:
  /// A stream of `period`-unit clock cycles with at most `outstanding` requests in flight.
  BurstPacer(std::uint64_t period, std::size_t outstanding);

  /// (Re)starts the stream at `start`, moving `bytes_per_cycle`, with nothing in flight.
  void start(std::uint64_t start, std::uint64_t bytes_per_cycle);

  /// Whether `o` is in the same state (then it paces the same bursts alike).
  bool operator==(const BurstPacer& o) const {
    return m_at == o.m_at && m_period == o.m_period && m_twice_rate.divisor() == o.m_twice_rate.divisor() &&
           m_oldest == o.m_oldest && m_in_flight == o.m_in_flight;
  }
  /// When the next burst leaves.
  std::uint64_t next_issue() const { return m_at; }
  /// The next burst, of `bytes`, left at next_issue() and the memory is done with it at `done`, a
  /// clock edge. Returns when the burst has moved: no earlier than its bytes take at the stream's
  /// rate (the initiator's side of the link is no faster), at the clock edge that ends that.
  /// Inline: called for every burst.
  std::uint64_t issued(std::uint64_t bytes, std::uint64_t done) {
    // bytes / rate cycles, rounded to the nearest time unit.
    const std::uint64_t step = m_twice_rate.quotient(2 * m_period * bytes + m_twice_rate.divisor() / 2);
    const std::uint64_t streamed = m_at + step;
    const std::uint64_t moved = done >= streamed ? done : (streamed + m_period - 1) / m_period * m_period;
    m_in_flight[m_oldest] = moved;
    if (++m_oldest == m_in_flight.size()) m_oldest = 0;
    // The next burst takes the slot of the request `outstanding` back, once that one completes.
    m_at = std::max(m_at + step, m_in_flight[m_oldest]);
    return moved;
  }

 private:
  std::uint64_t m_at = 0;
  std::uint64_t m_period;
  InvariantDivisor m_twice_rate{2};  ///< twice the bytes per cycle (a power of two, as a rule)
  std::vector<std::uint64_t> m_in_flight;  ///< completion times, a ring of the last `outstanding`
  std::size_t m_oldest = 0;                ///< the ring slot of the request `outstanding` back
};

}  // namespace ptosim::model
