// SPDX-License-Identifier: BSD-3-Clause
// AddressRange: a half-open byte range [base, base + size).
#pragma once

#include <cstdint>

namespace ptosim::model {

struct AddressRange {
  std::uint64_t base = 0;
  std::uint64_t size = 0;

  /// True when [addr, addr + len) lies entirely inside the range (len 0 counts as 1 byte).
  constexpr bool contains(std::uint64_t addr, std::uint64_t len = 1) const {
    const std::uint64_t n = len == 0 ? 1 : len;
    return addr >= base && addr - base < size && n <= size - (addr - base);
  }
  constexpr bool overlaps(const AddressRange& o) const { return base < o.base + o.size && o.base < base + size; }
};

}  // namespace ptosim::model
