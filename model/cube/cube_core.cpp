// SPDX-License-Identifier: BSD-3-Clause
#include "model/cube/cube_core.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <vector>

#include "model/cube/cube_kernel.h"
#include "model/cube/cube_postprocess.h"
#include "model/cube/cube_tile_view.h"
#include "model/numeric/scalar_ops.h"

namespace ptosim::model {

namespace {

// Output columns per block: one block of every accumulator row plus the matching B columns stays
// in L1 while the K loop runs over it.
constexpr std::uint32_t kColumnBlock = 128;

/// One operand of one PE: its payload through a TileView of the logical window the core reads.
/// Local tiles go through their layout (CELL mapping for CUBE layouts); a Shared primary is a
/// RowMajor tile read transposed under TransA/TransB.
struct Operand {
  cube::TileView view;
  const std::uint8_t* bytes;

  std::uint64_t at(std::uint32_t r, std::uint32_t c) const { return view.load(bytes, r, c); }
};

Operand operand(const ExecPlan& plan, const PePayloads& io, int index, std::uint32_t rows, std::uint32_t cols,
                bool transpose = false) {
  const auto i = static_cast<std::size_t>(index);
  return Operand{cube::TileView(plan.sources[i].desc, rows, cols, transpose), io.sources[i]};
}

float as_float(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

/// Exact values of every encoding of the 8- and 4-bit floating input types, by DataType code.
const double* small_float_table(DataType t) {
  static const auto tables = [] {
    std::vector<std::array<double, 256>> all(32);
    for (DataType u : {DataType::HiF8, DataType::E4M3, DataType::E5M2, DataType::E3M2, DataType::E2M3,
                       DataType::E2M1X2, DataType::E1M2X2})
      for (unsigned code = 0; code < (1U << element_bits(u)); ++code)
        all[data_type_code(u)][code] = numeric::to_double(u, code);
    return all;
  }();
  return tables[data_type_code(t)].data();
}

/// The exact value of a floating input encoding (TF32/HF32 carriers are FP32 bit patterns).
double float_value(DataType t, std::uint64_t bits) {
  switch (t) {
    case DataType::FP32:
    case DataType::TF32:
    case DataType::HF32: return as_float(static_cast<std::uint32_t>(bits));
    case DataType::BF16: return as_float(static_cast<std::uint32_t>(bits) << 16);
    case DataType::FP16: {
      // Rebias a normal FP16 into binary64 (15 -> 1023); subnormals are m * 2^-24; 31 is inf/NaN.
      const std::uint64_t e = (bits >> 10) & 0x1F, m = bits & 0x3FF;
      double v = 0;
      if (e == 0) v = static_cast<double>(m) * 0x1p-24;
      else if (e == 31) v = m == 0 ? HUGE_VAL : std::nan("");
      else {
        const std::uint64_t b64 = (e + 1008) << 52 | m << 42;
        std::memcpy(&v, &b64, sizeof v);
      }
      return (bits & 0x8000) != 0 ? -v : v;
    }
    default: return small_float_table(t)[bits];
  }
}

/// An E8M0 scale: 2^(s - 127), a normal binary64, or NaN for 0xFF (the whole term becomes NaN).
double scale_value(std::uint64_t s) {
  if (s == 0xFF) return std::nan("");
  const std::uint64_t bits = (s - 127 + 1023) << 52;
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

std::int64_t integer_value(DataType t, std::uint64_t bits) {
  const unsigned w = element_bits(t);
  if (!is_signed_integer(t)) return static_cast<std::int64_t>(bits);
  return static_cast<std::int64_t>(bits << (64 - w)) >> (64 - w);
}

/// Decoded operands, kept between calls: a tile's are hundreds of KiB, and allocating them afresh
/// each call costs page faults whenever the allocator hands such blocks back to the system.
struct Workspace {
  std::vector<double> av, bv;
  std::vector<std::int64_t> iav, ibv;
};

Workspace& workspace() {
  thread_local Workspace w;
  return w;
}

/// The raw accumulator P (M x N row-major accumulator encodings) of a floating form: the fold over
/// increasing K from C (or +0), one rounding per term, then the bias with one more rounding.
std::vector<std::uint32_t> accumulate_float(const ExecPlan& plan, const CubeArgs& a, const PePayloads& io) {
  const std::uint32_t m = a.m, n = a.n, k = a.k;
  const Operand A = operand(plan, io, a.src_a, m, k, a.trans_a), B = operand(plan, io, a.src_b, k, n, a.trans_b);
  // Decode every input once (MX: scaled exactly, power-of-two scaling never rounds in binary64).
  // Every element is written below, so stale workspace contents never leak into a result.
  std::vector<double>& av = workspace().av;
  std::vector<double>& bv = workspace().bv;
  av.resize(std::size_t{m} * k);
  bv.resize(std::size_t{k} * n);
  for (std::uint32_t i = 0; i < m; ++i)
    for (std::uint32_t kk = 0; kk < k; ++kk) av[std::size_t{i} * k + kk] = float_value(a.a_dtype, A.at(i, kk));
  for (std::uint32_t kk = 0; kk < k; ++kk)
    for (std::uint32_t j = 0; j < n; ++j) bv[std::size_t{kk} * n + j] = float_value(a.b_dtype, B.at(kk, j));
  if (a.src_sa != kAbsent) {
    const Operand SA = operand(plan, io, a.src_sa, m, (k + 31) / 32);
    for (std::uint32_t i = 0; i < m; ++i)
      for (std::uint32_t kk = 0; kk < k; ++kk) av[std::size_t{i} * k + kk] *= scale_value(SA.at(i, kk / 32));
  }
  if (a.src_sb != kAbsent) {
    const Operand SB = operand(plan, io, a.src_sb, (k + 31) / 32, n);
    for (std::uint32_t kk = 0; kk < k; ++kk)
      for (std::uint32_t j = 0; j < n; ++j) bv[std::size_t{kk} * n + j] *= scale_value(SB.at(kk / 32, j));
  }

  std::vector<float> acc(std::size_t{m} * n, 0.0F);
  if (a.src_c != kAbsent) {
    const Operand C = operand(plan, io, a.src_c, m, n);
    for (std::uint32_t i = 0; i < m; ++i)
      for (std::uint32_t j = 0; j < n; ++j) acc[std::size_t{i} * n + j] = as_float(static_cast<std::uint32_t>(C.at(i, j)));
  }
  std::vector<double> bias;
  if (a.src_bias != kAbsent) {
    const Operand Bias = operand(plan, io, a.src_bias, 1, n);
    for (std::uint32_t j = 0; j < n; ++j) bias.push_back(as_float(static_cast<std::uint32_t>(Bias.at(0, j))));
  }

  // Each output keeps its own increasing-K fold; blocking over columns only reorders independent
  // outputs.
  for (std::uint32_t jb = 0; jb < n; jb += kColumnBlock) {
    const std::size_t len = std::min(kColumnBlock, n - jb);
    for (std::uint32_t i = 0; i < m; ++i) {
      float* row = &acc[std::size_t{i} * n + jb];
      for (std::uint32_t kk = 0; kk < k; ++kk) cube::fma_row(row, &bv[std::size_t{kk} * n + jb], av[std::size_t{i} * k + kk], len);
      if (!bias.empty())
        for (std::size_t j = 0; j < len; ++j) row[j] = cube::fused_add(row[j], bias[jb + j]);
    }
  }

  std::vector<std::uint32_t> p(acc.size());
  for (std::size_t e = 0; e < acc.size(); ++e) p[e] = std::isnan(acc[e]) ? 0x7FC00000U : bits_of(acc[e]);
  return p;
}

/// The raw accumulator of an integer form: exact products summed modulo 2^32.
std::vector<std::uint32_t> accumulate_integer(const ExecPlan& plan, const CubeArgs& a, const PePayloads& io) {
  const std::uint32_t m = a.m, n = a.n, k = a.k;
  const Operand A = operand(plan, io, a.src_a, m, k, a.trans_a), B = operand(plan, io, a.src_b, k, n, a.trans_b);
  std::vector<std::int64_t>& av = workspace().iav;
  std::vector<std::int64_t>& bv = workspace().ibv;
  av.resize(std::size_t{m} * k);
  bv.resize(std::size_t{k} * n);
  for (std::uint32_t i = 0; i < m; ++i)
    for (std::uint32_t kk = 0; kk < k; ++kk) av[std::size_t{i} * k + kk] = integer_value(a.a_dtype, A.at(i, kk));
  for (std::uint32_t kk = 0; kk < k; ++kk)
    for (std::uint32_t j = 0; j < n; ++j) bv[std::size_t{kk} * n + j] = integer_value(a.b_dtype, B.at(kk, j));

  std::vector<std::uint32_t> acc(std::size_t{m} * n, 0);
  if (a.src_c != kAbsent) {
    const Operand C = operand(plan, io, a.src_c, m, n);
    for (std::uint32_t i = 0; i < m; ++i)
      for (std::uint32_t j = 0; j < n; ++j) acc[std::size_t{i} * n + j] = static_cast<std::uint32_t>(C.at(i, j));
  }
  for (std::uint32_t i = 0; i < m; ++i)
    for (std::uint32_t kk = 0; kk < k; ++kk)
      cube::mac_row(&acc[std::size_t{i} * n], &bv[std::size_t{kk} * n], av[std::size_t{i} * k + kk], n);
  if (a.src_bias != kAbsent) {
    const Operand Bias = operand(plan, io, a.src_bias, 1, n);
    for (std::uint32_t i = 0; i < m; ++i)
      for (std::uint32_t j = 0; j < n; ++j) acc[std::size_t{i} * n + j] += static_cast<std::uint32_t>(Bias.at(0, j));
  }
  return acc;
}

/// RowMax (MatrixRowMaxResult) and GroupMax (MatrixGroupMaxResult) of the raw accumulator.
NumericFlags reductions(const ExecPlan& plan, const CubeArgs& a, const PePayloads& io, const std::vector<std::uint32_t>& p) {
  NumericFlags flags = 0;
  const DataType t = a.acc_dtype;
  const bool abs = a.fpatr.max_abs;
  auto element = [&](std::uint32_t i, std::uint32_t j) { return std::uint64_t{p[std::size_t{i} * a.n + j]}; };
  if (a.dst_row_max != kAbsent) {
    const auto d = static_cast<std::size_t>(a.dst_row_max);
    const cube::TileView out(plan.dests[d].desc, a.m, 1);
    const std::optional<Operand> in =
        a.src_row_max_in != kAbsent ? std::optional<Operand>(operand(plan, io, a.src_row_max_in, a.m, 1)) : std::nullopt;
    for (std::uint32_t i = 0; i < a.m; ++i) {
      std::uint64_t v = element(i, 0);
      if (abs) v = cube::reduction_step(t, v, v, true, flags);
      for (std::uint32_t j = 1; j < a.n; ++j) v = cube::reduction_step(t, v, element(i, j), abs, flags);
      if (in) v = cube::reduction_step(t, in->at(i, 0), v, abs, flags);
      out.store(io.dests[d], i, 0, v);
    }
  }
  if (a.dst_group_max != kAbsent) {
    const auto d = static_cast<std::size_t>(a.dst_group_max);
    const std::uint32_t width = a.fpatr.group_n, groups = (a.n + width - 1) / width;
    const cube::TileView out(plan.dests[d].desc, a.m, groups);
    for (std::uint32_t i = 0; i < a.m; ++i)
      for (std::uint32_t g = 0; g < groups; ++g) {
        std::uint64_t v = element(i, g * width);
        if (abs) v = cube::reduction_step(t, v, v, true, flags);
        for (std::uint32_t j = g * width + 1; j < std::min(a.n, (g + 1) * width); ++j)
          v = cube::reduction_step(t, v, element(i, j), abs, flags);
        out.store(io.dests[d], i, g, v);
      }
  }
  return flags;
}

}  // namespace

NumericFlags cube_execute(const ExecPlan& plan, const PePayloads& io) {
  const CubeArgs& a = plan.cube();
  const std::vector<std::uint32_t> p =
      is_float(a.acc_dtype) ? accumulate_float(plan, a, io) : accumulate_integer(plan, a, io);

  NumericFlags flags = reductions(plan, a, io, p);

  const cube::TileView out(plan.dests[0].desc, a.m, a.n);
  std::uint8_t* d = io.dests[0];
  const cube::PostProcess pp{a.fpatr.prequant_mode, a.fpatr.relu_mode, a.acc_dtype, a.out_dtype, a.rounding, a.saturate};
  if (pp.identity()) {
    for (std::uint32_t i = 0; i < a.m; ++i)
      for (std::uint32_t j = 0; j < a.n; ++j) out.store(d, i, j, p[std::size_t{i} * a.n + j]);
    return flags;
  }
  const std::uint64_t quant_scalar = a.quant_param[static_cast<std::size_t>(io.pe)];
  const std::uint64_t relu_scalar = a.relu_param[static_cast<std::size_t>(io.pe)];
  const std::optional<Operand> quant =
      a.src_quant != kAbsent ? std::optional<Operand>(operand(plan, io, a.src_quant, 1, a.n)) : std::nullopt;
  const std::optional<Operand> relu =
      a.src_relu != kAbsent ? std::optional<Operand>(operand(plan, io, a.src_relu, 1, a.n)) : std::nullopt;
  for (std::uint32_t j = 0; j < a.n; ++j) {
    const std::uint64_t q = quant ? quant->at(0, j) : quant_scalar;
    const std::uint64_t r = relu ? relu->at(0, j) : relu_scalar;
    for (std::uint32_t i = 0; i < a.m; ++i) out.store(d, i, j, pp.apply(p[std::size_t{i} * a.n + j], q, r, flags));
  }
  return flags;
}

}  // namespace ptosim::model
