// SPDX-License-Identifier: BSD-3-Clause
#include "model/cube/cube_core.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <vector>

#include "model/cube/cube_kernel.h"
#include "model/cube/cube_postprocess.h"
#include "model/numeric/scalar_ops.h"
#include "model/state/element_access.h"

namespace ptosim::model {

namespace {

// Output columns per block: one block of every accumulator row plus the matching B columns stays
// in L1 while the K loop runs over it.
constexpr std::uint32_t kColumnBlock = 128;

/// Logical element reader of one operand. Local tiles go through their layout (CELL mapping for
/// CUBE layouts); a Shared primary is a RowMajor tile read transposed under TransA/TransB.
struct Operand {
  const TileDescriptor* desc = nullptr;
  const std::uint8_t* bytes = nullptr;
  bool transpose = false;

  std::uint64_t at(std::uint32_t r, std::uint32_t c) const {
    return transpose ? load_element(*desc, bytes, c, r) : load_element(*desc, bytes, r, c);
  }
};

Operand operand(const ExecPlan& plan, const PePayloads& io, int index, bool transpose = false) {
  return Operand{&plan.sources[static_cast<std::size_t>(index)].desc, io.sources[static_cast<std::size_t>(index)],
                 transpose};
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
      const unsigned e = (bits >> 10) & 0x1F;
      const double m = static_cast<double>(bits & 0x3FF);
      double v = e == 0 ? std::ldexp(m, -24)
                 : e == 31 ? (m == 0 ? HUGE_VAL : std::nan(""))
                           : std::ldexp(1024 + m, static_cast<int>(e) - 25);
      return (bits & 0x8000) != 0 ? -v : v;
    }
    default: return small_float_table(t)[bits];
  }
}

/// An E8M0 scale: 2^(s - 127), or NaN for 0xFF (the whole term becomes NaN).
double scale_value(std::uint64_t s) { return s == 0xFF ? std::nan("") : std::ldexp(1.0, static_cast<int>(s) - 127); }

std::int64_t integer_value(DataType t, std::uint64_t bits) {
  const unsigned w = element_bits(t);
  if (!is_signed_integer(t)) return static_cast<std::int64_t>(bits);
  return static_cast<std::int64_t>(bits << (64 - w)) >> (64 - w);
}

