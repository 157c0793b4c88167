// SPDX-License-Identifier: BSD-3-Clause
// Compile-time-typed fast paths, bit- and flag-identical to the exact path (exact_ops.h).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>

#include "model/numeric/data_type.h"
#include "model/numeric/exact_ops.h"
#include "model/numeric/flags.h"
#include "model/numeric/wide_int.h"

/// Usage in a tight loop (one type per tile, flags ORed per element):
/// \code
///   using Ops = TypedOps<DataType::FP32>;
///   for (std::size_t i = 0; i < n; ++i) out[i] = Ops::add(a[i], b[i], flags);
/// \endcode
/// Contract: as scalar_ops.h with round-to-nearest-even; lanes hold the raw encoding (4-bit types
/// use the low nibble of a std::uint8_t; higher bits are ignored). Every fast path handles the
/// common finite case and defers special operands, overflow and underflow to the exact path.
/// The host must run with the default floating-point environment (round-to-nearest, no FTZ/DAZ).
namespace ptosim::model::numeric {

template <DataType T>
struct TypedOps;

namespace typed_detail {

constexpr unsigned lane_bits(DataType t) {
  switch (t) {
    case DataType::FP64: case DataType::S64: case DataType::U64: return 64;
    case DataType::FP32: case DataType::TF32: case DataType::HF32: case DataType::S32: case DataType::U32: return 32;
    case DataType::FP16: case DataType::BF16: case DataType::S16: case DataType::U16: return 16;
    case DataType::E2M1X2: case DataType::E1M2X2: case DataType::HiF4X2: case DataType::S4X2: case DataType::U4X2:
      return 4;
    default: return 8;
  }
}

template <unsigned Bits>
using LaneOf = std::conditional_t<
    Bits == 64, std::uint64_t,
    std::conditional_t<Bits == 32, std::uint32_t, std::conditional_t<Bits == 16, std::uint16_t, std::uint8_t>>>;

template <DataType T>
using Lane = LaneOf<lane_bits(T)>;

template <DataType T>
constexpr std::uint64_t kLaneMask = lane_bits(T) == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << lane_bits(T)) - 1;

inline double as_double(std::uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}
inline std::uint64_t bits_of(double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}
inline float as_float(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}
inline std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// ---------------------------------------------------------------------------------------------
// Integers: wrap at the lane width.
template <DataType T>
struct IntegerOps {
  using Lane = typed_detail::Lane<T>;
  static constexpr unsigned kBits = lane_bits(T);
  static constexpr std::uint64_t kMask = kLaneMask<T>;
  static constexpr bool kSigned = T == DataType::S64 || T == DataType::S32 || T == DataType::S16 ||
                                  T == DataType::S8 || T == DataType::S4X2;

  static std::int64_t value(Lane a) {
    return kSigned ? static_cast<std::int64_t>(std::uint64_t{a} << (64 - kBits)) >> (64 - kBits)
                   : static_cast<std::int64_t>(a & kMask);
  }
  static bool less(Lane a, Lane b) {
    return kSigned ? value(a) < value(b) : (std::uint64_t{a} & kMask) < (std::uint64_t{b} & kMask);
  }
  static Lane add(Lane a, Lane b, NumericFlags&) { return static_cast<Lane>((std::uint64_t{a} + b) & kMask); }
  static Lane sub(Lane a, Lane b, NumericFlags&) { return static_cast<Lane>((std::uint64_t{a} - b) & kMask); }
  static Lane mul(Lane a, Lane b, NumericFlags&) { return static_cast<Lane>((std::uint64_t{a} * b) & kMask); }
  static Lane div(Lane a, Lane b, NumericFlags& f) {
    const std::uint64_t ua = a & kMask;
    const std::uint64_t ub = b & kMask;
    if (ub == 0) {
      f |= kFlagDZ;
      return static_cast<Lane>(kMask);
    }
    if (!kSigned) return static_cast<Lane>(ua / ub);
    if (value(b) == -1) return static_cast<Lane>((0 - ua) & kMask);
    return static_cast<Lane>(static_cast<std::uint64_t>(value(a) / value(b)) & kMask);
  }
  static Lane max(Lane a, Lane b, NumericFlags&) { return static_cast<Lane>((less(a, b) ? b : a) & kMask); }
  static Lane min(Lane a, Lane b, NumericFlags&) { return static_cast<Lane>((less(b, a) ? b : a) & kMask); }
  static Lane exp(Lane a, NumericFlags& f) { return static_cast<Lane>(exact::exp(T, a, f)); }
};

// ---------------------------------------------------------------------------------------------
// Every operand pair of an 8-bit or 4-bit type, computed once by the exact path.
enum class TableOp : std::uint8_t { Add, Sub, Mul, Div, Max, Min, Exp };
/// Entry = result | flags << 8, index (a << 8 | b) for 8-bit types and (a << 4 | b) for 4-bit
/// lanes; Exp tables are indexed by a alone.
std::unique_ptr<std::uint16_t[]> build_table(DataType t, TableOp op);

template <DataType T, TableOp Op>
inline const std::uint16_t* table() {
  static const std::unique_ptr<std::uint16_t[]> t = build_table(T, Op);
  return t.get();
}

template <DataType T>
struct TableOps {
  using Lane = std::uint8_t;
  static constexpr unsigned kShift = lane_bits(T);
  static constexpr unsigned kMask = lane_bits(T) == 4 ? 0xF : 0xFF;

