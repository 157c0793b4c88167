// SPDX-License-Identifier: BSD-3-Clause
// Preflight of the reductions, ARG and the expansions: the closed schemas of
// asl/block/model/dispatch/{reduction,expansion}-schema.asl, destination resolution, then the
// operand rules of TileOperandsLegal_ExecuteTile{Reduction,Expand}.
#include <string>

#include "model/bundle/field_codes.h"
#include "model/plan/preflight_support.h"
#include "model/sfu/sfu_preflight_detail.h"
#include "model/sfu/sfu_types.h"
#include "model/state/element_access.h"

namespace ptosim::model::sfu_detail {

namespace {

bool is_row_op(Operation op) { return op <= Operation::TROWARGMIN; }
bool is_arg(Operation op) {
  return op == Operation::TROWARGMAX || op == Operation::TROWARGMIN || op == Operation::TCOLARGMAX ||
         op == Operation::TCOLARGMIN;
}
bool is_copy(Operation op) { return op == Operation::TROWEXPAND || op == Operation::TCOLEXPAND; }
bool is_expdif(Operation op) { return op == Operation::TROWEXPANDEXPDIF || op == Operation::TCOLEXPANDEXPDIF; }
bool is_div(Operation op) { return op == Operation::TROWEXPANDDIV || op == Operation::TCOLEXPANDDIV; }

/// The LB geometry of the closed reduction/expansion schemas: VC = LB0, VR = LB1 or 1, Col = LB2 or LB0.
struct LbGeometry {
  std::uint32_t valid_rows;
  std::uint32_t valid_cols;
  std::uint32_t cols;
};

// Binding count, B.IOR and dimensions (ASL SelectedBundleComparisonDimensionsLegal). `what` names
// the tile the LBs describe.
Result<LbGeometry> closed_schema_prefix(const Preflight& p, const char* what) {
  if (p.b.iot.size() != 1)
    return legality(p.name() + " takes exactly one B.IOT; the block has " + std::to_string(p.b.iot.size()));
  if (p.b.ior) return legality(p.name() + " takes no B.IOR");
  auto lbs = p.lbs();
  if (!lbs) return lbs.fault();
  const auto& lb = *lbs;
  static const char* const kRole[] = {"ValidCol", "ValidRow", "Col"};
  if (!lb[0]) return legality(std::string("LB0 (") + what + " ValidCol) is required for " + p.name());
  for (int i = 0; i < 3; ++i)
    if (lb[i] && *lb[i] == 0)
      return legality("LB" + std::to_string(i) + " (" + what + " " + kRole[i] + ") must be non-zero");
  return LbGeometry{lb[1].value_or(1), *lb[0], lb[2].value_or(*lb[0])};
}

Status require_lb_shape(const SourceOperand& src, const char* role, const LbGeometry& g) {
  const TileDescriptor& d = src.desc;
  if (d.valid_rows != g.valid_rows || d.valid_cols != g.valid_cols || d.cols != g.cols)
    return legality(std::string(role) + " " + src.ref.name() + " is " + geometry(d) + "; the LBs give ValidRow " +
                    std::to_string(g.valid_rows) + ", ValidCol " + std::to_string(g.valid_cols) + ", Col " +
                    std::to_string(g.cols));
  return std::nullopt;
}

Status require_type(const SourceOperand& src, const char* role, DataType t) {
  if (src.desc.dtype != t)
    return legality(std::string(role) + " " + src.ref.name() + " is " + data_type_name(src.desc.dtype) + "; " +
                    data_type_name(t) + " is required");
  return std::nullopt;
}

Status require_row_major(const SourceOperand& src, const char* role) {
  if (src.desc.layout != Layout::RowMajor)
    return legality(std::string(role) + " " + src.ref.name() + " is " + layout_name(src.desc.layout) + "; RowMajor is required");
  return std::nullopt;
}

// ASL TileBroadcastPayloadNonzero over the broadcast elements the valid region uses.
Status require_nonzero_divisors(Preflight& p, const SourceOperand& bcast, bool row, const LbGeometry& g) {
  if (!p.values) {
    p.plan.skipped_checks.push_back("integer zero divisor in broadcast source " + bcast.ref.name());
    return std::nullopt;
  }
  const std::uint32_t n = row ? g.valid_rows : g.valid_cols;
  for (int pe = 0; pe < kPeCount; ++pe) {
    if (!p.mask.has(pe)) continue;
    const std::uint8_t* bytes = p.values->fragment(TileRef::Space::Local, bcast.slot, pe);
    for (std::uint32_t i = 0; i < n; ++i)
      if (load_element(bcast.desc, bytes, row ? i : 0, row ? 0 : i) == 0)
        return legality(std::string("integer zero divisor in broadcast ") + (row ? "row " : "column ") +
                        std::to_string(i) + " (element " + element_name(row ? i : 0, row ? 0 : i) + " of " +
                        bcast.ref.name() + ") on PE" + std::to_string(pe));
  }
  return std::nullopt;
}

}  // namespace

Status preflight_reduction(Preflight& p) {
  const bool row = is_row_op(p.op);
  auto g = closed_schema_prefix(p, "source");
  if (!g) return g.fault();
  // ARG sources follow the seeds (A16), not the ASL's A9 (docs/isa-coverage.md).
  if (!sfu::a16_type(p.type))
    return legality(std::string(data_type_name(p.type)) + " is not a legal " + p.name() + " DataType");
  auto src = p.source(p.operands.sources[0], "source");
  if (!src) return src.fault();
  if (Status f = p.require_generic_layout(*src, "source")) return *f;
  if (Status f = require_type(*src, "source", p.type)) return *f;
  if (Status f = require_row_major(*src, "source")) return *f;
  if (src->desc.valid_rows == 0 || src->desc.valid_cols == 0)
    return legality("source " + src->ref.name() + " has an empty valid region");
  if (Status f = require_lb_shape(*src, "source", *g)) return *f;
  if (Status f = p.require_defined(*src, "source")) return *f;
  if (Status f = p.require_valid_encodings(*src, "source")) return *f;

  // ASL ResolveBundleTileDestinationsForOperation, closed reduction branch.
  SfuArgs args;
  args.dst_dtype = is_arg(p.op) ? DataType::U32 : p.type;
  auto dst = row ? p.destination(args.dst_dtype, g->valid_rows, 1, 1, Layout::RowMajor)
                 : p.destination(args.dst_dtype, 1, g->valid_cols, g->cols, Layout::RowMajor);
  if (!dst) return dst.fault();
  dst->pad = pad_encoding(p.b, args.dst_dtype);

  p.plan.sources.push_back(*src);
  p.plan.dests.push_back(*dst);
  p.plan.args = args;
  return std::nullopt;
}

Status preflight_expansion(Preflight& p) {
  const bool row = is_row_op(p.op);
  const bool copy = is_copy(p.op);
  auto g = closed_schema_prefix(p, "destination");
  if (!g) return g.fault();
  DataType dst_type = p.type;
  if (is_expdif(p.op)) {
    if (!sfu::expdif_source_type(p.type))
      return legality(std::string(data_type_name(p.type)) + " is not a legal " + p.name() + " source DataType");
    const auto d = sfu::expdif_destination(p.type, p.b.datr);
    if (!d) {
      // Reached only through a present B.DATR: its DataType names the destination (0 is FP64).
      return legality(std::string(p.name()) + " has no (source " + data_type_name(p.type) + ", destination " +
                      data_type_text(p.b.datr->dtype_code) +
                      " from B.DATR) type pair; legal: same-type FP64 FP32 TF32 HF32 FP16 BF16 E4M3 E5M2, FP16/BF16 to FP32");
    }
    dst_type = *d;
  } else if (!sfu::a16_type(p.type)) {
    return legality(std::string(data_type_name(p.type)) + " is not a legal " + p.name() + " DataType");
  }

  auto bcast = p.source(p.operands.sources[copy ? 0 : 1], "broadcast source");
  if (!bcast) return bcast.fault();
  if (Status f = p.require_generic_layout(*bcast, "broadcast source")) return *f;
  if (Status f = require_type(*bcast, "broadcast source", p.type)) return *f;
  if (Status f = require_row_major(*bcast, "broadcast source")) return *f;
  if (Status f = p.require_defined(*bcast, "broadcast source")) return *f;
  if (Status f = p.require_valid_encodings(*bcast, "broadcast source")) return *f;
  const TileDescriptor& bd = bcast->desc;
  const bool bshape = row ? bd.valid_rows == g->valid_rows && bd.valid_cols == 1 && bd.cols == 1
                          : bd.valid_rows == 1 && bd.valid_cols == g->valid_cols && bd.cols == g->cols;
  if (!bshape)
    return legality("broadcast source " + bcast->ref.name() + " is " + geometry(bd) +
                    (row ? "; a row broadcast needs ValidRow " + std::to_string(g->valid_rows) + ", ValidCol 1, Col 1"
                         : "; a column broadcast needs ValidRow 1, ValidCol " + std::to_string(g->valid_cols) +
                               ", Col " + std::to_string(g->cols)));

  std::optional<SourceOperand> src;
  if (!copy) {
    auto s0 = p.source(p.operands.sources[0], "source");
    if (!s0) return s0.fault();
    if (Status f = p.require_generic_layout(*s0, "source")) return *f;
    if (Status f = require_type(*s0, "source", p.type)) return *f;
    if (Status f = require_row_major(*s0, "source")) return *f;
    if (Status f = p.require_defined(*s0, "source")) return *f;
    if (Status f = p.require_valid_encodings(*s0, "source")) return *f;
    if (Status f = require_lb_shape(*s0, "source", *g)) return *f;
    if (is_div(p.op) && is_integer(p.type))
      if (Status f = require_nonzero_divisors(p, *bcast, row, *g)) return *f;
    src = *s0;
  }

  SfuArgs args;
  args.dst_dtype = dst_type;
  auto dst = p.destination(dst_type, g->valid_rows, g->valid_cols, g->cols, Layout::RowMajor);
  if (!dst) return dst.fault();
  // TileShapeAndTypeMatch / TileLogicalShapeMatch: the full-shape source and the destination have
  // the same physical rows (same TSize; twice the source TSize for a mixed EXPDIF pair).
  if (src && src->desc.rows != dst->desc.rows)
    return legality("source " + src->ref.name() + " has " + std::to_string(src->desc.rows) +
                    " physical rows; the destination's TSize gives " + std::to_string(dst->desc.rows));
  dst->pad = pad_encoding(p.b, dst_type);

  if (src) p.plan.sources.push_back(*src);
  p.plan.sources.push_back(*bcast);
  p.plan.dests.push_back(*dst);
  p.plan.args = args;
  return std::nullopt;
}

}  // namespace ptosim::model::sfu_detail
