// SPDX-License-Identifier: BSD-3-Clause
// The platform address map: where each PE's Local tile memory, the Shared tile memory and the host
// control registers sit, and the address of a tile fragment. The platform maps the router with
// these; engines address with them.
#pragma once

#include <cstdint>

#include "model/common/address_range.h"
#include "model/common/pe_mask.h"
#include "model/state/tile_descriptor.h"
#include "model/state/tile_ref.h"

namespace ptosim::engines::address_map {

// A slot holds the largest tile (memories allocate a slot's storage only when it is first used).
constexpr std::uint64_t kLocalSlotStride = model::kMaxTileBytes;
constexpr std::uint64_t kSharedSlotStride = model::kMaxTileBytes;
constexpr std::uint64_t kLocalBase = 0x0000'0000;
constexpr std::uint64_t kLocalSize = kLocalSlotStride * model::kLocalTileCount;  // 16 MiB per PE
constexpr std::uint64_t kSharedBase = 0x1000'0000;
constexpr std::uint64_t kSharedSize = kSharedSlotStride * model::kSharedTileCount;  // 64 MiB
constexpr std::uint64_t kControlBase = 0x2000'0000;  ///< the host control block (control_map.h)
constexpr std::uint64_t kControlSize = 0x20'0000;    ///< its registers, then its program memory

constexpr model::AddressRange local_range(int pe) {
  return model::AddressRange{kLocalBase + static_cast<std::uint64_t>(pe) * kLocalSize, kLocalSize};
}
/// The Local memories of all PEs, side by side (one memory target serves them).
constexpr model::AddressRange locals_range() { return model::AddressRange{kLocalBase, kLocalSize * model::kPeCount}; }
constexpr model::AddressRange shared_range() { return model::AddressRange{kSharedBase, kSharedSize}; }
constexpr model::AddressRange control_range() { return model::AddressRange{kControlBase, kControlSize}; }

/// Address of byte 0 of PE `pe`'s fragment of the tile in physical `slot` (Shared: the payload).
constexpr std::uint64_t fragment_address(model::TileRef::Space space, unsigned slot, int pe) {
  return space == model::TileRef::Space::Shared ? kSharedBase + slot * kSharedSlotStride
                                                : local_range(pe).base + slot * kLocalSlotStride;
}

}  // namespace ptosim::engines::address_map
