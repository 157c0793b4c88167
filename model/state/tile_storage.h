// SPDX-License-Identifier: BSD-3-Clause
// TileStorage: payload bytes of the tile registers of one memory (one PE's Local memory with 64
// physical slots, or the Shared memory with 256). Engines reach it through a TLM memory target;
// the functional machine uses it directly.
#pragma once

#include <cstdint>
#include <vector>

namespace ptosim::model {

class TileStorage {
 public:
  /// `slot_bytes`: the most a slot holds. A slot's bytes never move: its first use reserves that
  /// much (address space, untouched until used), so direct pointers to them stay valid.
  TileStorage(unsigned slots, std::size_t slot_bytes) : m_slots(slots), m_slot_bytes(slot_bytes) {}

  unsigned slot_count() const { return static_cast<unsigned>(m_slots.size()); }
  /// Payload of a slot; resized (zero-filled) on demand when a tile is installed.
  std::uint8_t* data(unsigned slot) { return m_slots[slot].data(); }
  const std::uint8_t* data(unsigned slot) const { return m_slots[slot].data(); }
  std::size_t size(unsigned slot) const { return m_slots[slot].size(); }
  /// Gives a slot `bytes` zero bytes (a new tile's payload starts as zero bits, undefined).
  void reset(unsigned slot, std::size_t bytes) { held(slot).assign(bytes, 0); }
  /// Extends a slot to at least `bytes` (new bytes zero), keeping its contents.
  void grow(unsigned slot, std::size_t bytes) {
    if (m_slots[slot].size() < bytes) held(slot).resize(bytes, 0);
  }

 private:
  std::vector<std::uint8_t>& held(unsigned slot) {
    std::vector<std::uint8_t>& bytes = m_slots[slot];
    if (bytes.capacity() < m_slot_bytes) bytes.reserve(m_slot_bytes);
    return bytes;
  }

  std::vector<std::vector<std::uint8_t>> m_slots;
  std::size_t m_slot_bytes;
};

}  // namespace ptosim::model
