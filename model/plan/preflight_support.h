// SPDX-License-Identifier: BSD-3-Clause
// Building blocks every operation preflight uses: LB resolution from GPRs, source lookup, B.IOR
// scalar reads, PadValue resolution, and the padding/definedness rule of new destinations.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "model/bundle/bundle.h"
#include "model/common/result.h"
#include "model/plan/exec_plan.h"
#include "model/state/tile_state.h"

namespace ptosim::model {

// Preflight resolves every LB and looks up every source of every bundle: the common cases of
// resolve_lb and local_source are inline, the rest (GPR reads, fault texts) out of line.

/// resolve_lb for a present LB read from a GPR other than the zero register.
Result<std::optional<std::uint32_t>> lb_from_gprs(const Bundle& b, const TileState& s, int index);

/// LB`index` of the bundle: nullopt when absent, else (GPR[reg] + imm) mod 2^16. Every
/// participating PE reads its own GPR; they must agree (descriptors are per core), else TileLegality.
inline Result<std::optional<std::uint32_t>> resolve_lb(const Bundle& b, const TileState& s, int index) {
  const DimField& f = b.lb[index];
  if (!f.present || b.mask().empty()) return std::optional<std::uint32_t>{};
  // The zero register reads 0 on every PE, so the participating PEs cannot disagree.
  if (f.reg == 0) return std::optional<std::uint32_t>{f.imm & 0xFFFF};
  return lb_from_gprs(b, s, index);
}

/// local_source's fault for a selector whose tile is not allocated or lacks a fragment on a PE of `mask`.
Fault unavailable_source(const TileState& s, unsigned selector, PeMask mask, const char* role);

/// The Local source named by a B.IOT selector (0..63); TileLegality when it is not allocated or its
/// payload is not held by every PE of `mask`.
inline Result<SourceOperand> local_source(const TileState& s, unsigned selector, PeMask mask, const char* role) {
  const unsigned physical = s.physical_index(selector);
  const LocalTile& t = s.slot(physical);
  if (t.allocated && (mask.bits() & ~t.desc.pe_mask.bits()) == 0)
    return SourceOperand{TileRef::local(selector), physical, t.desc};
  return unavailable_source(s, selector, mask, role);
}

/// B.IOR RegSrc0..2 values from each PE of `mask` (zero when B.IOR is omitted).
std::array<std::array<std::uint64_t, 3>, kPeCount> read_scalars(const Bundle& b, const TileState& s, PeMask mask);

/// PadValue of B.DATR for a destination of type `t`: omitted B.DATR or code 11 -> nullopt (Null);
/// 00 Zero, 01 Max, 10 Min -> that encoding (finite Max/Min table).
std::optional<std::uint64_t> pad_encoding(const Bundle& b, DataType t);

/// Writes the padding encoding of `d` at every physical element outside the valid rectangle.
void write_padding(const DestOperand& d, std::uint8_t* bytes);
/// Publishes the definedness of destination `d` in `tile` on every PE of `mask`: its valid
/// rectangle, plus padding unless it is Null (the same on each PE).
void publish_result_definedness(const DestOperand& d, PeMask mask, LocalTile& tile);

}  // namespace ptosim::model
