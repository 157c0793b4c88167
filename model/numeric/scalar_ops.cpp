// SPDX-License-Identifier: BSD-3-Clause
// Runtime dispatch of the scalar API onto the typed fast paths, plus constants and classification.
#include "model/numeric/scalar_ops.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "model/numeric/exact_ops.h"
#include "model/numeric/float_format.h"
#include "model/numeric/rounding.h"
#include "model/numeric/typed_ops.h"
#include "model/numeric/wide_int.h"

namespace ptosim::model::numeric {

namespace {

template <DataType T>
using Tag = std::integral_constant<DataType, T>;

// Calls f(Tag<T>{}) for the runtime type t.
template <typename F>
std::uint64_t dispatch(DataType t, F&& f) {
  switch (t) {
    case DataType::FP64: return f(Tag<DataType::FP64>{});
    case DataType::FP32: return f(Tag<DataType::FP32>{});
    case DataType::TF32: return f(Tag<DataType::TF32>{});
    case DataType::HF32: return f(Tag<DataType::HF32>{});
    case DataType::FP16: return f(Tag<DataType::FP16>{});
    case DataType::BF16: return f(Tag<DataType::BF16>{});
    case DataType::HiF8: return f(Tag<DataType::HiF8>{});
    case DataType::E4M3: return f(Tag<DataType::E4M3>{});
    case DataType::E5M2: return f(Tag<DataType::E5M2>{});
    case DataType::E3M2: return f(Tag<DataType::E3M2>{});
    case DataType::E2M3: return f(Tag<DataType::E2M3>{});
    case DataType::E2M1X2: return f(Tag<DataType::E2M1X2>{});
    case DataType::E1M2X2: return f(Tag<DataType::E1M2X2>{});
    case DataType::E8M0: return f(Tag<DataType::E8M0>{});
    case DataType::HiF4X2: return f(Tag<DataType::HiF4X2>{});
    case DataType::S64: return f(Tag<DataType::S64>{});
    case DataType::S32: return f(Tag<DataType::S32>{});
    case DataType::S16: return f(Tag<DataType::S16>{});
    case DataType::S8: return f(Tag<DataType::S8>{});
    case DataType::S4X2: return f(Tag<DataType::S4X2>{});
    case DataType::U64: return f(Tag<DataType::U64>{});
    case DataType::U32: return f(Tag<DataType::U32>{});
    case DataType::U16: return f(Tag<DataType::U16>{});
    case DataType::U8: return f(Tag<DataType::U8>{});
    case DataType::U4X2: return f(Tag<DataType::U4X2>{});
  }
  throw std::invalid_argument("numeric: reserved DataType code");
}

// Masks both operands to the lane type of t and applies `op(TypedOps<T>{}, x, y, flags)`.
template <typename Op>
std::uint64_t binary(DataType t, std::uint64_t a, std::uint64_t b, NumericFlags& flags, Op op) {
  return dispatch(t, [&](auto tag) -> std::uint64_t {
    constexpr DataType T = decltype(tag)::value;
    using L = typename TypedOps<T>::Lane;
    constexpr std::uint64_t m = typed_detail::kLaneMask<T>;
    return op(TypedOps<T>{}, static_cast<L>(a & m), static_cast<L>(b & m), flags);
  });
}

}  // namespace

std::uint64_t add(DataType t, std::uint64_t a, std::uint64_t b, NumericFlags& flags) {
  return binary(t, a, b, flags, [](auto ops, auto x, auto y, NumericFlags& f) { return decltype(ops)::add(x, y, f); });
}
std::uint64_t sub(DataType t, std::uint64_t a, std::uint64_t b, NumericFlags& flags) {
  return binary(t, a, b, flags, [](auto ops, auto x, auto y, NumericFlags& f) { return decltype(ops)::sub(x, y, f); });
}
std::uint64_t mul(DataType t, std::uint64_t a, std::uint64_t b, NumericFlags& flags) {
  return binary(t, a, b, flags, [](auto ops, auto x, auto y, NumericFlags& f) { return decltype(ops)::mul(x, y, f); });
}
std::uint64_t div(DataType t, std::uint64_t a, std::uint64_t b, NumericFlags& flags) {
  return binary(t, a, b, flags, [](auto ops, auto x, auto y, NumericFlags& f) { return decltype(ops)::div(x, y, f); });
}
std::uint64_t max(DataType t, std::uint64_t a, std::uint64_t b, NumericFlags& flags) {
  return binary(t, a, b, flags, [](auto ops, auto x, auto y, NumericFlags& f) { return decltype(ops)::max(x, y, f); });
}
std::uint64_t min(DataType t, std::uint64_t a, std::uint64_t b, NumericFlags& flags) {
  return binary(t, a, b, flags, [](auto ops, auto x, auto y, NumericFlags& f) { return decltype(ops)::min(x, y, f); });
}

std::uint64_t add(DataType t, std::uint64_t a, std::uint64_t b, RoundingMode rm, NumericFlags& flags) {
  return rm == RoundingMode::RNE ? add(t, a, b, flags) : exact::add(t, a, b, rm, flags);
}
std::uint64_t sub(DataType t, std::uint64_t a, std::uint64_t b, RoundingMode rm, NumericFlags& flags) {
  return rm == RoundingMode::RNE ? sub(t, a, b, flags) : exact::sub(t, a, b, rm, flags);
}
std::uint64_t mul(DataType t, std::uint64_t a, std::uint64_t b, RoundingMode rm, NumericFlags& flags) {
  return rm == RoundingMode::RNE ? mul(t, a, b, flags) : exact::mul(t, a, b, rm, flags);
}
std::uint64_t div(DataType t, std::uint64_t a, std::uint64_t b, RoundingMode rm, NumericFlags& flags) {
  return rm == RoundingMode::RNE ? div(t, a, b, flags) : exact::div(t, a, b, rm, flags);
}

std::uint64_t exp(DataType t, std::uint64_t a, NumericFlags& flags) {
  return dispatch(t, [&](auto tag) -> std::uint64_t {
    constexpr DataType T = decltype(tag)::value;
    using L = typename TypedOps<T>::Lane;
    return TypedOps<T>::exp(static_cast<L>(a & typed_detail::kLaneMask<T>), flags);
  });
}

std::uint64_t convert(DataType from, std::uint64_t bits, DataType to, RoundingMode rm, bool saturate,
                      NumericFlags& flags) {
  return exact::convert(from, bits, to, rm, saturate, flags);
}

std::uint64_t zero(DataType) { return 0; }

std::uint64_t one(DataType t) {
  const FloatFormat* f = float_format(t);
  return f == nullptr ? 1 : one_of(*f);
}

std::optional<std::uint64_t> canonical_nan(DataType t) {
  const FloatFormat* f = float_format(t);
  if (f == nullptr || f->nan == NanStyle::None) return std::nullopt;
  return f->canonical_nan;
}

std::uint64_t pad_max(DataType t) {
  switch (t) {
    case DataType::FP64: return 0x7FEFFFFFFFFFFFFF;
    case DataType::FP32: return 0x7F7FFFFF;
    case DataType::TF32: return 0x7F7FE000;
    case DataType::HF32: return 0x7F7FF000;
    case DataType::FP16: return 0x7BFF;
    case DataType::BF16: return 0x7F7F;
    case DataType::E4M3: return 0x7E;
    case DataType::E5M2: return 0x7B;
    case DataType::S64: return 0x7FFFFFFFFFFFFFFF;
    case DataType::S32: return 0x7FFFFFFF;
    case DataType::S16: return 0x7FFF;
    case DataType::S8: return 0x7F;
    default: return element_mask(t);  // U* rows and the ASL's all-ones word for every other type
  }
}

std::uint64_t pad_min(DataType t) {
  switch (t) {
    case DataType::FP64: return 0xFFEFFFFFFFFFFFFF;
    case DataType::FP32: return 0xFF7FFFFF;
    case DataType::TF32: return 0xFF7FE000;
    case DataType::HF32: return 0xFF7FF000;
    case DataType::FP16: return 0xFBFF;
    case DataType::BF16: return 0xFF7F;
    case DataType::E4M3: return 0xFE;
    case DataType::E5M2: return 0xFB;
    case DataType::S32: return 0x80000000;
    case DataType::S16: return 0x8000;
    case DataType::S8: return 0x80;
    case DataType::U64:
    case DataType::U32:
    case DataType::U16:
    case DataType::U8:
    case DataType::U4X2: return 0;
    // S64 and every type without a row: the ASL's 0x8000000000000000 word, truncated to the width.
    default: return std::uint64_t{0x8000000000000000} & element_mask(t);
  }
}

std::uint64_t max_finite(DataType t) {
  const FloatFormat* f = float_format(t);
  if (f != nullptr) return f->max_finite;
  return is_signed_integer(t) ? element_mask(t) >> 1 : element_mask(t);
}

std::uint64_t lowest_finite(DataType t) {
  const FloatFormat* f = float_format(t);
  if (f != nullptr) return f->kind == FormatKind::E8M0 ? 0 : max_finite_of(*f, true);
  return is_signed_integer(t) ? std::uint64_t{1} << (element_bits(t) - 1) : 0;
}

bool is_valid_encoding(DataType t, std::uint64_t bits) {
  switch (t) {
    case DataType::TF32: return (bits & 0x1FFF) == 0;
    case DataType::HF32: return (bits & 0xFFF) == 0;
    case DataType::E3M2:
    case DataType::E2M3: return (bits & 0xC0) == 0;
    default: return true;
  }
}

bool compare(DataType t, std::uint64_t a, std::uint64_t b, CompareMode mode, NumericFlags& flags) {
  const Decoded x = decode(t, a);
  const Decoded y = decode(t, b);
  if (x.is_nan() || y.is_nan()) {
    if (x.cls == ValueClass::SignalingNaN || y.cls == ValueClass::SignalingNaN) flags |= kFlagNV;
    return mode == CompareMode::NE;
  }
  int c = 0;
  if (float_format(t) != nullptr) {  // every floating value is exact in binary64
    const double vx = to_double(t, a);
    const double vy = to_double(t, b);
    c = vx < vy ? -1 : vx > vy ? 1 : 0;
  } else if (x.negative != y.negative) {  // integers: sign, then magnitude
    c = x.negative ? -1 : 1;
  } else if (x.significand != y.significand) {
    c = (x.significand < y.significand) != x.negative ? -1 : 1;
  }
  switch (mode) {
    case CompareMode::EQ: return c == 0;
    case CompareMode::NE: return c != 0;
    case CompareMode::LT: return c < 0;
    case CompareMode::GT: return c > 0;
    case CompareMode::LE: return c <= 0;
    case CompareMode::GE: return c >= 0;
  }
  return false;
}

bool is_subnormal(DataType t, std::uint64_t bits) {
  const FloatFormat* f = float_format(t);
  if (f == nullptr || f->kind == FormatKind::E8M0) return false;
  const Decoded d = decode(t, bits);
  if (d.cls != ValueClass::Finite) return false;
  if (f->kind == FormatKind::HiF8) return (bits & 0x7F) <= 7;
  return ((bits & f->payload) >> (f->frac_shift + f->frac_bits) & low_mask(f->exp_bits)) == 0;
}

bool is_nan(DataType t, std::uint64_t bits) { return float_format(t) != nullptr && decode(t, bits).is_nan(); }

bool is_signaling_nan(DataType t, std::uint64_t bits) {
  return float_format(t) != nullptr && decode(t, bits).cls == ValueClass::SignalingNaN;
}

double to_double(DataType t, std::uint64_t bits) {
  const Decoded d = decode(t, bits);
  double magnitude = 0;
  switch (d.cls) {
    case ValueClass::QuietNaN:
    case ValueClass::SignalingNaN: return std::numeric_limits<double>::quiet_NaN();
    case ValueClass::Infinity: magnitude = std::numeric_limits<double>::infinity(); break;
    case ValueClass::Zero: magnitude = 0; break;
    case ValueClass::Finite: magnitude = std::ldexp(static_cast<double>(d.significand), d.exponent); break;
  }
  return d.negative ? -magnitude : magnitude;
}

}  // namespace ptosim::model::numeric
