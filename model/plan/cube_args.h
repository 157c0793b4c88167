// SPDX-License-Identifier: BSD-3-Clause
// CubeArgs: the CUBE-specific operation arguments of an ExecPlan, resolved by preflight.
#pragma once

#include <array>
#include <cstdint>

#include "model/common/pe_mask.h"
#include "model/numeric/data_type.h"
#include "model/numeric/rounding_mode.h"

namespace ptosim::model {

/// The accepted B.FPATR post-processing descriptor of a CUBE block.
struct CubeFpatr {
  std::uint8_t prequant_mode = 0;  ///< PreQuantMode code (0 = none)
  std::uint8_t relu_mode = 0;      ///< 0 none, 1 ReLU, 2 scalar LReLU/PReLU, 3 vector PReLU
  std::uint32_t group_n = 0;       ///< GroupMax group width in columns (0 = no GroupMax)
  bool row_max = false;            ///< RowMaxEn
  bool group_max = false;          ///< GroupMaxEn
  bool row_max_init = false;       ///< RowMaxInit: RowMaxIn seeds the row maximum
  bool max_abs = false;            ///< MaxAbsEn: reductions compare magnitudes
};

/// Index of an operand role in ExecPlan::sources / dests; kAbsent when the form has none.
constexpr int kAbsent = -1;

struct CubeArgs {
  std::uint32_t m = 1;  ///< LB0: rows of A, C, D per PE
  std::uint32_t n = 1;  ///< LB1
  std::uint32_t k = 1;  ///< LB2
  DataType a_dtype = DataType::FP16;    ///< left input (BSTART DataType)
  DataType b_dtype = DataType::FP16;    ///< right input (B.DATR DataType, default the left type)
  DataType acc_dtype = DataType::FP32;  ///< accumulator class: FP32, S32 or U32 (also C, Bias, RowMax/GroupMax)
  DataType out_dtype = DataType::FP32;  ///< D: the accumulator type, or the PreQuantMode output type

  bool mx = false;          ///< TMATMULMX / TGEMVMX: E8M0-scaled inputs
  bool bias = false;        ///< .BIAS forms
  bool accumulate = false;  ///< .ACC forms: the fold starts from C
  bool trans_a = false;     ///< B.FPATR TransA: a Shared A is stored K x M
  bool trans_b = false;     ///< B.FPATR TransB: a Shared B is stored N x K

  /// Where each operand sits in plan.sources (architectural order C, A, SA, B, SB, Bias,
  /// RowMaxIn, QuantParam vector, PReLU vector). A and B are always present.
  int src_c = kAbsent;
  int src_a = 0;
  int src_sa = kAbsent;
  int src_b = 1;
  int src_sb = kAbsent;
  int src_bias = kAbsent;
  int src_row_max_in = kAbsent;
  int src_quant = kAbsent;
  int src_relu = kAbsent;
  /// D is plan.dests[0]; the auxiliary outputs follow in encoded order.
  int dst_row_max = kAbsent;
  int dst_group_max = kAbsent;

  CubeFpatr fpatr;
  /// Destination-conversion controls of the post-processing step (B.DATR RMode/Sat after the
  /// PreQuantMode's fixed-rounding rule); accumulation always rounds to nearest-even.
  numeric::RoundingMode rounding = numeric::RoundingMode::RNE;
  bool saturate = false;
  /// Scalar B.IOR parameters read from each PE's own GPRs (zero when the mode takes none).
  std::array<std::uint64_t, kPeCount> quant_param{};
  std::array<std::uint64_t, kPeCount> relu_param{};
};

}  // namespace ptosim::model
