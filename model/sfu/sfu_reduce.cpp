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

// FP32/FP64 SUM and PROD with the host's arithmetic (sfu_host_float.h): the same folds, the
// flags from the host's sticky status over the whole kernel, NaN results made canonical.
template <typename Float, Fold F>
struct HostFolder {
  using Bits = typename HostFloat<Float>::Bits;
  static Float step(Float acc, Float v) { return F == Fold::Sum ? acc + v : acc * v; }
  static constexpr Float kIdentity = F == Fold::Sum ? Float(0) : Float(1);

  template <std::uint32_t G>
  static void row_group(const std::uint8_t* src, std::uint32_t r0, std::uint32_t vc, std::uint32_t cols,
                        std::uint8_t* dst) {
    Float acc[G];
    const std::uint8_t* row[G];
    for (std::uint32_t k = 0; k < G; ++k) {
      acc[k] = kIdentity;
      row[k] = src + std::size_t{r0 + k} * cols * sizeof(Bits);
    }
    for (std::uint32_t c = 0; c < vc; ++c)
      for (std::uint32_t k = 0; k < G; ++k) acc[k] = step(acc[k], host_value<Float>(lane_at<Bits>(row[k], c)));
    for (std::uint32_t k = 0; k < G; ++k) set_lane<Bits>(dst, r0 + k, profile_bits(acc[k]));
  }

  static NumericFlags rows(const std::uint8_t* src, std::uint32_t vr, std::uint32_t vc, std::uint32_t cols,
                           std::uint8_t* dst) {
    HostFlagScope scope;
    std::uint32_t r = 0;
    for (; r + kRowGroup <= vr; r += kRowGroup) row_group<kRowGroup>(src, r, vc, cols, dst);
    for (; r < vr; ++r) row_group<1>(src, r, vc, cols, dst);
    return scope.flags();
  }

  static NumericFlags columns(const std::uint8_t* src, std::uint32_t vr, std::uint32_t vc, std::uint32_t cols,
                              std::uint8_t* dst) {
    HostFlagScope scope;
    // Column strips whose accumulators stay in L1; every column still folds rows 0..vr-1 in order.
    constexpr std::uint32_t kStrip = 1024;
    Float acc[kStrip];
    for (std::uint32_t c0 = 0; c0 < vc; c0 += kStrip) {
      const std::uint32_t n = vc - c0 < kStrip ? vc - c0 : kStrip;
      for (std::uint32_t c = 0; c < n; ++c) acc[c] = kIdentity;
      for (std::uint32_t r = 0; r < vr; ++r) {
        const std::uint8_t* row_bytes = src + (std::size_t{r} * cols + c0) * sizeof(Bits);
        for (std::uint32_t c = 0; c < n; ++c) acc[c] = step(acc[c], host_value<Float>(lane_at<Bits>(row_bytes, c)));
      }
      for (std::uint32_t c = 0; c < n; ++c) set_lane<Bits>(dst, c0 + c, profile_bits(acc[c]));
    }
    return scope.flags();
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
      using Host = HostFolder<Float, F>;
      if (host_float_enabled())
        return row ? Host::rows(src, sd.valid_rows, sd.valid_cols, sd.cols, dst)
                   : Host::columns(src, sd.valid_rows, sd.valid_cols, sd.cols, dst);
    }
    using Fo = Folder<T, F>;
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
