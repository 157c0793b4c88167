// SPDX-License-Identifier: BSD-3-Clause
// SfuCore: the bit-exact SFU operations on one PE's payload fragments, for a preflighted plan.
#pragma once

#include "model/numeric/flags.h"
#include "model/plan/exec_plan.h"

namespace ptosim::model {

/// Computes every valid destination element of `plan` for one PE; returns the numeric flags raised.
/// Preconditions: `plan` passed sfu_preflight; destination buffers hold at least their storage bytes.
/// Padding and definedness are applied by the caller (write_padding / publish_result_definedness).
NumericFlags sfu_execute(const ExecPlan& plan, const PePayloads& io);

}  // namespace ptosim::model