  template <TableOp Op>
  static Lane binary(Lane a, Lane b, NumericFlags& f) {
    const std::uint16_t e = table<T, Op>()[((a & kMask) << kShift) | (b & kMask)];
    f |= static_cast<NumericFlags>(e >> 8);
    return static_cast<Lane>(e);
  }
  static Lane add(Lane a, Lane b, NumericFlags& f) { return binary<TableOp::Add>(a, b, f); }
  static Lane sub(Lane a, Lane b, NumericFlags& f) { return binary<TableOp::Sub>(a, b, f); }
  static Lane mul(Lane a, Lane b, NumericFlags& f) { return binary<TableOp::Mul>(a, b, f); }
  static Lane div(Lane a, Lane b, NumericFlags& f) { return binary<TableOp::Div>(a, b, f); }
  static Lane max(Lane a, Lane b, NumericFlags& f) { return binary<TableOp::Max>(a, b, f); }
  static Lane min(Lane a, Lane b, NumericFlags& f) { return binary<TableOp::Min>(a, b, f); }
  static Lane exp(Lane a, NumericFlags& f) {
    const std::uint16_t e = table<T, TableOp::Exp>()[a & kMask];
    f |= static_cast<NumericFlags>(e >> 8);
    return static_cast<Lane>(e);
  }
};

// ---------------------------------------------------------------------------------------------
// Monotonic-key MIN/MAX for the binary formats with NaN (numerics.md §6).
template <DataType T, unsigned SignBit, std::uint64_t Payload, unsigned ExpShift, std::uint64_t ExpMask,
          std::uint64_t QuietBit, std::uint64_t CanonicalNaN>
struct KeyMinMax {
  using Lane = typed_detail::Lane<T>;
  static constexpr std::uint64_t kSign = std::uint64_t{1} << SignBit;
  static constexpr std::uint64_t kAbs = Payload & ~kSign;
  static constexpr std::uint64_t kExp = ExpMask << ExpShift;
  static bool nan(std::uint64_t v) { return (v & kExp) == kExp && (v & kAbs & ~kExp) != 0; }
  static bool snan(std::uint64_t v) { return nan(v) && (v & QuietBit) == 0; }
  static std::uint64_t key(std::uint64_t v) { return (v & kSign) != 0 ? ~v & Payload : v | kSign; }
  template <bool IsMax>
  static Lane select(Lane a, Lane b, NumericFlags& f) {
    const std::uint64_t pa = a & Payload;
    const std::uint64_t pb = b & Payload;
    if (nan(pa) || nan(pb)) {
      if (snan(pa) || snan(pb)) f |= kFlagNV;
      if (nan(pa) && nan(pb)) return static_cast<Lane>(CanonicalNaN);
      return nan(pa) ? b : a;
    }
    if ((pa & kAbs) == 0 && (pb & kAbs) == 0) {  // both zeros
      if (IsMax) return (pa & pb & kSign) != 0 ? a : Lane{0};
      return (pa & kSign) != 0 ? a : (pb & kSign) != 0 ? b : Lane{0};
    }
    if (IsMax) return key(pa) >= key(pb) ? a : b;
    return key(pa) <= key(pb) ? a : b;
  }
};

// ---------------------------------------------------------------------------------------------
// FP16, BF16, TF32, HF32: binary64 arithmetic and one software rounding. Exactness of the binary64
// step is derived per op: sums and products of these formats are exact or TwoSum-checked, a
// quotient q is exact when q * b == a. Rounding a binary64 result again to p <= 24 bits gives the
// correctly rounded result (53 >= 2p + 2), and tininess of the unbounded rounding carries over.
template <DataType T, unsigned FracBits, int Emin, unsigned FracShift, unsigned SignBit, std::uint64_t MaxMag,
          std::uint64_t InfMag>
struct SoftRound {
  using Lane = typed_detail::Lane<T>;

