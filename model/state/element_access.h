// SPDX-License-Identifier: BSD-3-Clause
// Reading and writing element encodings in a payload byte buffer (little-endian lanes; packed 4-bit
// lane 2i in bits 3:0 of byte i, lane 2i+1 in bits 7:4).
#pragma once

#include <cstdint>
#include <cstring>

#include "model/state/tile_descriptor.h"

namespace ptosim::model {

/// The encoding of lane `index` (storage order) of `bits`-wide elements.
inline std::uint64_t load_lane(const std::uint8_t* bytes, unsigned bits, std::uint64_t index) {
  switch (bits) {
    case 4: return (bytes[index / 2] >> ((index & 1) * 4)) & 0xF;
    case 8: return bytes[index];
    case 16: { std::uint16_t v; std::memcpy(&v, bytes + index * 2, 2); return v; }
    case 32: { std::uint32_t v; std::memcpy(&v, bytes + index * 4, 4); return v; }
    default: { std::uint64_t v; std::memcpy(&v, bytes + index * 8, 8); return v; }
  }
}

inline void store_lane(std::uint8_t* bytes, unsigned bits, std::uint64_t index, std::uint64_t value) {
  switch (bits) {
    case 4: {
      const unsigned shift = (index & 1) * 4;
      std::uint8_t& b = bytes[index / 2];
      b = static_cast<std::uint8_t>((b & ~(0xF << shift)) | ((value & 0xF) << shift));
      return;
    }
    case 8: bytes[index] = static_cast<std::uint8_t>(value); return;
    case 16: { const auto v = static_cast<std::uint16_t>(value); std::memcpy(bytes + index * 2, &v, 2); return; }
    case 32: { const auto v = static_cast<std::uint32_t>(value); std::memcpy(bytes + index * 4, &v, 4); return; }
    default: std::memcpy(bytes + index * 8, &value, 8); return;
  }
}

/// Element [r, c] of a tile whose payload is `bytes`, through the descriptor's layout.
inline std::uint64_t load_element(const TileDescriptor& d, const std::uint8_t* bytes, std::uint32_t r, std::uint32_t c) {
  return load_lane(bytes, element_bits(d.dtype), storage_index(d, r, c));
}

inline void store_element(const TileDescriptor& d, std::uint8_t* bytes, std::uint32_t r, std::uint32_t c, std::uint64_t v) {
  store_lane(bytes, element_bits(d.dtype), storage_index(d, r, c), v);
}

}  // namespace ptosim::model
