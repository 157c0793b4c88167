// SPDX-License-Identifier: BSD-3-Clause
// CUBE core throughput: multiply-accumulates per second of model::cube_execute (one PE) for
// FP16 x FP16 -> FP32, BF16, E4M3 and an MX (E4M3 x E4M3 with E8M0 scales) case, from 16x16x16 to
// the largest shapes whose operands each fit one 64 KiB Local tile, beside two naive i-j-k loops
// computing the same bits:
//   naive-lib : element loads through the tile layout and the numerics library's scalar fused
//               multiply-add (numeric::fma_fp32 / fma_fp32_scaled) per term;
//   naive-fast: the same loads and loop order, but the core's own one-rounding step per term.
// Every run checks that all three agree bit for bit.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

#include "bench/common/call_rate.h"
#include "model/cube/cube_core.h"
#include "model/cube/cube_kernel.h"
#include "model/numeric/matrix_ops.h"
#include "model/numeric/scalar_ops.h"
#include "model/state/element_access.h"

namespace {

using namespace ptosim::model;

struct Shape {
  std::uint32_t m, n, k;
};

struct Case {
  const char* name;
  DataType a, b;
  bool mx;
};

TileDescriptor cube_tile(Layout l, DataType t, std::uint32_t rows, std::uint32_t cols) {
  const CellShape s = *cube_storage_shape(l, t, rows, cols);
  TileDescriptor d;
  d.dtype = t;
  d.rows = s.rows;
  d.cols = s.cols;
  d.valid_rows = rows;
  d.valid_cols = cols;
  d.layout = l;
  d.location = Location::Matrix;
  d.capacity_bytes = static_cast<std::uint32_t>(d.storage_bytes());
  return d;
}

TileDescriptor row_major(DataType t, std::uint32_t rows, std::uint32_t cols) {
  TileDescriptor d;
  d.dtype = t;
  d.rows = d.valid_rows = rows;
  d.cols = d.valid_cols = cols;
  d.capacity_bytes = static_cast<std::uint32_t>(d.storage_bytes());
  return d;
}

/// A finite encoding of moderate magnitude (no overflow, real rounding work).
std::uint64_t value(DataType t, std::mt19937_64& rng) {
  for (;;) {
    const std::uint64_t v = rng() & element_mask(t);
    const double d = numeric::to_double(t, v);
    if (std::isfinite(d) && std::fabs(d) < 64 && std::fabs(d) > 1.0 / 64) return v;
  }
}

struct Problem {
  ExecPlan plan;
  std::vector<std::vector<std::uint8_t>> in;
  std::vector<std::uint8_t> out;
  PePayloads io;
};

Problem make(const Case& c, const Shape& s, std::mt19937_64& rng) {
  Problem p;
  CubeArgs a;
  a.m = s.m;
  a.n = s.n;
  a.k = s.k;
  a.a_dtype = c.a;
  a.b_dtype = c.b;
  a.mx = c.mx;
  const Layout ml = s.m <= 16 ? Layout::CubeM16 : Layout::CubeM32;
  const std::uint32_t blocks = (s.k + 31) / 32;
  auto add = [&p](const TileDescriptor& d, const std::function<std::uint64_t()>& gen) {
    p.in.emplace_back(d.storage_bytes(), 0);
    for (std::uint32_t r = 0; r < d.valid_rows; ++r)
      for (std::uint32_t col = 0; col < d.valid_cols; ++col) store_element(d, p.in.back().data(), r, col, gen());
    p.plan.sources.push_back(SourceOperand{TileRef::local(0), 0, d});
    return static_cast<int>(p.plan.sources.size()) - 1;
  };
  a.src_a = add(cube_tile(ml, c.a, s.m, s.k), [&] { return value(c.a, rng); });
  if (c.mx) a.src_sa = add(row_major(DataType::E8M0, s.m, blocks), [&] { return 120 + rng() % 15; });
  a.src_b = add(cube_tile(Layout::CubeN8, c.b, s.k, s.n), [&] { return value(c.b, rng); });
  if (c.mx) a.src_sb = add(row_major(DataType::E8M0, blocks, s.n), [&] { return 120 + rng() % 15; });
  DestOperand d;
  d.desc = cube_tile(ml, DataType::FP32, s.m, s.n);
  p.plan.dests.push_back(d);
  p.plan.op = c.mx ? Operation::TMATMUL_MX : Operation::TMATMUL;
  p.plan.args = a;
  p.out.assign(d.desc.storage_bytes(), 0);
  for (const auto& b : p.in) p.io.sources.push_back(b.data());
  p.io.dests.push_back(p.out.data());
  return p;
}

/// The naive i-j-k loop: layout-aware loads per term and `step` for the fused multiply-add.
template <typename Step>
std::vector<std::uint32_t> naive(const Problem& p, Step step) {
  const CubeArgs& a = p.plan.cube();
  auto load = [&p](int index, std::uint32_t r, std::uint32_t c) {
    return load_element(p.plan.sources[static_cast<std::size_t>(index)].desc, p.io.sources[static_cast<std::size_t>(index)], r, c);
  };
  std::vector<std::uint32_t> d(std::size_t{a.m} * a.n);
  for (std::uint32_t i = 0; i < a.m; ++i)
    for (std::uint32_t j = 0; j < a.n; ++j) {
      std::uint32_t acc = 0;
      for (std::uint32_t k = 0; k < a.k; ++k) {
        const std::uint64_t sa = a.src_sa == kAbsent ? 127 : load(a.src_sa, i, k / 32);
        const std::uint64_t sb = a.src_sb == kAbsent ? 127 : load(a.src_sb, k / 32, j);
        acc = step(acc, load(a.src_a, i, k), load(a.src_b, k, j), sa, sb);
      }
      d[std::size_t{i} * a.n + j] = acc;
    }
  return d;
}

std::vector<std::uint32_t> result(const Problem& p) {
  const CubeArgs& a = p.plan.cube();
  std::vector<std::uint32_t> d;
  for (std::uint32_t i = 0; i < a.m; ++i)
    for (std::uint32_t j = 0; j < a.n; ++j)
      d.push_back(static_cast<std::uint32_t>(load_element(p.plan.dests[0].desc, p.out.data(), i, j)));
  return d;
}

/// Seconds per call of `f`, measured within `budget` seconds.
template <typename F>
double time_per_call(F f, double budget) {
  return 1.0 / ptosim::bench::calls_per_second(f, budget);
}

bool fits(const Case& c, const Shape& s) {
  const Layout ml = s.m <= 16 ? Layout::CubeM16 : Layout::CubeM32;
  for (const TileDescriptor& d : {cube_tile(ml, c.a, s.m, s.k), cube_tile(Layout::CubeN8, c.b, s.k, s.n),
                                  cube_tile(ml, DataType::FP32, s.m, s.n)})
    if (d.storage_bytes() > 65536) return false;
  return true;
}

}  // namespace