  static Lane round(double s, bool s_inexact, NumericFlags& flags) {
    const std::uint64_t u = bits_of(s);
    const std::uint64_t sign = (u >> 63) << SignBit;
    const std::uint64_t a = u & ~(std::uint64_t{1} << 63);
    if (a == 0) return static_cast<Lane>(sign);  // exact zero (s is never a binary64 subnormal here)
    const int e = static_cast<int>(a >> 52) - 1023;
    const std::uint64_t m = (a & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{1} << 52);
    const int e_eff = e > Emin ? e : Emin;
    int sh = 52 - static_cast<int>(FracBits) + (e_eff - e);
    if (sh > 63) sh = 63;
    std::uint64_t t = m >> sh;
    const std::uint64_t rem = m & ((std::uint64_t{1} << sh) - 1);
    const std::uint64_t half = std::uint64_t{1} << (sh - 1);
    // Branch-free round-to-nearest-even: on data the up/down decision is a coin flip, and a
    // mispredicted branch would cost more than the whole rounding.
    t += static_cast<std::uint64_t>((rem > half) | ((rem == half) & ((t & 1) != 0)));
    const std::uint64_t mag = (static_cast<std::uint64_t>(e_eff - Emin) << FracBits) + t;
    if (mag > MaxMag) {
      flags |= kFlagOF | kFlagNX;
      return static_cast<Lane>(sign | (InfMag << FracShift));
    }
    const bool inexact = rem != 0 || s_inexact;
    flags |= static_cast<NumericFlags>(inexact ? kFlagNX : 0);  // branch-free: exactness is data-dependent
    if (inexact && e < Emin) {
      bool tiny = true;
      if (e == Emin - 1) {  // does the unbounded rounding reach 2^Emin?
        const int sh2 = 52 - static_cast<int>(FracBits);
        const std::uint64_t t2 = m >> sh2;
        const std::uint64_t rem2 = m & ((std::uint64_t{1} << sh2) - 1);
        const std::uint64_t half2 = std::uint64_t{1} << (sh2 - 1);
        const bool up2 = rem2 > half2 || (rem2 == half2 && (t2 & 1) != 0);
        tiny = t2 + (up2 ? 1 : 0) != (std::uint64_t{1} << (FracBits + 1));
      }
      if (tiny) flags |= kFlagUF;
    }
    return static_cast<Lane>(sign | (mag << FracShift));
  }
};

template <DataType T>
struct SoftFloatTraits;
template <>
struct SoftFloatTraits<DataType::FP16> {
  static constexpr unsigned kFrac = 10, kShift = 0, kSign = 15, kExpShift = 10;
  static constexpr int kEmin = -14;
  static constexpr std::uint64_t kPayload = 0xFFFF, kExpMask = 0x1F, kMaxMag = 0x7BFF, kInfMag = 0x7C00,
                                 kQuiet = 0x200, kNaN = 0x7E00;
  static constexpr bool kExactSum = true;  // |a + b| < 2^17 on a 2^-24 grid: exact in binary64
  static bool special(std::uint64_t v) { return (v & 0x7C00) == 0x7C00; }
  static double to_double(std::uint64_t v) {
    const std::uint64_t e = (v >> 10) & 0x1F;
    const std::uint64_t m = v & 0x3FF;
    const double mag = e == 0 ? static_cast<double>(m) * 0x1p-24
                              : as_double(((e + 1008) << 52) | (m << 42));  // rebias 15 -> 1023
    return (v & 0x8000) != 0 ? -mag : mag;
  }
};
// BF16, TF32, HF32 are FP32 bit patterns with fewer fraction bits.
template <unsigned Frac, unsigned Shift, std::uint64_t Payload, unsigned Sign, std::uint64_t NaN>
struct Fp32LikeTraits {
  static constexpr unsigned kFrac = Frac, kShift = Shift, kSign = Sign, kExpShift = Sign - 8;
  static constexpr int kEmin = -126;
  static constexpr std::uint64_t kPayload = Payload, kExpMask = 0xFF,
                                 kMaxMag = ((std::uint64_t{254} << Frac) | ((std::uint64_t{1} << Frac) - 1)),
                                 kInfMag = std::uint64_t{255} << Frac, kQuiet = std::uint64_t{1} << (Sign - 9),
                                 kNaN = NaN;
  static constexpr bool kExactSum = false;
  static bool special(std::uint64_t v) { return ((v >> (Sign - 8)) & 0xFF) == 0xFF; }
  static double to_double(std::uint64_t v) {
    return static_cast<double>(as_float(static_cast<std::uint32_t>((v & Payload) << (31 - Sign))));
  }
};
template <>
struct SoftFloatTraits<DataType::BF16> : Fp32LikeTraits<7, 0, 0xFFFF, 15, 0x7FC0> {};
template <>
struct SoftFloatTraits<DataType::TF32> : Fp32LikeTraits<10, 13, 0xFFFFE000, 31, 0x7FC00000> {};
template <>
struct SoftFloatTraits<DataType::HF32> : Fp32LikeTraits<11, 12, 0xFFFFF000, 31, 0x7FC00000> {};

/// e^x of every FP16 or BF16 encoding (entry = result | flags << 16), computed once by the paths
/// below on first use (about 2 ms): softmax-like work takes e^x of every element, and a lookup
/// costs a fraction of the computation.
std::unique_ptr<std::uint32_t[]> build_exp_table(DataType t);
template <DataType T>
inline const std::uint32_t* exp_table() {
  static const std::unique_ptr<std::uint32_t[]> t = build_exp_table(T);
  return t.get();
}

/// e^x rounded to FP32 from the binary64 enclosure when x != 0 and the result is a normal FP32
/// number (only NX applies); false when that does not hold or the rounding test cannot decide.
bool exp_fast_fp32(double x, std::uint32_t& bits);
/// The same for FP16, BF16, TF32 and HF32 (flags ORed on success).
bool exp_fast_soft(DataType t, double x, std::uint64_t& bits, NumericFlags& flags);

template <DataType T>
struct SoftFloatOps {
  using Tr = SoftFloatTraits<T>;
  using Lane = typed_detail::Lane<T>;
  using R = SoftRound<T, Tr::kFrac, Tr::kEmin, Tr::kShift, Tr::kSign, Tr::kMaxMag, Tr::kInfMag>;
  using MM = KeyMinMax<T, Tr::kSign, Tr::kPayload, Tr::kExpShift, Tr::kExpMask, Tr::kQuiet, Tr::kNaN>;

