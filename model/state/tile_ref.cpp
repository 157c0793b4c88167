// SPDX-License-Identifier: BSD-3-Clause
#include "model/state/tile_ref.h"

#include <charconv>

namespace ptosim::model {

std::string TileRef::name() const {
  if (is_shared()) return "S" + std::to_string(index);
  return std::string(1, kHandLetters[hand()]) + "#" + std::to_string(index % kHandSize + 1);
}

std::optional<TileRef> TileRef::parse(std::string_view text) {
  auto number = [](std::string_view digits) -> std::optional<unsigned> {
    unsigned v = 0;
    if (digits.empty() || digits.size() > 3) return std::nullopt;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
    return v;
  };
  if (text.size() >= 2 && text[0] == 'S') {
    const auto n = number(text.substr(1));
    if (!n || *n >= kSharedTileCount) return std::nullopt;
    return TileRef::shared(*n);
  }
  if (text.size() >= 3 && text[1] == '#') {
    for (unsigned hand = 0; hand < 4; ++hand) {
      if (text[0] != kHandLetters[hand]) continue;
      const auto k = number(text.substr(2));
      if (!k || *k < 1 || *k > kHandSize) return std::nullopt;
      return TileRef::local(hand * kHandSize + *k - 1);
    }
  }
  return std::nullopt;
}

}  // namespace ptosim::model
