// SPDX-License-Identifier: BSD-3-Clause
#include "model/memory/port_model.h"

#include <algorithm>

namespace ptosim::model {

MemoryPortModel::MemoryPortModel(const MemoryParams& params)
    : m_params(params),
      m_port_free(params.ports, 0),
      m_bank_free(params.banks, 0),
      m_port_bytes(params.ports, 0),
      m_port_busy(params.ports, 0) {}

std::uint64_t MemoryPortModel::occupancy(std::uint64_t bytes) const {
  return std::max<std::uint64_t>(1, (bytes + m_params.bytes_per_cycle - 1) / m_params.bytes_per_cycle);
}

MemoryPortModel::Grant MemoryPortModel::reserve(std::uint64_t arrival, std::uint64_t addr, std::uint64_t bytes) {
  Grant g;
  const auto port_it = std::min_element(m_port_free.begin(), m_port_free.end());
  g.port = static_cast<unsigned>(port_it - m_port_free.begin());
  const std::uint64_t port_ready = std::max(arrival, *port_it);

  // Banks touched by [addr, addr + bytes): a burst wider than banks x width touches them all.
  const std::uint64_t first = addr / m_params.bank_width_bytes;
  const std::uint64_t last = (addr + std::max<std::uint64_t>(bytes, 1) - 1) / m_params.bank_width_bytes;
  const std::uint64_t touched = std::min<std::uint64_t>(last - first + 1, m_params.banks);
  std::uint64_t bank_ready = 0;
  for (std::uint64_t i = 0; i < touched; ++i) bank_ready = std::max(bank_ready, m_bank_free[(first + i) % m_params.banks]);

  g.start = std::max(port_ready, bank_ready);
  g.bank_conflict = bank_ready > port_ready;
  const std::uint64_t occ = occupancy(bytes);
  *port_it = g.start + occ;
  for (std::uint64_t i = 0; i < touched; ++i) m_bank_free[(first + i) % m_params.banks] = g.start + occ;
  g.done = g.start + occ + m_params.access_latency_cycles;

  ++m_accesses;
  m_bank_conflicts += g.bank_conflict ? 1 : 0;
  m_wait_cycles += g.start - arrival;
  m_port_bytes[g.port] += bytes;
  m_port_busy[g.port] += occ;
  return g;
}

}  // namespace ptosim::model