  static Lane add(Lane a, Lane b, NumericFlags& f) {
    if (Tr::special(a) || Tr::special(b)) return static_cast<Lane>(exact::add(T, a, b, RoundingMode::RNE, f));
    return sum(Tr::to_double(a), Tr::to_double(b), f);
  }
  static Lane sub(Lane a, Lane b, NumericFlags& f) {
    if (Tr::special(a) || Tr::special(b)) return static_cast<Lane>(exact::sub(T, a, b, RoundingMode::RNE, f));
    return sum(Tr::to_double(a), -Tr::to_double(b), f);
  }
  static Lane mul(Lane a, Lane b, NumericFlags& f) {
    if (Tr::special(a) || Tr::special(b)) return static_cast<Lane>(exact::mul(T, a, b, RoundingMode::RNE, f));
    return R::round(Tr::to_double(a) * Tr::to_double(b), false, f);  // <= 24-bit product: exact
  }
  static Lane div(Lane a, Lane b, NumericFlags& f) {
    const double db = Tr::to_double(b);
    if (Tr::special(a) || Tr::special(b) || db == 0)
      return static_cast<Lane>(exact::div(T, a, b, RoundingMode::RNE, f));
    const double da = Tr::to_double(a);
    const double q = da / db;
    // Only consulted when q rounds exactly, and then q has <= 12 bits, so q * db is exact.
    return R::round(q, q * db != da, f);
  }
  static Lane max(Lane a, Lane b, NumericFlags& f) { return MM::template select<true>(a, b, f); }
  static Lane min(Lane a, Lane b, NumericFlags& f) { return MM::template select<false>(a, b, f); }
  static Lane exp(Lane a, NumericFlags& f) {
    if constexpr (lane_bits(T) == 16) {
      const std::uint32_t e = exp_table<T>()[a];
      f |= static_cast<NumericFlags>(e >> 16);
      return static_cast<Lane>(e);
    } else {
      return computed_exp(a, f);
    }
  }
  /// e^x from the binary64 enclosure, or the exact path where it cannot decide.
  static Lane computed_exp(Lane a, NumericFlags& f) {
    std::uint64_t bits = 0;
    if (!Tr::special(a) && exp_fast_soft(T, Tr::to_double(a), bits, f)) return static_cast<Lane>(bits);
    return static_cast<Lane>(exact::exp(T, a, f));
  }

