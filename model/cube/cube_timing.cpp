// SPDX-License-Identifier: BSD-3-Clause
#include "model/cube/cube_timing.h"

namespace ptosim::model {

namespace {

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

std::uint64_t k_tile(DataType a, const CubeParams& p) {
  const std::uint64_t kt = p.k_tile_bytes * 8 / element_bits(a);
  return kt == 0 ? 1 : kt;
}

std::uint64_t cycles_per_fractal(DataType a, const CubeParams& p) {
  switch (element_bits(a)) {
    case 32: return p.cycles_per_fractal_32bit;
    case 4: return p.cycles_per_fractal_4bit;
    default: return p.cycles_per_fractal_16bit;
  }
}

}  // namespace

std::uint64_t cube_macs(const ExecPlan& plan) {
  const CubeArgs& a = plan.cube();
  return std::uint64_t{a.m} * static_cast<std::uint64_t>(plan.mask.count()) * a.n * a.k;
}

Cycles cube_compute_cycles(const ExecPlan& plan, const CubeParams& p) {
  const CubeArgs& a = plan.cube();
  const std::uint64_t m = std::uint64_t{a.m} * static_cast<std::uint64_t>(plan.mask.count());
  return Cycles(p.fill_cycles + cycles_per_fractal(a.a_dtype, p) * ceil_div(m, 16) *
                                    ceil_div(a.k, k_tile(a.a_dtype, p)) * ceil_div(a.n, 16));
}

double cube_peak_macs_per_cycle(DataType a_type, const CubeParams& p) {
  return 16.0 * static_cast<double>(k_tile(a_type, p)) * 16.0 / static_cast<double>(cycles_per_fractal(a_type, p));
}

}  // namespace ptosim::model
