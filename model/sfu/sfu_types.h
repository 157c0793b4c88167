// SPDX-License-Identifier: BSD-3-Clause
// The DataType domains of the SFU operations (ADR 0082 seeds, with the project decisions of
// docs/isa-coverage.md "SFU operations" where the seeds and the executable ASL differ).
#pragma once

#include <optional>

#include "model/bundle/bundle.h"
#include "model/numeric/data_type.h"

namespace ptosim::model::sfu {

/// ASL TileVecArithmeticDataTypeSupported (A16): the reductions, ARG sources (seed set), the
/// non-EXPDIF expansions.
bool a16_type(DataType t);
/// EXPDIF same-type sources of the seeds: FP64, FP32, TF32, HF32, FP16, BF16, E4M3, E5M2.
bool expdif_source_type(DataType t);
/// TFILLPAD: A16 without the 64-bit types (ASL TileFillPadDataTypeSupported and carrier-only).
bool fillpad_type(DataType t);
/// TCI: S32, S16, U32, U16 (ASL TileTCIDataTypeSupported).
bool tci_type(DataType t);
/// TTRI: FP32, FP16, S32, S16, U32, U16 (ASL TileTTRIDataTypeSupported).
bool ttri_type(DataType t);
/// TCONCAT: every assigned type except HiF4X2 (ASL TileMove24DataTypeSupported).
bool concat_type(DataType t);
/// THISTOGRAM sources: U16, U32.
bool histogram_source_type(DataType t);

/// Whether `op` accepts `t` as its BSTART DataType (EXPDIF: as the source type).
bool accepts_type(Operation op, DataType t);

/// EXPDIF destination type for source type `src` and the bundle's B.DATR, or nullopt for a pair
/// neither the seeds nor the ASL allow. Absent B.DATR, DataType 31 (DTYPE_NONE), 0 or the source's
/// own code select the same type; FP32 with an FP16 or BF16 source selects the mixed pair.
std::optional<DataType> expdif_destination(DataType src, const std::optional<DatrFields>& datr);

}  // namespace ptosim::model::sfu