 private:
  static Lane sum(double da, double db, NumericFlags& f) {
    const double s = da + db;
    if (Tr::kExactSum) return R::round(s, false, f);
    const double bb = s - da;
    return R::round(s, ((da - (s - bb)) + (db - bb)) != 0, f);
  }
};

// ---------------------------------------------------------------------------------------------
// FP32: binary64 arithmetic, one host conversion to binary32 (round-to-nearest-even), and the
// flags derived from exactness checks instead of the host's sticky status.
struct Fp32Ops {
  using Lane = std::uint32_t;
  using MM = KeyMinMax<DataType::FP32, 31, 0xFFFFFFFF, 23, 0xFF, 0x400000, 0x7FC00000>;

  static bool special(std::uint32_t v) { return (v & 0x7F800000) == 0x7F800000; }
  static Lane finish(double s, bool s_inexact, NumericFlags& f) {
    const float r = static_cast<float>(s);
    const std::uint32_t bits = bits_of(r);
    const bool inexact = static_cast<double>(r) != s || s_inexact;
    f |= static_cast<NumericFlags>(inexact ? kFlagNX : 0);  // branch-free: exactness is data-dependent
    const std::uint32_t mag = bits & 0x7FFFFFFF;
    if (inexact && (mag >= 0x7F800000 || mag <= 0x00800000)) {
      if (mag == 0x7F800000) f |= kFlagOF;
      else if (mag < 0x00800000 || (std::fabs(s) < 0x1p-126 && std::fabs(static_cast<float>(s * 0x1p64)) < 0x1p-62f))
        f |= kFlagUF;  // tiny after rounding: the unbounded 24-bit rounding stays below 2^-126
    }
    return bits;
  }
  static Lane add(Lane a, Lane b, NumericFlags& f) {
    if (special(a) || special(b)) return static_cast<Lane>(exact::add(DataType::FP32, a, b, RoundingMode::RNE, f));
    return sum(as_float(a), as_float(b), f);
  }
  static Lane sub(Lane a, Lane b, NumericFlags& f) {
    if (special(a) || special(b)) return static_cast<Lane>(exact::sub(DataType::FP32, a, b, RoundingMode::RNE, f));
    return sum(as_float(a), -static_cast<double>(as_float(b)), f);
  }
  static Lane mul(Lane a, Lane b, NumericFlags& f) {
    if (special(a) || special(b)) return static_cast<Lane>(exact::mul(DataType::FP32, a, b, RoundingMode::RNE, f));
    const double p = static_cast<double>(as_float(a)) * as_float(b);  // 48-bit product: exact
    if (p == 0) return bits_of(static_cast<float>(p));
    return finish(p, false, f);
  }
  static Lane div(Lane a, Lane b, NumericFlags& f) {
    const double db = as_float(b);
    if (special(a) || special(b) || db == 0)
      return static_cast<Lane>(exact::div(DataType::FP32, a, b, RoundingMode::RNE, f));
    const double da = as_float(a);
    const double q = da / db;
    if (q == 0) return bits_of(static_cast<float>(q));
    return finish(q, q * db != da, f);  // the product is exact whenever it is consulted
  }
  static Lane max(Lane a, Lane b, NumericFlags& f) { return MM::select<true>(a, b, f); }
  static Lane min(Lane a, Lane b, NumericFlags& f) { return MM::select<false>(a, b, f); }
  static Lane exp(Lane a, NumericFlags& f) {
    std::uint32_t bits = 0;
    if (!special(a) && exp_fast_fp32(as_float(a), bits)) {
      f |= kFlagNX;
      return bits;
    }
    return static_cast<Lane>(exact::exp(DataType::FP32, a, f));
  }

