// SPDX-License-Identifier: BSD-3-Clause
// Expansions and broadcast arithmetic (asl expansion.asl ExecuteTileExpand): every valid
// destination element from (source[r,c], broadcast[r,0] or [0,c]); elements are independent and
// their flags are ORed.
#include <type_traits>

#include "model/numeric/typed_ops.h"
#include "model/sfu/sfu_host_float.h"
#include "model/sfu/sfu_kernels.h"

namespace ptosim::model::sfu_detail {

namespace {

enum class Arith : std::uint8_t { Copy, Add, Sub, Mul, Div, Max, Min, ExpDif };

Arith arith_of(Operation op) {
  switch (op) {
    case Operation::TROWEXPAND: case Operation::TCOLEXPAND: return Arith::Copy;
    case Operation::TROWEXPANDADD: case Operation::TCOLEXPANDADD: return Arith::Add;
    case Operation::TROWEXPANDSUB: case Operation::TCOLEXPANDSUB: return Arith::Sub;
    case Operation::TROWEXPANDMUL: case Operation::TCOLEXPANDMUL: return Arith::Mul;
    case Operation::TROWEXPANDDIV: case Operation::TCOLEXPANDDIV: return Arith::Div;
    case Operation::TROWEXPANDMAX: case Operation::TCOLEXPANDMAX: return Arith::Max;
    case Operation::TROWEXPANDMIN: case Operation::TCOLEXPANDMIN: return Arith::Min;
    default: return Arith::ExpDif;
  }
}

/// The operand tiles of one PE: the destination geometry and payloads; `src` is null for the copy
/// forms. Kernels take it by value, so that stores through the byte pointers cannot change loop
/// bounds (which would keep the loops from vectorizing).
struct Tiles {
  std::uint32_t valid_rows;
  std::uint32_t valid_cols;
  std::uint32_t cols;
  const std::uint8_t* src;
  const std::uint8_t* bcast;
  std::uint8_t* dst;
};

// The host path's arithmetic for broadcast ADD/SUB/MUL/DIV (sfu_host_float.h): FP32/FP64 in the
// host's own format; FP16, BF16 and TF32 ADD/SUB, and FP16 MUL/DIV, in binary32, rounded again to
// the format. apply() takes both lanes and the broadcast value, loaded once per row where it is
// one per row.
template <typename Float, Arith A>
struct HostExpandArith {
  using Lane = typename HostFloat<Float>::Bits;
  using Value = Float;
  static Value load(Lane v) { return host_value<Float>(v); }
  Lane apply(Lane x_lane, Lane, Value b) const {
    const Float x = load(x_lane);
    if constexpr (A == Arith::Add) return profile_bits(x + b);
    else if constexpr (A == Arith::Sub) return profile_bits(x - b);
    else if constexpr (A == Arith::Mul) return profile_bits(x * b);
    else return profile_bits(x / b);
  }
  NumericFlags flags() const { return 0; }
};
template <DataType T, Arith A>
struct NarrowExpandArith {
  using N = Narrow<T>;
  using Lane = typename N::Lane;
  using Value = float;
  static Value load(Lane v) { return N::to_binary32(v); }
  Lane apply(Lane x_lane, Lane b_lane, Value b) {
    const float x = load(x_lane);
    float r;
    if constexpr (A == Arith::Add) r = rounding.round(x + b);
    else if constexpr (A == Arith::Sub) r = rounding.round(x - b);
    else if constexpr (A == Arith::Mul) r = rounding.round_any(x * b, [] { return true; });
    else r = rounding.round_any(x / b, [&] { return NarrowRounding<T>::exact_quotient(x_lane, b_lane); });
    return N::from_binary32(host_bits(r));
  }
  NumericFlags flags() const { return rounding.flags(); }
  NarrowRounding<T> rounding;
};

// Broadcast arithmetic with host arithmetic: the flags from the host's sticky status over the
// whole kernel and what the arithmetic recorded.
template <typename HostArith>
NumericFlags host_expand(bool row, const Tiles t) {
  using Lane = typename HostArith::Lane;
  HostFlagScope scope;
  HostArith arith;
  for (std::uint32_t r = 0; r < t.valid_rows; ++r) {
    const std::size_t base = std::size_t{r} * t.cols;
    if (row) {
      const Lane b = lane_at<Lane>(t.bcast, r);
      const auto value = HostArith::load(b);
      for (std::uint32_t c = 0; c < t.valid_cols; ++c)
        set_lane<Lane>(t.dst, base + c, arith.apply(lane_at<Lane>(t.src, base + c), b, value));
    } else {
      for (std::uint32_t c = 0; c < t.valid_cols; ++c) {
        const Lane b = lane_at<Lane>(t.bcast, c);
        set_lane<Lane>(t.dst, base + c, arith.apply(lane_at<Lane>(t.src, base + c), b, HostArith::load(b)));
      }
    }
  }
  return scope.flags() | arith.flags();
}

template <DataType T>
struct ExpandKernel {
  using Ops = numeric::TypedOps<T>;
  using Lane = typename Ops::Lane;

