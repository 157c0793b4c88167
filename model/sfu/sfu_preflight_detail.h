// SPDX-License-Identifier: BSD-3-Clause
// Internals of the SFU preflight shared by its per-family translation units: the bundle being
// checked, the plan being built, and the checks every family uses. Not part of the model's API.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "model/bundle/bundle.h"
#include "model/common/result.h"
#include "model/plan/exec_plan.h"
#include "model/plan/payload_reader.h"
#include "model/state/tile_state.h"

namespace ptosim::model::sfu_detail {

Fault legality(std::string rule);
Fault allocation(std::string rule);

/// The operands of the bundle in the ASL's order (BundleTileInstructionOperands): the first
/// destination binding, and the sources of every binding in binding order.
struct Operands {
  const IotBinding* destination = nullptr;
  std::array<unsigned, 2> sources{};
  unsigned source_count = 0;
};

/// One SFU preflight in progress. Every check returns the fault the ASL raises at that point.
class Preflight {
 public:
  Preflight(const Bundle& b, const TileState& s, const IPayloadReader* values, ExecPlan& plan);

  const Bundle& b;
  const TileState& s;
  const IPayloadReader* values;
  Operation op;
  DataType type;  ///< BSTART DataType
  PeMask mask;
  Operands operands;
  ExecPlan& plan;  ///< the caller's; op, dtype, mask set; families add operands, args and skipped checks

  const std::string& name() const { return b.mnemonic; }

  /// LB0..LB2 (nullopt when absent), resolved from the participating PEs' GPRs.
  Result<std::array<std::optional<std::uint32_t>, 3>> lbs() const;

  /// A Local source operand held by every participating PE.
  Result<SourceOperand> source(unsigned selector, const char* role) const;
  /// ASL TileSourceContentsDefined over every participating PE's fragment.
  Status require_defined(const SourceOperand& src, const char* role) const;
  /// ASL TileSourceEncodingsValid (value check: skipped and listed without payload access).
  Status require_valid_encodings(const SourceOperand& src, const char* role);
  /// ASL TileDescriptorLegal's layout part (TileGenericIndexingPermitted): no CUBE layout.
  Status require_generic_layout(const SourceOperand& src, const char* role) const;

  /// The destination of `io` (ASL ResolveBundleTileDestinationsWithShapeAndType): a free
  /// register of its hand and the capacity first, then the shape its TSize must hold. Layout
  /// rules of the destination are operand checks, not allocation checks.
  Result<DestOperand> destination(DataType t, std::uint32_t valid_rows, std::uint32_t valid_cols,
                                  std::uint32_t cols, Layout layout) const;
};

/// Row and column reductions and ARG (asl reduction-schema.asl, reduction-and-expansion.asl).
Status preflight_reduction(Preflight& p);
/// TROWEXPAND* / TCOLEXPAND* (asl expansion-schema.asl, reduction-and-expansion.asl).
Status preflight_expansion(Preflight& p);
/// TCI and TTRI (asl generation-schema.asl, operand-schema.asl).
Status preflight_generation(Preflight& p);
/// THISTOGRAM (asl histogram-schema.asl, indexed-layout.asl).
Status preflight_histogram(Preflight& p);
/// TFILLPAD (generic destination resolution, asl layout-rearrangement.asl).
Status preflight_fillpad(Preflight& p);
/// TCONCAT (generic destination resolution, asl layout-rearrangement.asl).
Status preflight_concat(Preflight& p);

/// "[r,c]" for messages.
std::string element_name(std::uint32_t r, std::uint32_t c);
/// "T#1 (FP32 16x16, Col 16)" style description of a descriptor's geometry for messages.
std::string geometry(const TileDescriptor& d);
/// Destination layout of a B.DATR Layout code (the part after "2"; NORM -> RowMajor).
Layout destination_layout(unsigned layout_code);

}  // namespace ptosim::model::sfu_detail