 private:
  static Lane sum(double da, double db, NumericFlags& f) {
    const double s = da + db;
    if (s == 0) return bits_of(static_cast<float>(s));  // exact cancellation: +0 (or -0 + -0)
    const double bb = s - da;
    return finish(s, ((da - (s - bb)) + (db - bb)) != 0, f);
  }
};

// ---------------------------------------------------------------------------------------------
// FP64: host arithmetic; exactness from TwoSum or from the integer significands. Products and
// quotients that overflow or are at most the smallest normal (possibly tiny) go to the exact path;
// the host's status flags are never consulted.
struct Fp64Ops {
  using Lane = std::uint64_t;
  using MM = KeyMinMax<DataType::FP64, 63, ~std::uint64_t{0}, 52, 0x7FF, std::uint64_t{1} << 51,
                       0x7FF8000000000000>;

  static bool special(std::uint64_t v) { return (v & 0x7FF0000000000000) == 0x7FF0000000000000; }
  static std::uint64_t significand(std::uint64_t v) {
    const std::uint64_t m = v & 0x000FFFFFFFFFFFFF;
    return (v & 0x7FF0000000000000) == 0 ? m : m | 0x0010000000000000;
  }
  static Lane add(Lane a, Lane b, NumericFlags& f) { return sum(a, b, false, f); }
  static Lane sub(Lane a, Lane b, NumericFlags& f) { return sum(a, b, true, f); }
  static Lane mul(Lane a, Lane b, NumericFlags& f) {
    const double da = as_double(a);
    const double db = as_double(b);
    if (special(a) || special(b)) return exact::mul(DataType::FP64, a, b, RoundingMode::RNE, f);
    const double p = da * db;
    if (da == 0 || db == 0) return bits_of(p);
    if (std::fabs(p) <= 0x1p-1022 || std::isinf(p)) return exact::mul(DataType::FP64, a, b, RoundingMode::RNE, f);
    const u128 prod = static_cast<u128>(significand(a)) * significand(b);
    if (bit_length(prod) - trailing_zeros(prod) > 53) f |= kFlagNX;
    return bits_of(p);
  }
  static Lane div(Lane a, Lane b, NumericFlags& f) {
    const double da = as_double(a);
    const double db = as_double(b);
    if (special(a) || special(b) || db == 0) return exact::div(DataType::FP64, a, b, RoundingMode::RNE, f);
    const double q = da / db;
    if (da == 0) return bits_of(q);
    if (std::fabs(q) <= 0x1p-1022 || std::isinf(q)) return exact::div(DataType::FP64, a, b, RoundingMode::RNE, f);
    // A normal quotient is exact iff the odd part of b's significand divides a's.
    const std::uint64_t ma = significand(a);
    const std::uint64_t mb = significand(b);
    if ((ma >> trailing_zeros(ma)) % (mb >> trailing_zeros(mb)) != 0) f |= kFlagNX;
    return bits_of(q);
  }
  static Lane max(Lane a, Lane b, NumericFlags& f) { return MM::select<true>(a, b, f); }
  static Lane min(Lane a, Lane b, NumericFlags& f) { return MM::select<false>(a, b, f); }
  /// The exact engine starts at double-double for binary64 precision.
  static Lane exp(Lane a, NumericFlags& f) { return exact::exp(DataType::FP64, a, f); }