  template <Arith A>
  static Lane apply(Lane x, Lane b, NumericFlags& f) {
    if constexpr (A == Arith::Copy) return b;  // bit copy: no conversion, no flags
    else if constexpr (A == Arith::Add) return Ops::add(x, b, f);
    else if constexpr (A == Arith::Sub) return Ops::sub(x, b, f);
    else if constexpr (A == Arith::Mul) return Ops::mul(x, b, f);
    else if constexpr (A == Arith::Div) return Ops::div(x, b, f);
    else if constexpr (A == Arith::Max) return Ops::max(x, b, f);
    else if constexpr (A == Arith::Min) return Ops::min(x, b, f);
    else return Ops::exp(Ops::sub(x, b, f), f);  // two typed stages, each rounded
  }

  template <Arith A>
  static NumericFlags go(bool row, const Tiles t) {
    constexpr bool kHostArith = A == Arith::Add || A == Arith::Sub || A == Arith::Mul || A == Arith::Div;
    if constexpr ((T == DataType::FP32 || T == DataType::FP64) && kHostArith) {
      if (host_float_enabled())
        return host_expand<HostExpandArith<std::conditional_t<T == DataType::FP32, float, double>, A>>(row, t);
    } else if constexpr ((T == DataType::FP16 || T == DataType::BF16 || T == DataType::TF32) &&
                         (A == Arith::Add || A == Arith::Sub || A == Arith::ExpDif ||
                          (T == DataType::FP16 && (A == Arith::Mul || A == Arith::Div)))) {
      if (host_float_enabled()) {
        if constexpr (A != Arith::ExpDif) return host_expand<NarrowExpandArith<T, A>>(row, t);
        // EXPDIF's two rounded stages: the differences on the host path, then e^x of each (outside
        // the host status the first stage reads).
        NumericFlags f = host_expand<NarrowExpandArith<T, Arith::Sub>>(row, t);
        for (std::uint32_t r = 0; r < t.valid_rows; ++r)
          for (std::size_t i = std::size_t{r} * t.cols, end = i + t.valid_cols; i < end; ++i)
            set_lane<Lane>(t.dst, i, Ops::exp(lane_at<Lane>(t.dst, i), f));
        return f;
      }
    }
    NumericFlags f = 0;
    for (std::uint32_t r = 0; r < t.valid_rows; ++r) {
      const std::size_t base = std::size_t{r} * t.cols;
      const Lane row_b = row ? lane_at<Lane>(t.bcast, r) : Lane{};
      for (std::uint32_t c = 0; c < t.valid_cols; ++c) {
        const Lane b = row ? row_b : lane_at<Lane>(t.bcast, c);
        const Lane x = A == Arith::Copy ? b : lane_at<Lane>(t.src, base + c);
        set_lane<Lane>(t.dst, base + c, apply<A>(x, b, f));
      }
    }
    return f;
  }

