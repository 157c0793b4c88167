// SPDX-License-Identifier: BSD-3-Clause
// Out-of-line parts of the fast paths: lookup tables and the binary64 exp shortcut.
#include "model/numeric/typed_ops.h"

#include "model/numeric/exp_engine.h"

namespace ptosim::model::numeric::typed_detail {

namespace {

// e^x = y * 2^k for x in a range whose results are normal in the destination; the enclosure
// y * (1 -+ 2^-47) (rounded outward by at most 2^-53) contains e^x.
bool exp_bounds(double x, double lo_limit, double hi_limit, double& lo, double& hi) {
  if (x == 0 || !(x > lo_limit && x < hi_limit)) return false;
  int k = 0;
  const double y = exp_core_double(x, k);
  const double scale = as_double(static_cast<std::uint64_t>(k + 1023) << 52);
  lo = y * (1 - 0x1p-47) * scale;
  hi = y * (1 + 0x1p-47) * scale;
  return true;
}

template <DataType T>
bool soft_exp(double x, double lo_limit, double hi_limit, std::uint64_t& bits, NumericFlags& flags) {
  double lo = 0;
  double hi = 0;
  if (!exp_bounds(x, lo_limit, hi_limit, lo, hi)) return false;
  NumericFlags f_lo = 0;
  NumericFlags f_hi = 0;
  const auto r_lo = SoftFloatOps<T>::R::round(lo, true, f_lo);
  const auto r_hi = SoftFloatOps<T>::R::round(hi, true, f_hi);
  if (r_lo != r_hi) return false;
  bits = r_lo;
  flags |= f_lo;
  return true;
}

}  // namespace

std::unique_ptr<std::uint16_t[]> build_table(DataType t, TableOp op) {
  const std::uint32_t n = std::uint32_t{1} << element_bits(t);
  const unsigned shift = element_bits(t);
  const std::uint32_t size = op == TableOp::Exp ? n : n * n;
  auto table = std::make_unique<std::uint16_t[]>(size);
  for (std::uint32_t i = 0; i < size; ++i) {
    const std::uint64_t a = op == TableOp::Exp ? i : i >> shift;
    const std::uint64_t b = i & (n - 1);
    NumericFlags f = 0;
    std::uint64_t r = 0;
    switch (op) {
      case TableOp::Add: r = exact::add(t, a, b, RoundingMode::RNE, f); break;
      case TableOp::Sub: r = exact::sub(t, a, b, RoundingMode::RNE, f); break;
      case TableOp::Mul: r = exact::mul(t, a, b, RoundingMode::RNE, f); break;
      case TableOp::Div: r = exact::div(t, a, b, RoundingMode::RNE, f); break;
      case TableOp::Max: r = exact::max(t, a, b, f); break;
      case TableOp::Min: r = exact::min(t, a, b, f); break;
      case TableOp::Exp: r = exact::exp(t, a, f); break;
    }
    table[i] = static_cast<std::uint16_t>(r | (std::uint64_t{f} << 8));
  }
  return table;
}

std::unique_ptr<std::uint32_t[]> build_exp_table(DataType t) {
  auto table = std::make_unique<std::uint32_t[]>(0x10000);
  for (std::uint32_t a = 0; a < 0x10000; ++a) {
    NumericFlags f = 0;
    const auto lane = static_cast<std::uint16_t>(a);
    const std::uint16_t r = t == DataType::FP16 ? SoftFloatOps<DataType::FP16>::computed_exp(lane, f)
                                                : SoftFloatOps<DataType::BF16>::computed_exp(lane, f);
    table[a] = r | std::uint32_t{f} << 16;
  }
  return table;
}

bool exp_fast_fp32(double x, std::uint32_t& bits) {
  // e^-87 > 2^-126 and e^88.5 < FLT_MAX: only NX can arise.
  double lo = 0;
  double hi = 0;
  if (!exp_bounds(x, -87.0, 88.5, lo, hi)) return false;
  const std::uint32_t r_lo = bits_of(static_cast<float>(lo));
  if (r_lo != bits_of(static_cast<float>(hi))) return false;
  bits = r_lo;
  return true;
}

bool exp_fast_soft(DataType t, double x, std::uint64_t& bits, NumericFlags& flags) {
  switch (t) {
    case DataType::FP16: return soft_exp<DataType::FP16>(x, -9.6, 11.0, bits, flags);  // [2^-14, 65504]
    case DataType::BF16: return soft_exp<DataType::BF16>(x, -87.0, 88.5, bits, flags);
    case DataType::TF32: return soft_exp<DataType::TF32>(x, -87.0, 88.5, bits, flags);
    case DataType::HF32: return soft_exp<DataType::HF32>(x, -87.0, 88.5, bits, flags);
    default: return false;
  }
}

}  // namespace ptosim::model::numeric::typed_detail