 private:
  static Lane sum(Lane a, Lane b, bool negate_b, NumericFlags& f) {
    if (special(a) || special(b))
      return negate_b ? exact::sub(DataType::FP64, a, b, RoundingMode::RNE, f)
                      : exact::add(DataType::FP64, a, b, RoundingMode::RNE, f);
    const double da = as_double(a);
    const double db = negate_b ? -as_double(b) : as_double(b);
    const double s = da + db;
    if (std::isinf(s)) return exact::add(DataType::FP64, a, bits_of(db), RoundingMode::RNE, f);
    // A tiny sum of binary64 values is always exact, so no UF can arise here.
    const double bb = s - da;
    if (((da - (s - bb)) + (db - bb)) != 0) f |= kFlagNX;
    return bits_of(s);
  }
};

}  // namespace typed_detail

template <> struct TypedOps<DataType::FP64> : typed_detail::Fp64Ops {};
template <> struct TypedOps<DataType::FP32> : typed_detail::Fp32Ops {};
template <> struct TypedOps<DataType::TF32> : typed_detail::SoftFloatOps<DataType::TF32> {};
template <> struct TypedOps<DataType::HF32> : typed_detail::SoftFloatOps<DataType::HF32> {};
template <> struct TypedOps<DataType::FP16> : typed_detail::SoftFloatOps<DataType::FP16> {};
template <> struct TypedOps<DataType::BF16> : typed_detail::SoftFloatOps<DataType::BF16> {};
template <> struct TypedOps<DataType::HiF8> : typed_detail::TableOps<DataType::HiF8> {};
template <> struct TypedOps<DataType::E4M3> : typed_detail::TableOps<DataType::E4M3> {};
template <> struct TypedOps<DataType::E5M2> : typed_detail::TableOps<DataType::E5M2> {};
template <> struct TypedOps<DataType::E3M2> : typed_detail::TableOps<DataType::E3M2> {};
template <> struct TypedOps<DataType::E2M3> : typed_detail::TableOps<DataType::E2M3> {};
template <> struct TypedOps<DataType::E2M1X2> : typed_detail::TableOps<DataType::E2M1X2> {};
template <> struct TypedOps<DataType::E1M2X2> : typed_detail::TableOps<DataType::E1M2X2> {};
template <> struct TypedOps<DataType::E8M0> : typed_detail::TableOps<DataType::E8M0> {};
template <> struct TypedOps<DataType::HiF4X2> : typed_detail::TableOps<DataType::HiF4X2> {};
template <> struct TypedOps<DataType::S64> : typed_detail::IntegerOps<DataType::S64> {};
template <> struct TypedOps<DataType::S32> : typed_detail::IntegerOps<DataType::S32> {};
template <> struct TypedOps<DataType::S16> : typed_detail::IntegerOps<DataType::S16> {};
template <> struct TypedOps<DataType::S8> : typed_detail::IntegerOps<DataType::S8> {};
template <> struct TypedOps<DataType::S4X2> : typed_detail::IntegerOps<DataType::S4X2> {};
template <> struct TypedOps<DataType::U64> : typed_detail::IntegerOps<DataType::U64> {};
template <> struct TypedOps<DataType::U32> : typed_detail::IntegerOps<DataType::U32> {};
template <> struct TypedOps<DataType::U16> : typed_detail::IntegerOps<DataType::U16> {};
template <> struct TypedOps<DataType::U8> : typed_detail::IntegerOps<DataType::U8> {};
template <> struct TypedOps<DataType::U4X2> : typed_detail::IntegerOps<DataType::U4X2> {};

}  // namespace ptosim::model::numeric
