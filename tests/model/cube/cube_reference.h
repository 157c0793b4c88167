// SPDX-License-Identifier: BSD-3-Clause
// The CUBE reference of the tests, written apart from model/cube: plain loops in the order of
// asl/tile/model/execution/cube.asl over the numerics library's scalar operations, and a literal
// transliteration of the B.FPATR post-processing of asl/arch/profile/matrix-postprocess.asl and
// matrix-quantization.asl on MPFR reals.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "model/numeric/data_type.h"
#include "model/numeric/flags.h"

namespace ptosim::model::cube_test {

/// The logical operands of one PE, encodings in row-major order.
struct RefProblem {
  std::uint32_t m = 1, n = 1, k = 1;
  DataType a_type = DataType::FP16, b_type = DataType::FP16, acc_type = DataType::FP32;
  std::vector<std::uint64_t> a;                   ///< M x K
  std::vector<std::uint64_t> b;                   ///< K x N
  std::optional<std::vector<std::uint64_t>> c;    ///< M x N (ACC forms)
  std::optional<std::vector<std::uint64_t>> sa;   ///< M x ceil(K/32) E8M0 (scaled A)
  std::optional<std::vector<std::uint64_t>> sb;   ///< ceil(K/32) x N E8M0 (scaled B)
  std::optional<std::vector<std::uint64_t>> bias; ///< N
  bool mx = false;
};

/// The raw accumulator P (M x N row-major): for every output, the fold from C (or zero) over
/// increasing K with one library fused multiply-add per term, then the bias with one library add.
std::vector<std::uint32_t> reference_accumulator(const RefProblem& p);

/// MatrixPostQuantBaseWithFlags after MatrixFPATREffectiveControl, with the B.DATR RMode field
/// `datr_rmode` (0 = operation default) and Sat; `acc` is the accumulator type. Flags are ORed in.
std::uint64_t reference_postprocess(unsigned mode, unsigned relu, DataType acc, unsigned datr_rmode, bool sat,
                                    std::uint64_t value, std::uint64_t quant, std::uint64_t relu_param,
                                    NumericFlags& flags);

/// BundleFPATROutputType (mode 0: the accumulator type).
DataType reference_output_type(unsigned mode, DataType acc);

/// TileProfileMatrixReductionStepWithFlags.
std::uint64_t reference_reduction_step(DataType t, std::uint64_t current, std::uint64_t candidate, bool max_abs,
                                       NumericFlags& flags);

}  // namespace ptosim::model::cube_test
