// SPDX-License-Identifier: BSD-3-Clause
// B.FPATR matrix post-processing: the PreQuantMode table, parameter-word legality, and the
// bit-exact per-element conversion and reduction steps of asl/arch/profile/matrix-postprocess.asl
// and matrix-quantization.asl.
#pragma once

#include <cstdint>

#include "model/numeric/data_type.h"
#include "model/numeric/flags.h"
#include "model/numeric/rounding_mode.h"

namespace ptosim::model::cube {

// PreQuantMode properties (asl/block/attributes/B.FPATR.asl).
bool prequant_mode_assigned(unsigned mode);    ///< BundleFPATRPreQuantModeLegal
bool mode_uses_vector_param(unsigned mode);    ///< BundleFPATRModeUsesVectorParameter
bool mode_uses_scalar_param(unsigned mode);    ///< BundleFPATRModeUsesScalarParameter
bool mode_is_shift(unsigned mode);             ///< BundleFPATRModeIsShift
bool mode_fixed_rounding(unsigned mode);       ///< BundleFPATRModeFixedRounding
unsigned mode_offset_width(unsigned mode);     ///< BundleFPATRModeOffsetWidth: 0, 5, 9 or 17
/// BundleFPATRAccumulatorTypeLegal: mode 0 takes FP32, S32 or U32; every other assigned mode
/// exactly its S32 or FP32 class.
bool mode_accepts_accumulator(unsigned mode, DataType acc);
/// BundleFPATROutputType; mode 0 keeps `acc`.
DataType mode_output_type(unsigned mode, DataType acc);
/// The mode's name in the spec tables ("F322F16", "VREQ8", ...; "NoQuant" for 0).
const char* prequant_mode_name(unsigned mode);
/// BundleFPATRGroupN: GroupNCode 0..9 -> 0, 8, 16, 32, 48, ..., 128 columns.
unsigned group_n_columns(unsigned code);

/// BundleFPATRQuantParameterWordLegal: the 64-bit QuantParam carrier of `mode`.
bool quant_param_word_legal(unsigned mode, std::uint64_t word);
/// BundleFPATRReluParameterWordLegal: FP19 +0 or positive normal in bits 18:0, all else zero.
bool relu_param_word_legal(std::uint64_t word);

/// B.DATR RMode/Sat legality for a PreQuantMode (BundleFPATRDATRFieldsLegal for every nonzero
/// mode; mode 0 accepts both controls, as ADR 0079 Decision 051 allows — docs/isa-coverage.md).
bool datr_controls_legal(unsigned mode, unsigned rmode, bool sat);
/// MatrixFPATREffectiveControl: the conversion rounding after the mode's fixed rule (25 and 28
/// force RHB, the other fixed-rounding modes RNE; otherwise the B.DATR selection, NONE = RNE).
numeric::RoundingMode effective_rounding(unsigned mode, unsigned rmode);

/// The element transform of one enabled B.FPATR descriptor.
struct PostProcess {
  unsigned mode = 0;  ///< PreQuantMode
  unsigned relu = 0;  ///< ReluMode
  DataType acc = DataType::FP32;
  DataType out = DataType::FP32;
  numeric::RoundingMode rounding = numeric::RoundingMode::RNE;
  bool saturate = false;

  bool identity() const { return mode == 0 && relu == 0; }
  /// TileProfileMatrixPostProcessWithFlags on one raw accumulator encoding; `quant` and `relu_param`
  /// are that column's parameter words. Returns the destination encoding, flags ORed in.
  std::uint64_t apply(std::uint64_t value, std::uint64_t quant, std::uint64_t relu_param, NumericFlags& flags) const;
};

/// TileProfileMatrixReductionStepWithFlags: MAX of two accumulator encodings of `t` (FP32, S32 or
/// U32), on magnitudes when `max_abs`.
std::uint64_t reduction_step(DataType t, std::uint64_t current, std::uint64_t candidate, bool max_abs,
                             NumericFlags& flags);

}  // namespace ptosim::model::cube
