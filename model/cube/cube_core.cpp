// SPDX-License-Identifier: BSD-3-Clause
#include "model/cube/cube_core.h"

namespace ptosim::model {

// cube_preflight rejects every CUBE bundle until the CUBE core lands, so no plan reaches here.
NumericFlags cube_execute(const ExecPlan&, const PePayloads&) { return 0; }

}  // namespace ptosim::model