int main() {
  const Case cases[] = {{"FP16 x FP16 -> FP32", DataType::FP16, DataType::FP16, false},
                        {"BF16 x BF16 -> FP32", DataType::BF16, DataType::BF16, false},
                        {"E4M3 x E4M3 -> FP32", DataType::E4M3, DataType::E4M3, false},
                        {"MX E4M3 x E4M3 (E8M0 scales) -> FP32", DataType::E4M3, DataType::E4M3, true}};
  const Shape shapes[] = {{16, 16, 16},  {32, 32, 32},  {32, 64, 64},   {32, 128, 128},
                          {32, 256, 128}, {32, 512, 64}, {32, 512, 128}, {32, 128, 512}};
  std::mt19937_64 rng(2026);
  std::printf("CUBE core, one PE; MAC/s (millions). Each operand within one 64 KiB Local tile.\n");
  std::printf("%-38s %-13s %10s %12s %12s %9s %9s\n", "case", "M x N x K", "core", "naive-lib", "naive-fast", "vs lib",
              "vs fast");
  for (const Case& c : cases)
    for (const Shape& s : shapes) {
      if (!fits(c, s)) continue;
      Problem p = make(c, s, rng);
      const double macs = double(s.m) * s.n * s.k;
      const double t_core = time_per_call([&] { cube_execute(p.plan, p.io); }, 0.3);
      const std::vector<std::uint32_t> core = result(p);
      auto lib_step = [&c](std::uint32_t acc, std::uint64_t x, std::uint64_t y, std::uint64_t sx, std::uint64_t sy) {
        NumericFlags ignored = 0;
        if (!c.mx) return numeric::fma_fp32(acc, c.a, x, c.b, y, ignored);
        return numeric::fma_fp32_scaled(acc, c.a, x, static_cast<std::uint8_t>(sx), c.b, y, static_cast<std::uint8_t>(sy), ignored);
      };
      auto fast_step = [&c](std::uint32_t acc, std::uint64_t x, std::uint64_t y, std::uint64_t sx, std::uint64_t sy) {
        const double term = numeric::to_double(c.a, x) * std::ldexp(1.0, static_cast<int>(sx) - 127) *
                            (numeric::to_double(c.b, y) * std::ldexp(1.0, static_cast<int>(sy) - 127));
        float f;
        std::memcpy(&f, &acc, sizeof f);
        f = cube::fused_add(f, term);
        std::uint32_t bits;
        std::memcpy(&bits, &f, sizeof bits);
        return bits;
      };
      std::vector<std::uint32_t> lib, fast;
      const double t_lib = time_per_call([&] { lib = naive(p, lib_step); }, 0.3);
      const double t_fast = time_per_call([&] { fast = naive(p, fast_step); }, 0.3);
      const bool agree = core == lib && core == fast;
      char shape[32];
      std::snprintf(shape, sizeof shape, "%ux%ux%u", s.m, s.n, s.k);
      std::printf("%-38s %-13s %10.1f %12.2f %12.2f %8.1fx %8.1fx%s\n", c.name, shape, macs / t_core / 1e6,
                  macs / t_lib / 1e6, macs / t_fast / 1e6, t_lib / t_core, t_fast / t_core, agree ? "" : "  MISMATCH");
      if (!agree) return 1;
    }
  return 0;
}
