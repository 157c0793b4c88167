// SPDX-License-Identifier: BSD-3-Clause
#include "model/memory/burst_pacer.h"

namespace ptosim::model {

BurstPacer::BurstPacer(std::uint64_t period, std::size_t outstanding)
    : m_period(period), m_in_flight(std::max<std::size_t>(1, outstanding), 0) {}

void BurstPacer::start(std::uint64_t start, std::uint64_t bytes_per_cycle) {
  m_at = start;
  if (2 * bytes_per_cycle != m_twice_rate.divisor()) m_twice_rate = InvariantDivisor(2 * bytes_per_cycle);
  std::fill(m_in_flight.begin(), m_in_flight.end(), 0);
  m_oldest = 0;
}

}  // namespace ptosim::model