  static NumericFlags run(Arith a, bool row, const Tiles& t) {
    switch (a) {
      case Arith::Copy: return go<Arith::Copy>(row, t);
      case Arith::Add: return go<Arith::Add>(row, t);
      case Arith::Sub: return go<Arith::Sub>(row, t);
      case Arith::Mul: return go<Arith::Mul>(row, t);
      case Arith::Div: return go<Arith::Div>(row, t);
      case Arith::Max: return go<Arith::Max>(row, t);
      case Arith::Min: return go<Arith::Min>(row, t);
      default: return go<Arith::ExpDif>(row, t);
    }
  }
};

// asl expansion.asl ExactWidenFP16ToFP32 / ExactWidenBF16ToFP32: value-exact. An FP16 NaN becomes
// the canonical FP32 NaN, a signaling one raising NV (the hardware profile's signaling-input rule;
// the ASL raises nothing); a BF16 NaN keeps its bits, so a signaling one raises NV at the SUB.
std::uint32_t widen_fp16(std::uint16_t h, NumericFlags& f) {
  const std::uint32_t sign = std::uint32_t{h & 0x8000U} << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1F;
  std::uint32_t fraction = h & 0x3FF;
  if (exponent == 0x1F && fraction != 0) {
    if ((fraction & 0x200) == 0) f |= kFlagNV;
    return 0x7FC00000;
  }
  if (exponent == 0x1F) return sign | 0x7F800000;
  if (exponent != 0) return sign | ((exponent + 112) << 23) | (fraction << 13);
  if (fraction == 0) return sign;
  std::uint32_t e = 113;  // normalise a subnormal: value = fraction * 2^-24
  while ((fraction & 0x400) == 0) {
    fraction <<= 1;
    --e;
  }
  return sign | (e << 23) | ((fraction & 0x3FF) << 13);
}
std::uint32_t widen_bf16(std::uint16_t b) { return std::uint32_t{b} << 16; }

// EXPDIF FP16/BF16 -> FP32 (TileProfileMixedExpdifFP32): exact widening, then FP32 SUB and EXP.
NumericFlags mixed_expdif(bool fp16, bool row, const Tiles t) {
  using Ops = numeric::TypedOps<DataType::FP32>;
  NumericFlags f = 0;
  auto widen = [fp16, &f](std::uint16_t v) { return fp16 ? widen_fp16(v, f) : widen_bf16(v); };
  for (std::uint32_t r = 0; r < t.valid_rows; ++r) {
    const std::size_t base = std::size_t{r} * t.cols;
    for (std::uint32_t c = 0; c < t.valid_cols; ++c) {
      const std::uint32_t b = widen(lane_at<std::uint16_t>(t.bcast, row ? r : c));
      const std::uint32_t x = widen(lane_at<std::uint16_t>(t.src, base + c));
      set_lane<std::uint32_t>(t.dst, base + c, Ops::exp(Ops::sub(x, b, f), f));
    }
  }
  return f;
}

}  // namespace

NumericFlags execute_expansion(const ExecPlan& plan, const PePayloads& io) {
  const Arith a = arith_of(plan.op);
  const bool row = plan.op <= Operation::TROWARGMIN;
  const bool copy = a == Arith::Copy;
  // Sources: [full-shape source,] broadcast source; the full shape and the destination share Col.
  const TileDescriptor& d = plan.dests[0].desc;
  const Tiles t{d.valid_rows, d.valid_cols, d.cols, copy ? nullptr : io.sources[0], io.sources[copy ? 0 : 1],
                io.dests[0]};
  if (plan.sfu().dst_dtype != plan.dtype) return mixed_expdif(plan.dtype == DataType::FP16, row, t);
  return with_a16_type<ExpandKernel>(plan.dtype, a, row, t);
}

}  // namespace ptosim::model::sfu_detail
