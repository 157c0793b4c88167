// SPDX-License-Identifier: BSD-3-Clause
// ExecPlan: everything operation preflight resolved about one bundle — operands with their
// descriptors and physical slots, destinations to allocate with their padding rule, and the
// engine-specific parameters. Engines execute plans; they never look at a Bundle.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "model/bundle/operation.h"
#include "model/common/pe_mask.h"
#include "model/plan/cube_args.h"
#include "model/plan/sfu_args.h"
#include "model/state/tile_descriptor.h"
#include "model/state/tile_ref.h"

namespace ptosim::model {

/// A source tile as preflight saw it. `slot` is the physical payload slot (Local: resolved through
/// the allocation policy; Shared: the index).
struct SourceOperand {
  TileRef ref;
  unsigned slot = 0;
  TileDescriptor desc;
};

/// A new destination. Preflight fills hand, desc and the padding rule; allocation fills ref/slot.
struct DestOperand {
  unsigned hand = 0;  ///< 0 T, 1 U, 2 M, 3 N
  TileDescriptor desc;
  /// Encoding written (and defined) at every physical element outside the valid rectangle;
  /// nullopt = Null padding (left undefined).
  std::optional<std::uint64_t> pad;
  /// The operation itself defines every physical element (TFILLPAD); padding does not apply.
  bool defines_whole_tile = false;
  /// Preflight found `desc` legal (descriptor_problem): allocation need not check it again.
  bool desc_checked = false;
  TileRef ref;
  unsigned slot = 0;
};

struct ExecPlan {
  Operation op = Operation::TROWSUM;
  DataType dtype = DataType::FP32;  ///< BSTART DataType (the operation / A-side type)
  PeMask mask;
  std::vector<SourceOperand> sources;  ///< in the operation's operand order
  std::vector<DestOperand> dests;      ///< in encoded destination order
  std::variant<SfuArgs, CubeArgs> args;
  /// Value-dependent legality checks preflight could not run (no payload access: timing-only mode).
  std::vector<std::string> skipped_checks;

  Engine engine() const { return operation_engine(op); }
  const SfuArgs& sfu() const { return std::get<SfuArgs>(args); }
  const CubeArgs& cube() const { return std::get<CubeArgs>(args); }
};

/// Payload pointers of one PE for executing a plan: sources (read-only snapshot) and destinations,
/// in plan order. A Shared operand's pointer is the whole Shared payload.
struct PePayloads {
  int pe = 0;
  std::vector<const std::uint8_t*> sources;
  std::vector<std::uint8_t*> dests;
};

}  // namespace ptosim::model
