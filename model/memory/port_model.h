// SPDX-License-Identifier: BSD-3-Clause
// MemoryPortModel: when an access to a banked, multi-ported memory can start and finish, given
// the accesses already granted. Pure cycle arithmetic; the TLM memory target asks it for delays.
#pragma once

#include <cstdint>
#include <vector>

#include "model/params/platform_params.h"

namespace ptosim::model {

class MemoryPortModel {
 public:
  explicit MemoryPortModel(const MemoryParams& params);

  struct Grant {
    std::uint64_t start = 0;     ///< cycle the access holds a port and its banks
    std::uint64_t done = 0;      ///< cycle the data is transferred (start + occupancy + latency)
    bool bank_conflict = false;  ///< it waited for a bank another access held
    unsigned port = 0;
  };

  /// Grants an access of `bytes` at byte address `addr` arriving at cycle `arrival`.
  /// Contract: arrivals may come in any order; each access takes the earliest port and banks free.
  Grant reserve(std::uint64_t arrival, std::uint64_t addr, std::uint64_t bytes);

  std::uint64_t occupancy(std::uint64_t bytes) const;
  std::uint64_t accesses() const { return m_accesses; }
  std::uint64_t bank_conflicts() const { return m_bank_conflicts; }
  std::uint64_t wait_cycles() const { return m_wait_cycles; }        ///< cycles accesses waited for a port/bank
  const std::vector<std::uint64_t>& port_bytes() const { return m_port_bytes; }
  const std::vector<std::uint64_t>& port_busy_cycles() const { return m_port_busy; }

 private:
  MemoryParams m_params;
  std::vector<std::uint64_t> m_port_free;
  std::vector<std::uint64_t> m_bank_free;
  std::vector<std::uint64_t> m_port_bytes;
  std::vector<std::uint64_t> m_port_busy;
  std::uint64_t m_accesses = 0;
  std::uint64_t m_bank_conflicts = 0;
  std::uint64_t m_wait_cycles = 0;
};

}  // namespace ptosim::model
