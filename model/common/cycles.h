// SPDX-License-Identifier: BSD-3-Clause
// Cycles: integer clock cycles, the only unit of time below engines/ (conversion to sc_time
// happens once, in engines/common).
#pragma once

#include <cstdint>

namespace ptosim::model {

struct Cycles {
  std::uint64_t count = 0;

  constexpr Cycles() = default;
  constexpr explicit Cycles(std::uint64_t c) : count(c) {}
  constexpr Cycles operator+(Cycles o) const { return Cycles(count + o.count); }
  constexpr Cycles& operator+=(Cycles o) { count += o.count; return *this; }
  constexpr bool operator==(Cycles o) const { return count == o.count; }
  constexpr bool operator!=(Cycles o) const { return count != o.count; }
  constexpr bool operator<(Cycles o) const { return count < o.count; }
  constexpr bool operator<=(Cycles o) const { return count <= o.count; }
  constexpr bool operator>(Cycles o) const { return count > o.count; }
};

}  // namespace ptosim::model