/// The raw accumulator P (M x N row-major accumulator encodings) of a floating form: the fold over
/// increasing K from C (or +0), one rounding per term, then the bias with one more rounding.
std::vector<std::uint32_t> accumulate_float(const ExecPlan& plan, const CubeArgs& a, const PePayloads& io) {
  const std::uint32_t m = a.m, n = a.n, k = a.k;
  const Operand A = operand(plan, io, a.src_a, a.trans_a), B = operand(plan, io, a.src_b, a.trans_b);
  // Decode every input once (MX: scaled exactly, power-of-two scaling never rounds in binary64).
  std::vector<double> av(std::size_t{m} * k), bv(std::size_t{k} * n);
  for (std::uint32_t i = 0; i < m; ++i)
    for (std::uint32_t kk = 0; kk < k; ++kk) av[std::size_t{i} * k + kk] = float_value(a.a_dtype, A.at(i, kk));
  for (std::uint32_t kk = 0; kk < k; ++kk)
    for (std::uint32_t j = 0; j < n; ++j) bv[std::size_t{kk} * n + j] = float_value(a.b_dtype, B.at(kk, j));
  if (a.src_sa != kAbsent) {
    const Operand SA = operand(plan, io, a.src_sa);
    for (std::uint32_t i = 0; i < m; ++i)
      for (std::uint32_t kk = 0; kk < k; ++kk) av[std::size_t{i} * k + kk] *= scale_value(SA.at(i, kk / 32));
  }
  if (a.src_sb != kAbsent) {
    const Operand SB = operand(plan, io, a.src_sb);
    for (std::uint32_t kk = 0; kk < k; ++kk)
      for (std::uint32_t j = 0; j < n; ++j) bv[std::size_t{kk} * n + j] *= scale_value(SB.at(kk / 32, j));
  }

  std::vector<float> acc(std::size_t{m} * n, 0.0F);
  if (a.src_c != kAbsent) {
    const Operand C = operand(plan, io, a.src_c);
    for (std::uint32_t i = 0; i < m; ++i)
      for (std::uint32_t j = 0; j < n; ++j) acc[std::size_t{i} * n + j] = as_float(static_cast<std::uint32_t>(C.at(i, j)));
  }
  std::vector<double> bias;
  if (a.src_bias != kAbsent) {
    const Operand Bias = operand(plan, io, a.src_bias);
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
  const Operand A = operand(plan, io, a.src_a, a.trans_a), B = operand(plan, io, a.src_b, a.trans_b);
  std::vector<std::int64_t> av(std::size_t{m} * k), bv(std::size_t{k} * n);
  for (std::uint32_t i = 0; i < m; ++i)
    for (std::uint32_t kk = 0; kk < k; ++kk) av[std::size_t{i} * k + kk] = integer_value(a.a_dtype, A.at(i, kk));
  for (std::uint32_t kk = 0; kk < k; ++kk)
    for (std::uint32_t j = 0; j < n; ++j) bv[std::size_t{kk} * n + j] = integer_value(a.b_dtype, B.at(kk, j));

  std::vector<std::uint32_t> acc(std::size_t{m} * n, 0);
  if (a.src_c != kAbsent) {
    const Operand C = operand(plan, io, a.src_c);
    for (std::uint32_t i = 0; i < m; ++i)
      for (std::uint32_t j = 0; j < n; ++j) acc[std::size_t{i} * n + j] = static_cast<std::uint32_t>(C.at(i, j));
  }
  for (std::uint32_t i = 0; i < m; ++i)
    for (std::uint32_t kk = 0; kk < k; ++kk)
      cube::mac_row(&acc[std::size_t{i} * n], &bv[std::size_t{kk} * n], av[std::size_t{i} * k + kk], n);
  if (a.src_bias != kAbsent) {
    const Operand Bias = operand(plan, io, a.src_bias);
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
    for (std::uint32_t i = 0; i < a.m; ++i) {
      std::uint64_t v = element(i, 0);
      if (abs) v = cube::reduction_step(t, v, v, true, flags);
      for (std::uint32_t j = 1; j < a.n; ++j) v = cube::reduction_step(t, v, element(i, j), abs, flags);
      if (a.src_row_max_in != kAbsent) v = cube::reduction_step(t, operand(plan, io, a.src_row_max_in).at(i, 0), v, abs, flags);
      store_element(plan.dests[d].desc, io.dests[d], i, 0, v);
    }
  }
  if (a.dst_group_max != kAbsent) {
    const auto d = static_cast<std::size_t>(a.dst_group_max);
    const std::uint32_t width = a.fpatr.group_n;
    for (std::uint32_t i = 0; i < a.m; ++i)
      for (std::uint32_t g = 0; g * width < a.n; ++g) {
        std::uint64_t v = element(i, g * width);
        if (abs) v = cube::reduction_step(t, v, v, true, flags);
        for (std::uint32_t j = g * width + 1; j < std::min(a.n, (g + 1) * width); ++j)
          v = cube::reduction_step(t, v, element(i, j), abs, flags);
        store_element(plan.dests[d].desc, io.dests[d], i, g, v);
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

  const TileDescriptor& dd = plan.dests[0].desc;
  std::uint8_t* d = io.dests[0];
  const cube::PostProcess pp{a.fpatr.prequant_mode, a.fpatr.relu_mode, a.acc_dtype, a.out_dtype, a.rounding, a.saturate};
  if (pp.identity()) {
    for (std::uint32_t i = 0; i < a.m; ++i)
      for (std::uint32_t j = 0; j < a.n; ++j) store_element(dd, d, i, j, p[std::size_t{i} * a.n + j]);
    return flags;
  }
  const std::uint64_t quant_scalar = a.quant_param[static_cast<std::size_t>(io.pe)];
  const std::uint64_t relu_scalar = a.relu_param[static_cast<std::size_t>(io.pe)];
  const bool quant_vector = a.src_quant != kAbsent, relu_vector = a.src_relu != kAbsent;
  const Operand Q = quant_vector ? operand(plan, io, a.src_quant) : Operand{};
  const Operand R = relu_vector ? operand(plan, io, a.src_relu) : Operand{};
  for (std::uint32_t j = 0; j < a.n; ++j) {
    const std::uint64_t quant = quant_vector ? Q.at(0, j) : quant_scalar;
    const std::uint64_t relu = relu_vector ? R.at(0, j) : relu_scalar;
    for (std::uint32_t i = 0; i < a.m; ++i)
      store_element(dd, d, i, j, pp.apply(p[std::size_t{i} * a.n + j], quant, relu, flags));
  }
  return flags;
}

}  // namespace ptosim::model
