// SPDX-License-Identifier: BSD-3-Clause
#include "model/sfu/sfu_core.h"

#include "model/numeric/scalar_ops.h"
#include "model/state/element_access.h"

namespace ptosim::model {

namespace {

enum class Fold { Sum, Prod, Max, Min, ArgMax, ArgMin };

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

// One lane of a reduction: the architectural left fold over `n` elements in increasing order.
template <typename Load>
std::uint64_t fold_lane(Fold fold, DataType t, std::uint32_t n, Load load, NumericFlags& flags) {
  switch (fold) {
    case Fold::Sum: {
      std::uint64_t acc = numeric::zero(t);
      for (std::uint32_t i = 0; i < n; ++i) acc = numeric::add(t, acc, load(i), flags);
      return acc;
    }
    case Fold::Prod: {
      std::uint64_t acc = numeric::one(t);
      for (std::uint32_t i = 0; i < n; ++i) acc = numeric::mul(t, acc, load(i), flags);
      return acc;
    }
    case Fold::Max:
    case Fold::Min: {
      std::uint64_t acc = load(0);  // element 0 is taken unevaluated
      for (std::uint32_t i = 1; i < n; ++i)
        acc = fold == Fold::Max ? numeric::max(t, acc, load(i), flags) : numeric::min(t, acc, load(i), flags);
      return acc;
    }
    case Fold::ArgMax:
    case Fold::ArgMin: {
      std::uint64_t acc = load(0);
      std::uint32_t index = 0;
      for (std::uint32_t i = 1; i < n; ++i) {
        const std::uint64_t v = load(i);
        const std::uint64_t next = fold == Fold::ArgMax ? numeric::max(t, acc, v, flags) : numeric::min(t, acc, v, flags);
        // The index moves only when the step selected the new element and changed the accumulator.
        if (next == v && next != acc) index = i;
        acc = next;
      }
      return index;
    }
  }
  return 0;
}

NumericFlags execute_reduction(const ExecPlan& plan, const PePayloads& io, bool row) {
  const TileDescriptor& sd = plan.sources[0].desc;
  const TileDescriptor& dd = plan.dests[0].desc;
  const std::uint8_t* src = io.sources[0];
  std::uint8_t* dst = io.dests[0];
  const Fold fold = fold_of(plan.op);
  NumericFlags flags = 0;
  if (row) {
    for (std::uint32_t r = 0; r < sd.valid_rows; ++r) {
      auto load = [&](std::uint32_t c) { return load_element(sd, src, r, c); };
      store_element(dd, dst, r, 0, fold_lane(fold, sd.dtype, sd.valid_cols, load, flags));
    }
  } else {
    for (std::uint32_t c = 0; c < sd.valid_cols; ++c) {
      auto load = [&](std::uint32_t r) { return load_element(sd, src, r, c); };
      store_element(dd, dst, 0, c, fold_lane(fold, sd.dtype, sd.valid_rows, load, flags));
    }
  }
  return flags;
}

}  // namespace

NumericFlags sfu_execute(const ExecPlan& plan, const PePayloads& io) {
  const bool row = plan.op <= Operation::TROWARGMIN;
  return execute_reduction(plan, io, row);
}

}  // namespace ptosim::model
