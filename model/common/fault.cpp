// SPDX-License-Identifier: BSD-3-Clause
#include "model/common/fault.h"

namespace ptosim::model {

const char* fault_code_name(FaultCode code) {
  switch (code) {
    case FaultCode::IllegalInstruction: return "IllegalInstruction";
    case FaultCode::BundleControl: return "BundleControl";
    case FaultCode::TileLegality: return "TileLegality";
    case FaultCode::TileAllocation: return "TileAllocation";
  }
  return "?";
}

}  // namespace ptosim::model
