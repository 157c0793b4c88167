// SPDX-License-Identifier: BSD-3-Clause
// SfuArgs: the SFU-specific operation arguments of an ExecPlan, resolved by preflight.
#pragma once

#include <array>
#include <cstdint>

#include "model/common/pe_mask.h"
#include "model/numeric/data_type.h"

namespace ptosim::model {

struct SfuArgs {
  /// B.IOR RegSrc0..2 values read from each PE's own GPRs (zero when B.IOR is omitted), in the
  /// operation's slot order: TFILLPAD [0] pad scalar; TCI [0] start, [1] direction (0 ascending,
  /// 1 descending); TTRI [0] signed diagonal, [1] orientation (0 lower, 1 upper). Preflight has
  /// checked every direction/orientation/diagonal value.
  std::array<std::array<std::uint64_t, 3>, kPeCount> scalars{};
  /// Destination DataType (differs from the BSTART type for ARG*, EXPDIF mixed pairs, THISTOGRAM).
  DataType dst_dtype = DataType::FP32;
  /// THISTOGRAM byte selector (B.DATR ByteId).
  unsigned byte_id = 0;
};

}  // namespace ptosim::model
