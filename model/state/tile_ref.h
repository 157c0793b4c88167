// SPDX-License-Identifier: BSD-3-Clause
// TileRef names a tile register: Local 0..63 (hands T, U, M, N of 16) or Shared S0..S255.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ptosim::model {

constexpr int kLocalTileCount = 64;
constexpr int kSharedTileCount = 256;
constexpr int kHandSize = 16;
constexpr char kHandLetters[4] = {'T', 'U', 'M', 'N'};

struct TileRef {
  enum class Space : std::uint8_t { Local, Shared };
  Space space = Space::Local;
  std::uint16_t index = 0;  ///< Local 0..63 (hand*16 + k-1 for X#k), Shared 0..255

  static constexpr TileRef local(unsigned i) { return TileRef{Space::Local, static_cast<std::uint16_t>(i)}; }
  static constexpr TileRef shared(unsigned i) { return TileRef{Space::Shared, static_cast<std::uint16_t>(i)}; }
  bool is_local() const { return space == Space::Local; }
  bool is_shared() const { return space == Space::Shared; }
  unsigned hand() const { return index / kHandSize; }

  /// "T#1".."N#16" or "S0".."S255".
  std::string name() const;
  /// Parses the names above; nullopt otherwise.
  static std::optional<TileRef> parse(std::string_view text);

  bool operator==(const TileRef& o) const { return space == o.space && index == o.index; }
  bool operator!=(const TileRef& o) const { return !(*this == o); }
  /// Local 0..63 first, then Shared 0..255 (the scenario output order).
  bool operator<(const TileRef& o) const {
    return space != o.space ? space == Space::Local : index < o.index;
  }
};

}  // namespace ptosim::model
