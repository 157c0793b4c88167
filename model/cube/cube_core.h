// SPDX-License-Identifier: BSD-3-Clause
// CubeCore: the bit-exact matrix operations on one PE's operand fragments, for a preflighted plan.
#pragma once

#include "model/numeric/flags.h"
#include "model/plan/exec_plan.h"

namespace ptosim::model {

/// Computes every valid element of the plan's destinations for one PE; returns the flags raised.
/// Preconditions: `plan` passed cube_preflight.
NumericFlags cube_execute(const ExecPlan& plan, const PePayloads& io);

}  // namespace ptosim::model
