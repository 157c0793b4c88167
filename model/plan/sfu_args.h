// SPDX-License-Identifier: BSD-3-Clause
// SfuArgs: the SFU-specific operation arguments of an ExecPlan, resolved by preflight.
#pragma once

#include <array>
#include <cstdint>

#include "model/common/pe_mask.h"
#include "model/numeric/data_type.h"

namespace ptosim::model {

struct SfuArgs {
  /// B.IOR RegSrc0..2 values read from each PE's own GPRs (zero when B.IOR is omitted).
  std::array<std::array<std::uint64_t, 3>, kPeCount> scalars{};
  /// Destination DataType (differs from the BSTART type for ARG*, EXPDIF mixed pairs, THISTOGRAM).
  DataType dst_dtype = DataType::FP32;
  /// THISTOGRAM byte selector.
  unsigned byte_id = 0;
};

}  // namespace ptosim::model
