// SPDX-License-Identifier: BSD-3-Clause
// CubeArgs: the CUBE-specific operation arguments of an ExecPlan, resolved by preflight.
#pragma once

#include <cstdint>

#include "model/numeric/data_type.h"

namespace ptosim::model {

struct CubeArgs {
  std::uint32_t m = 1;  ///< LB0
  std::uint32_t n = 1;  ///< LB1
  std::uint32_t k = 1;  ///< LB2
  DataType a_dtype = DataType::FP16;
  DataType b_dtype = DataType::FP16;
  DataType acc_dtype = DataType::FP32;
};

}  // namespace ptosim::model
