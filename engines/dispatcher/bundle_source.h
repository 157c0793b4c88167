// SPDX-License-Identifier: BSD-3-Clause
// IBundleSource: the dispatcher's instruction front end — yields the program's bundles in order,
// each with the number of instruction words it took, or the instruction-level fault that stops it.
#pragma once

#include <optional>
#include <string>

#include "model/bundle/bundle.h"
#include "model/common/fault.h"

namespace ptosim::engines {

struct FetchedBundle {
  std::optional<model::Bundle> bundle;  ///< a completed block, or
  std::optional<model::Fault> fault;    ///< an instruction-level fault (decode, block structure)
  std::string op;                       ///< mnemonic the outcome is reported under
  unsigned instructions = 0;            ///< instruction words consumed (decode cost)
  model::SourceLoc loc;
};

/// Contract: next() returns the program's items in order, then nullopt forever. After a fault the
/// dispatcher stops asking.
class IBundleSource {
 public:
  virtual ~IBundleSource() = default;
  virtual std::optional<FetchedBundle> next() = 0;
};

}  // namespace ptosim::engines
