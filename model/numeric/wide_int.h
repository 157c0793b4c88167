// SPDX-License-Identifier: BSD-3-Clause
// 128-bit unsigned integers and bit-counting helpers for the exact arithmetic paths.
#pragma once

#include <cstdint>

namespace ptosim::model::numeric {

// GCC and Clang provide a native 128-bit integer; __extension__ keeps -Wpedantic quiet.
__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 s128;

/// Number of significant bits (0 for 0).
inline int bit_length(std::uint64_t v) { return v == 0 ? 0 : 64 - __builtin_clzll(v); }
inline int bit_length(u128 v) {
  const auto hi = static_cast<std::uint64_t>(v >> 64);
  return hi != 0 ? 64 + bit_length(hi) : bit_length(static_cast<std::uint64_t>(v));
}
/// Trailing zero count; 64 or 128 for 0.
inline int trailing_zeros(std::uint64_t v) { return v == 0 ? 64 : __builtin_ctzll(v); }
inline int trailing_zeros(u128 v) {
  const auto lo = static_cast<std::uint64_t>(v);
  return lo != 0 ? __builtin_ctzll(lo) : 64 + trailing_zeros(static_cast<std::uint64_t>(v >> 64));
}
/// All-ones mask of `bits` (0..64) low bits.
inline std::uint64_t low_mask(unsigned bits) { return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1; }

/// v >> n for any n >= 0, with `sticky` set when a one bit was shifted out.
inline u128 shift_right_sticky(u128 v, int n, bool& sticky) {
  if (n <= 0) return v;
  if (n >= 128) {
    sticky = sticky || v != 0;
    return 0;
  }
  if ((v & ((u128{1} << n) - 1)) != 0) sticky = true;
  return v >> n;
}

}  // namespace ptosim::model::numeric
