// SPDX-License-Identifier: BSD-3-Clause
#include "model/memory/burst_pacer.h"

#include <algorithm>

namespace ptosim::model {

BurstPacer::BurstPacer(std::uint64_t period, std::size_t outstanding)
    : m_period(period), m_in_flight(std::max<std::size_t>(1, outstanding), 0) {}

void BurstPacer::start(std::uint64_t start, std::uint64_t bytes_per_cycle) {
  m_at = start;
  m_rate = bytes_per_cycle;
  std::fill(m_in_flight.begin(), m_in_flight.end(), 0);
  m_issued = 0;
}

void BurstPacer::issued(std::uint64_t bytes, std::uint64_t done) {
  const std::size_t depth = m_in_flight.size();
  m_in_flight[m_issued++ % depth] = done;
  // Rounded to the nearest time unit; the slot the ring frees is the request `depth` back.
  m_at = std::max(m_at + (2 * m_period * bytes + m_rate) / (2 * m_rate), m_in_flight[m_issued % depth]);
}

}  // namespace ptosim::model
