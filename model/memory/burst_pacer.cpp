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
  m_oldest = 0;
  m_step_bytes = 0;
  m_step = 0;
}

void BurstPacer::issued(std::uint64_t bytes, std::uint64_t done) {
  if (bytes != m_step_bytes) {
    m_step_bytes = bytes;
    m_step = (2 * m_period * bytes + m_rate) / (2 * m_rate);  // rounded to the nearest time unit
  }
  m_in_flight[m_oldest] = done;
  if (++m_oldest == m_in_flight.size()) m_oldest = 0;
  // The next burst takes the slot of the request `outstanding` back, once that one completes.
  m_at = std::max(m_at + m_step, m_in_flight[m_oldest]);
}

}  // namespace ptosim::model
