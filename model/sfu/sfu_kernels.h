// SPDX-License-Identifier: BSD-3-Clause
// Internals of the SFU core: the per-family kernels sfu_execute dispatches to, and the typed lane
// access they share. Not part of the model's API.
#pragma once

#include <cstdint>
#include <cstring>
#include <utility>

#include "model/numeric/flags.h"
#include "model/plan/exec_plan.h"

namespace ptosim::model::sfu_detail {

/// Reductions and ARG (asl reduction.asl ExecuteTileReduction).
NumericFlags execute_reduction(const ExecPlan& plan, const PePayloads& io);
/// Expansions and broadcast arithmetic (asl expansion.asl ExecuteTileExpand).
NumericFlags execute_expansion(const ExecPlan& plan, const PePayloads& io);
/// TCI, TTRI, TFILLPAD, TCONCAT, THISTOGRAM (asl generation.asl, rearrangement.asl, complex.asl).
NumericFlags execute_generation(const ExecPlan& plan, const PePayloads& io);

/// Lane `i` of a row-major payload of `Lane`-wide elements (unaligned, little-endian host).
template <typename Lane>
inline Lane lane_at(const std::uint8_t* bytes, std::size_t i) {
  Lane v;
  std::memcpy(&v, bytes + i * sizeof(Lane), sizeof(Lane));
  return v;
}
template <typename Lane>
inline void set_lane(std::uint8_t* bytes, std::size_t i, Lane v) {
  std::memcpy(bytes + i * sizeof(Lane), &v, sizeof(Lane));
}

/// Calls Kernel<T>::run(args...) for the A16 DataType `t` (the preflight guarantees the domain).
template <template <DataType> class Kernel, typename... Args>
decltype(auto) with_a16_type(DataType t, Args&&... args) {
  switch (t) {
    case DataType::FP64: return Kernel<DataType::FP64>::run(std::forward<Args>(args)...);
    case DataType::FP32: return Kernel<DataType::FP32>::run(std::forward<Args>(args)...);
    case DataType::TF32: return Kernel<DataType::TF32>::run(std::forward<Args>(args)...);
    case DataType::HF32: return Kernel<DataType::HF32>::run(std::forward<Args>(args)...);
    case DataType::FP16: return Kernel<DataType::FP16>::run(std::forward<Args>(args)...);
    case DataType::BF16: return Kernel<DataType::BF16>::run(std::forward<Args>(args)...);
    case DataType::E4M3: return Kernel<DataType::E4M3>::run(std::forward<Args>(args)...);
    case DataType::E5M2: return Kernel<DataType::E5M2>::run(std::forward<Args>(args)...);
    case DataType::S64: return Kernel<DataType::S64>::run(std::forward<Args>(args)...);
    case DataType::S32: return Kernel<DataType::S32>::run(std::forward<Args>(args)...);
    case DataType::S16: return Kernel<DataType::S16>::run(std::forward<Args>(args)...);
    case DataType::S8: return Kernel<DataType::S8>::run(std::forward<Args>(args)...);
    case DataType::U64: return Kernel<DataType::U64>::run(std::forward<Args>(args)...);
    case DataType::U32: return Kernel<DataType::U32>::run(std::forward<Args>(args)...);
    case DataType::U16: return Kernel<DataType::U16>::run(std::forward<Args>(args)...);
    default: return Kernel<DataType::U8>::run(std::forward<Args>(args)...);  // U8
  }
}

}  // namespace ptosim::model::sfu_detail
