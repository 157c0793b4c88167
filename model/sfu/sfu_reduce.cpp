// SPDX-License-Identifier: BSD-3-Clause
// Row and column reductions and ARG: one strictly sequential left fold per output lane in the
// architectural order (asl reduction.asl ExecuteTileReduction). Speed comes from running several
// independent folds side by side (rows in groups, columns as a vector of accumulators), never
// from reordering one fold.
#include <type_traits>
#include <vector>

#include "model/numeric/scalar_ops.h"
#include "model/numeric/typed_ops.h"
#include "model/sfu/sfu_host_float.h"
#include "model/sfu/sfu_kernels.h"

namespace ptosim::model::sfu_detail {

namespace {

enum class Fold : std::uint8_t { Sum, Prod, Max, Min, ArgMax, ArgMin };

Fold fold_of(Operation op) {
  switch (op) {
    case Operation::TROWSUM: case Operation::TCOLSUM: return Fold::Sum;
    case Operation::TROWPROD: case Operation::TCOLPROD: return Fold::Prod;
    case Operation::TROWMAX: case Operation::TCOLMAX: return Fold::Max;
    case Operation::TROWMIN: case Operation::TCOLMIN: return Fold::Min;
    case Operation::TROWARGMAX: case Operation::TCOLARGMAX: return Fold::ArgMax;
    default: return Fold::ArgMin;
  }
}

constexpr bool is_integer_type(DataType t) {
  return t == DataType::S64 || t == DataType::S32 || t == DataType::S16 || t == DataType::S8 || t == DataType::U64 ||
         t == DataType::U32 || t == DataType::U16 || t == DataType::U8;
}

/// Rows folded side by side: enough independent chains to hide the latency of one step.
constexpr std::uint32_t kRowGroup = 8;

template <DataType T, Fold F>
struct Folder {
  using Ops = numeric::TypedOps<T>;
  using Lane = typename Ops::Lane;
  /// SUM and PROD start from the identity and fold every element; MIN/MAX/ARG start from
  /// element 0, taken unevaluated, and fold the rest (TileReductionInitialValue).
  static constexpr bool kIdentity = F == Fold::Sum || F == Fold::Prod;
  static constexpr bool kArg = F == Fold::ArgMax || F == Fold::ArgMin;

  // Integer SUM/PROD wrap at the element width: plain unsigned lane arithmetic (at least 32 bits
  // wide, so that nothing promotes to a signed int) is that, and it vectorizes.
  static constexpr bool kLaneArith = is_integer_type(T) && (F == Fold::Sum || F == Fold::Prod);
  using Wide = std::conditional_t<(sizeof(Lane) < 4), std::uint32_t, Lane>;

  static Lane step(Lane acc, Lane v, NumericFlags& f) {
    if constexpr (kLaneArith && F == Fold::Sum) return static_cast<Lane>(static_cast<Wide>(acc) + static_cast<Wide>(v));
    else if constexpr (kLaneArith) return static_cast<Lane>(static_cast<Wide>(acc) * static_cast<Wide>(v));
    else if constexpr (F == Fold::Sum) return Ops::add(acc, v, f);
    else if constexpr (F == Fold::Prod) return Ops::mul(acc, v, f);
    else if constexpr (F == Fold::Max || F == Fold::ArgMax) return Ops::max(acc, v, f);
    else return Ops::min(acc, v, f);
  }
  static Lane identity() {
    return static_cast<Lane>(F == Fold::Prod ? numeric::one(T) : numeric::zero(T));
  }

  /// Rows r0 .. r0+G-1 (G a compile-time count), each a fold over columns 0..vc-1.
  template <std::uint32_t G>
  static void row_group(const std::uint8_t* src, std::uint32_t r0, std::uint32_t vc, std::uint32_t cols,
                        std::uint8_t* dst, NumericFlags& f) {
    Lane acc[G];
    std::uint32_t index[G] = {};
    const std::uint8_t* row[G];
    for (std::uint32_t k = 0; k < G; ++k) {
      row[k] = src + std::size_t{r0 + k} * cols * sizeof(Lane);
      acc[k] = kIdentity ? identity() : lane_at<Lane>(row[k], 0);
    }
    for (std::uint32_t c = kIdentity ? 0 : 1; c < vc; ++c)
      for (std::uint32_t k = 0; k < G; ++k) {
        const Lane v = lane_at<Lane>(row[k], c);
        const Lane next = step(acc[k], v, f);
        // TileReductionStepWithFlags: the index follows a step that selected the new element.
        if constexpr (kArg) index[k] = next == v && next != acc[k] ? c : index[k];
        acc[k] = next;
      }
    for (std::uint32_t k = 0; k < G; ++k) {
      if constexpr (kArg) set_lane<std::uint32_t>(dst, r0 + k, index[k]);
      else set_lane<Lane>(dst, r0 + k, acc[k]);
    }
  }

