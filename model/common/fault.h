// SPDX-License-Identifier: BSD-3-Clause
// Architectural fault classes (ASL FaultCode) and the Fault value every check returns.
#pragma once

#include <string>

namespace ptosim::model {

/// The ASL FaultCode values a Tile bundle can raise (names without the "Fault_" prefix).
enum class FaultCode {
  IllegalInstruction,  ///< reserved encoding or field value, at the instruction
  BundleControl,       ///< block-structure error (placement, duplication, termination, schema counts)
  TileLegality,        ///< operation schema, type, shape, definedness, value rule
  TileAllocation,      ///< no free register, capacity exhausted, unrepresentable shape
};

const char* fault_code_name(FaultCode code);

/// A rejected bundle: the fault class and the rule broken, naming the offending field or element.
struct Fault {
  FaultCode code;
  std::string rule;
};

}  // namespace ptosim::model
