// SPDX-License-Identifier: BSD-3-Clause
// Built with -ffp-contract=off: the error-free transformation below needs every binary64
// operation rounded separately.
#include "model/cube/cube_kernel.h"

#include <cstring>
#include <limits>

namespace ptosim::model::cube {

static_assert(std::numeric_limits<double>::is_iec559 && std::numeric_limits<float>::is_iec559,
              "the CUBE kernel relies on IEEE 754 binary32/binary64 host arithmetic");

namespace {

// s = fl(acc + p) and its exact error e (TwoSum); the exact sum is s + e. Rounding s to odd (when
// e != 0 and s is even, step one ulp toward e) keeps enough information for the final binary64
// -> binary32 conversion to round the exact sum correctly: 53 >= 24 + 2 bits (Boldo-Melquiond),
// also for binary32 subnormal and overflowing results.
inline float round_sum(double acc, double p) {
  double s = acc + p;
  std::uint64_t bits;
  std::memcpy(&bits, &s, sizeof bits);
  if ((bits & 0x7FF0000000000000ULL) != 0x7FF0000000000000ULL) {
    const double bb = s - acc;
    const double e = (acc - (s - bb)) + (p - bb);
    if (e != 0 && (bits & 1) == 0) {
      bits += (e > 0) == (s > 0) ? 1 : ~std::uint64_t{0};
      std::memcpy(&s, &bits, sizeof s);
    }
  }
  return static_cast<float>(s);
}

}  // namespace

float fused_add(float acc, double p) { return round_sum(acc, p); }

void fma_row(float* acc, const double* b, double a, std::size_t n) {
  for (std::size_t j = 0; j < n; ++j) acc[j] = round_sum(acc[j], a * b[j]);
}

void mac_row(std::uint32_t* acc, const std::int64_t* b, std::int64_t a, std::size_t n) {
  for (std::size_t j = 0; j < n; ++j) acc[j] += static_cast<std::uint32_t>(static_cast<std::uint64_t>(a * b[j]));
}

}  // namespace ptosim::model::cube
