// SPDX-License-Identifier: BSD-3-Clause
// IPayloadReader: read access to source payloads for value-dependent preflight checks (invalid
// encodings, integer zero divisors, parameter words).
#pragma once

#include <cstdint>

#include "model/state/tile_ref.h"

namespace ptosim::model {

/// Contract: `fragment` returns the payload bytes of PE `pe`'s fragment of the tile in physical
/// `slot` of `space` (for Shared tiles, the whole payload; `pe` is ignored), valid until the next
/// state change. Callers without payload access (timing-only runs) pass no reader at all.
class IPayloadReader {
 public:
  virtual ~IPayloadReader() = default;
  virtual const std::uint8_t* fragment(TileRef::Space space, unsigned slot, int pe) const = 0;
};

}  // namespace ptosim::model
