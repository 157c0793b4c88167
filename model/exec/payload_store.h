// SPDX-License-Identifier: BSD-3-Clause
// PayloadStore: the payload bytes of every tile register of one core held in process — one
// TileStorage per PE's Local memory and one for the Shared memory — for the functional machine.
#pragma once

#include <array>
#include <cstdint>

#include "model/common/pe_mask.h"
#include "model/plan/payload_reader.h"
#include "model/state/tile_storage.h"

namespace ptosim::model {

class PayloadStore : public IPayloadReader {
 public:
  PayloadStore();

  const std::uint8_t* fragment(TileRef::Space space, unsigned slot, int pe) const override;
  std::uint8_t* fragment(TileRef::Space space, unsigned slot, int pe);
  std::size_t fragment_size(TileRef::Space space, unsigned slot, int pe) const;
  /// Gives the fragment `bytes` zero bytes.
  void reset(TileRef::Space space, unsigned slot, int pe, std::size_t bytes);

 private:
  TileStorage& storage(TileRef::Space space, int pe) { return space == TileRef::Space::Shared ? m_shared : m_local[pe]; }
  const TileStorage& storage(TileRef::Space space, int pe) const {
    return space == TileRef::Space::Shared ? m_shared : m_local[pe];
  }

  std::array<TileStorage, kPeCount> m_local;
  TileStorage m_shared;
};

}  // namespace ptosim::model
