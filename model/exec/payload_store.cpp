// SPDX-License-Identifier: BSD-3-Clause
#include "model/exec/payload_store.h"

#include "model/state/tile_descriptor.h"
#include "model/state/tile_ref.h"

namespace ptosim::model {

PayloadStore::PayloadStore()
    : m_local{TileStorage(kLocalTileCount, kMaxTileBytes), TileStorage(kLocalTileCount, kMaxTileBytes),
              TileStorage(kLocalTileCount, kMaxTileBytes), TileStorage(kLocalTileCount, kMaxTileBytes)},
      m_shared(kSharedTileCount, kMaxTileBytes) {}

const std::uint8_t* PayloadStore::fragment(TileRef::Space space, unsigned slot, int pe) const {
  return storage(space, pe).data(slot);
}

std::uint8_t* PayloadStore::fragment(TileRef::Space space, unsigned slot, int pe) { return storage(space, pe).data(slot); }

std::size_t PayloadStore::fragment_size(TileRef::Space space, unsigned slot, int pe) const {
  return storage(space, pe).size(slot);
}

void PayloadStore::reset(TileRef::Space space, unsigned slot, int pe, std::size_t bytes) {
  storage(space, pe).reset(slot, bytes);
}

}  // namespace ptosim::model