  static NumericFlags rows(const std::uint8_t* src, std::uint32_t vr, std::uint32_t vc, std::uint32_t cols,
                           std::uint8_t* dst) {
    NumericFlags f = 0;
    std::uint32_t r = 0;
    for (; r + kRowGroup <= vr; r += kRowGroup) row_group<kRowGroup>(src, r, vc, cols, dst, f);
    for (; r < vr; ++r) row_group<1>(src, r, vc, cols, dst, f);
    return f;
  }

  static NumericFlags columns(const std::uint8_t* src, std::uint32_t vr, std::uint32_t vc, std::uint32_t cols,
                              std::uint8_t* dst) {
    NumericFlags f = 0;
    std::vector<Lane> acc(vc);
    std::vector<std::uint32_t> index(kArg ? vc : 0);
    for (std::uint32_t c = 0; c < vc; ++c) acc[c] = kIdentity ? identity() : lane_at<Lane>(src, c);
    for (std::uint32_t r = kIdentity ? 0 : 1; r < vr; ++r) {
      const std::uint8_t* row = src + std::size_t{r} * cols * sizeof(Lane);
      for (std::uint32_t c = 0; c < vc; ++c) {
        const Lane v = lane_at<Lane>(row, c);
        const Lane next = step(acc[c], v, f);
        if constexpr (kArg) index[c] = next == v && next != acc[c] ? r : index[c];
        acc[c] = next;
      }
    }
    for (std::uint32_t c = 0; c < vc; ++c) {
      if constexpr (kArg) set_lane<std::uint32_t>(dst, c, index[c]);
      else set_lane<Lane>(dst, c, acc[c]);
    }
    return f;
  }
};

// The host path's arithmetic (sfu_host_float.h): FP32/FP64 SUM and PROD in the host's own
// format; FP16, BF16 and TF32 SUM, and FP16 PROD, in binary32, each step rounded again to the
// format.
template <typename Float, Fold F>
struct HostArith {
  using Lane = typename HostFloat<Float>::Bits;
  using Acc = Float;
  static constexpr Acc kIdentity = F == Fold::Sum ? Float(0) : Float(1);
  static Acc load(Lane v) { return host_value<Float>(v); }
  static Lane store(Acc a) { return profile_bits(a); }
  Acc step(Acc acc, Acc v) const { return F == Fold::Sum ? acc + v : acc * v; }
  NumericFlags flags() const { return 0; }
};
template <DataType T, Fold F>
struct NarrowArith {
  using Lane = typename Narrow<T>::Lane;
  using Acc = float;
  static constexpr Acc kIdentity = F == Fold::Sum ? 0.0f : 1.0f;
  static Acc load(Lane v) { return Narrow<T>::to_binary32(v); }
  static Lane store(Acc a) { return Narrow<T>::from_binary32(host_bits(a)); }
  Acc step(Acc acc, Acc v) {
    if constexpr (F == Fold::Sum) return rounding.round(acc + v);
    else return rounding.round_any(acc * v, [] { return true; });  // FP16 products are exact in binary32
  }
  NumericFlags flags() const { return rounding.flags(); }
  NarrowRounding<T> rounding;
};

// The same folds with host arithmetic: the flags from the host's sticky status over the whole
// kernel and what the arithmetic recorded, NaN results made canonical.
template <typename Arith>
struct HostFolder {
  using Lane = typename Arith::Lane;
  using Acc = typename Arith::Acc;

  template <std::uint32_t G>
  static void row_group(Arith& arith, const std::uint8_t* src, std::uint32_t r0, std::uint32_t vc, std::uint32_t cols,
                        std::uint8_t* dst) {
    Acc acc[G];
    const std::uint8_t* row[G];
    for (std::uint32_t k = 0; k < G; ++k) {
      acc[k] = Arith::kIdentity;
      row[k] = src + std::size_t{r0 + k} * cols * sizeof(Lane);
    }
    for (std::uint32_t c = 0; c < vc; ++c)
      for (std::uint32_t k = 0; k < G; ++k) acc[k] = arith.step(acc[k], Arith::load(lane_at<Lane>(row[k], c)));
    for (std::uint32_t k = 0; k < G; ++k) set_lane<Lane>(dst, r0 + k, Arith::store(acc[k]));
  }

