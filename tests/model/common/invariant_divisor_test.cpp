// SPDX-License-Identifier: BSD-3-Clause
// InvariantDivisor agrees with / and % for powers of two and for other divisors.
#include <catch2/catch.hpp>

#include <cstdint>

#include "model/common/invariant_divisor.h"

using ptosim::model::InvariantDivisor;

TEST_CASE("InvariantDivisor divides like the / and % operators", "[common]") {
  const std::uint64_t numerators[] = {0, 1, 2, 3, 63, 64, 65, 999, 1000, 1001, 65535, 65536, 0x1234'5678'9abcULL,
                                      ~std::uint64_t{0} - 4096};
  for (const std::uint64_t d : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{3}, std::uint64_t{12},
                                std::uint64_t{64}, std::uint64_t{1000}, std::uint64_t{65536}}) {
    const InvariantDivisor div(d);
    CHECK(div.divisor() == d);
    for (const std::uint64_t n : numerators) {
      INFO(n << " / " << d);
      CHECK(div.quotient(n) == n / d);
      CHECK(div.remainder(n) == n % d);
      CHECK(div.quotient_up(n) == (n + d - 1) / d);
    }
  }
}
