// SPDX-License-Identifier: BSD-3-Clause
#include "model/plan/preflight_support.h"

#include <string>

#include "model/numeric/scalar_ops.h"
#include "model/state/element_access.h"

namespace ptosim::model {

Result<std::optional<std::uint32_t>> lb_from_gprs(const Bundle& b, const TileState& s, int index) {
  const DimField& f = b.lb[index];
  const PeMask mask = b.mask();
  std::optional<std::uint32_t> value;
  for (int pe = 0; pe < kPeCount; ++pe) {
    if (!mask.has(pe)) continue;
    const auto v = static_cast<std::uint32_t>((s.gpr(pe, f.reg) + f.imm) & 0xFFFF);
    if (value && *value != v)
      return fault(FaultCode::TileLegality, "LB" + std::to_string(index) + " resolves to different values on the participating PEs (" +
                                                std::to_string(*value) + " vs " + std::to_string(v) + " on PE" +
                                                std::to_string(pe) + ")");
    value = v;
  }
  return value;
}

Fault unavailable_source(const TileState& s, unsigned selector, PeMask mask, const char* role) {
  const TileRef ref = TileRef::local(selector);
  const LocalTile& t = s.local(selector);
  if (!t.allocated) return fault(FaultCode::TileLegality, std::string(role) + " " + ref.name() + " is not allocated");
  int pe = 0;  // the first PE of `mask` without a fragment
  while (!mask.has(pe) || t.desc.pe_mask.has(pe)) ++pe;
  return fault(FaultCode::TileLegality, std::string(role) + " " + ref.name() + " holds no payload fragment on PE" +
                                            std::to_string(pe));
}

std::array<std::array<std::uint64_t, 3>, kPeCount> read_scalars(const Bundle& b, const TileState& s, PeMask mask) {
  std::array<std::array<std::uint64_t, 3>, kPeCount> values{};
  if (!b.ior) return values;
  for (int pe = 0; pe < kPeCount; ++pe)
    if (mask.has(pe))
      for (int i = 0; i < 3; ++i) values[pe][i] = s.gpr(pe, b.ior->src[i]);
  return values;
}

std::optional<std::uint64_t> pad_encoding(const Bundle& b, DataType t) {
  if (!b.datr) return std::nullopt;
  switch (b.datr->pad_or_byte_id & 3) {
    case 0: return numeric::zero(t);
    case 1: return numeric::pad_max(t);
    case 2: return numeric::pad_min(t);
    default: return std::nullopt;
  }
}

void write_padding(const DestOperand& d, std::uint8_t* bytes) {
  if (!d.pad || d.defines_whole_tile) return;
  const TileDescriptor& t = d.desc;
  for (std::uint32_t r = 0; r < t.rows; ++r)
    for (std::uint32_t c = 0; c < t.cols; ++c)
      if (r >= t.valid_rows || c >= t.valid_cols) store_element(t, bytes, r, c, *d.pad);
}

void publish_result_definedness(const DestOperand& d, PeMask mask, LocalTile& tile) {
  // Built in place on the first PE (reusing its storage), copied to the rest.
  const Definedness* first = nullptr;
  for (int pe = 0; pe < kPeCount; ++pe) {
    if (!mask.has(pe)) continue;
    Definedness& defined = tile.defined[pe];
    if (first) {
      defined = *first;
      continue;
    }
    const TileDescriptor& t = d.desc;
    const bool whole = d.defines_whole_tile || d.pad;
    defined.assign(t.element_count(), whole);
    if (!whole) defined.set_rect(t.valid_rows, t.valid_cols, t.cols);
    first = &defined;
  }
}

}  // namespace ptosim::model
