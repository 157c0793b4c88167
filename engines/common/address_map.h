// SPDX-License-Identifier: BSD-3-Clause
// The platform address map: where each PE's Local tile memory and the Shared tile memory sit, and
// the address of a tile fragment. The platform maps the router with these; engines address with them.
#pragma once

#include <cstdint>

#include "model/common/address_range.h"
#include "model/common/pe_mask.h"
#include "model/state/tile_ref.h"

namespace ptosim::engines::address_map {

constexpr std::uint64_t kLocalSlotStride = 64 * 1024;    ///< largest Local TSize (SizeCode 10)
constexpr std::uint64_t kSharedSlotStride = 256 * 1024;  ///< largest Shared TSize (SizeCode 12)
constexpr std::uint64_t kLocalBase = 0x0000'0000;
constexpr std::uint64_t kLocalSize = kLocalSlotStride * model::kLocalTileCount;  // 4 MiB per PE
constexpr std::uint64_t kSharedBase = 0x1000'0000;
constexpr std::uint64_t kSharedSize = kSharedSlotStride * model::kSharedTileCount;  // 64 MiB

constexpr model::AddressRange local_range(int pe) {
  return model::AddressRange{kLocalBase + static_cast<std::uint64_t>(pe) * kLocalSize, kLocalSize};
}
constexpr model::AddressRange shared_range() { return model::AddressRange{kSharedBase, kSharedSize}; }

/// Address of byte 0 of PE `pe`'s fragment of the tile in physical `slot` (Shared: the payload).
constexpr std::uint64_t fragment_address(model::TileRef::Space space, unsigned slot, int pe) {
  return space == model::TileRef::Space::Shared ? kSharedBase + slot * kSharedSlotStride
                                                : local_range(pe).base + slot * kLocalSlotStride;
}

}  // namespace ptosim::engines::address_map