  static NumericFlags rows(const std::uint8_t* src, std::uint32_t vr, std::uint32_t vc, std::uint32_t cols,
                           std::uint8_t* dst) {
    HostFlagScope scope;
    Arith arith;
    std::uint32_t r = 0;
    for (; r + kRowGroup <= vr; r += kRowGroup) row_group<kRowGroup>(arith, src, r, vc, cols, dst);
    for (; r < vr; ++r) row_group<1>(arith, src, r, vc, cols, dst);
    return scope.flags() | arith.flags();
  }

  static NumericFlags columns(const std::uint8_t* src, std::uint32_t vr, std::uint32_t vc, std::uint32_t cols,
                              std::uint8_t* dst) {
    HostFlagScope scope;
    Arith arith;
    // Column strips whose accumulators stay in L1; every column still folds rows 0..vr-1 in order.
    constexpr std::uint32_t kStrip = 1024;
    Acc acc[kStrip];
    for (std::uint32_t c0 = 0; c0 < vc; c0 += kStrip) {
      const std::uint32_t n = vc - c0 < kStrip ? vc - c0 : kStrip;
      for (std::uint32_t c = 0; c < n; ++c) acc[c] = Arith::kIdentity;
      for (std::uint32_t r = 0; r < vr; ++r) {
        const std::uint8_t* row_bytes = src + (std::size_t{r} * cols + c0) * sizeof(Lane);
        for (std::uint32_t c = 0; c < n; ++c) acc[c] = arith.step(acc[c], Arith::load(lane_at<Lane>(row_bytes, c)));
      }
      for (std::uint32_t c = 0; c < n; ++c) set_lane<Lane>(dst, c0 + c, Arith::store(acc[c]));
    }
    return scope.flags() | arith.flags();
  }
};

template <DataType T>
struct ReduceKernel {
  static NumericFlags run(Fold fold, bool row, const TileDescriptor& sd, const std::uint8_t* src, std::uint8_t* dst) {
    switch (fold) {
      case Fold::Sum: return go<Fold::Sum>(row, sd, src, dst);
      case Fold::Prod: return go<Fold::Prod>(row, sd, src, dst);
      case Fold::Max: return go<Fold::Max>(row, sd, src, dst);
      case Fold::Min: return go<Fold::Min>(row, sd, src, dst);
      case Fold::ArgMax: return go<Fold::ArgMax>(row, sd, src, dst);
      default: return go<Fold::ArgMin>(row, sd, src, dst);
    }
  }
  template <Fold F>
  static NumericFlags go(bool row, const TileDescriptor& sd, const std::uint8_t* src, std::uint8_t* dst) {
    if constexpr ((T == DataType::FP32 || T == DataType::FP64) && (F == Fold::Sum || F == Fold::Prod)) {
      using Float = std::conditional_t<T == DataType::FP32, float, double>;
      if (host_float_enabled()) return fold<HostFolder<HostArith<Float, F>>>(row, sd, src, dst);
    } else if constexpr (((T == DataType::FP16 || T == DataType::BF16 || T == DataType::TF32) && F == Fold::Sum) ||
                         (T == DataType::FP16 && F == Fold::Prod)) {
      if (host_float_enabled()) return fold<HostFolder<NarrowArith<T, F>>>(row, sd, src, dst);
    }
    return fold<Folder<T, F>>(row, sd, src, dst);
  }
  template <typename Fo>
  static NumericFlags fold(bool row, const TileDescriptor& sd, const std::uint8_t* src, std::uint8_t* dst) {
    return row ? Fo::rows(src, sd.valid_rows, sd.valid_cols, sd.cols, dst)
               : Fo::columns(src, sd.valid_rows, sd.valid_cols, sd.cols, dst);
  }
};

}  // namespace

NumericFlags execute_reduction(const ExecPlan& plan, const PePayloads& io) {
  // Sources are row-major and destinations dense (VR x 1 with Col 1, or 1 x VC in row 0).
  const bool row = plan.op <= Operation::TROWARGMIN;
  return with_a16_type<ReduceKernel>(plan.sources[0].desc.dtype, fold_of(plan.op), row, plan.sources[0].desc,
                                     io.sources[0], io.dests[0]);
}

}  // namespace ptosim::model::sfu_detail
