// SPDX-License-Identifier: BSD-3-Clause
#include "model/sfu/sfu_core.h"

#include "model/sfu/sfu_kernels.h"

namespace ptosim::model {

NumericFlags sfu_execute(const ExecPlan& plan, const PePayloads& io) {
  if (plan.op >= Operation::TCONCAT) return sfu_detail::execute_generation(plan, io);
  const bool expansion = (plan.op >= Operation::TROWEXPAND && plan.op <= Operation::TROWEXPANDEXPDIF) ||
                         (plan.op >= Operation::TCOLEXPAND && plan.op <= Operation::TCOLEXPANDEXPDIF);
  return expansion ? sfu_detail::execute_expansion(plan, io) : sfu_detail::execute_reduction(plan, io);
}

}  // namespace ptosim::model
