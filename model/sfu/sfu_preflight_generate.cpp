// SPDX-License-Identifier: BSD-3-Clause
// Preflight of TCI, TTRI and THISTOGRAM (closed schemas of asl generation-schema.asl and
// histogram-schema.asl) and of TFILLPAD and TCONCAT (generic destination resolution of
// destination-shape.asl, then TileOperandsLegal_TFILLPAD / _TCONCAT).
#include <string>

#include "model/plan/preflight_support.h"
#include "model/sfu/sfu_preflight_detail.h"
#include "model/sfu/sfu_types.h"

namespace ptosim::model::sfu_detail {

namespace {

// ASL TileLayoutShapeLegal: fractal layouts need whole 16-row x 32-byte fractals.
Status require_layout_shape(const TileDescriptor& d, const std::string& what) {
  if (d.layout != Layout::ZN && d.layout != Layout::NZ) return std::nullopt;
  const std::uint32_t inner = 256 / element_bits(d.dtype);
  if (d.rows % 16 != 0 || d.cols % inner != 0)
    return legality(what + " is " + geometry(d) + "; " + layout_name(d.layout) + " needs rows % 16 == 0 and Col % " +
                    std::to_string(inner) + " == 0");
  return std::nullopt;
}

/// Destination geometry of the generic path (ASL BundleDestination{ValidRows,ValidColumns,
/// PhysicalColumns}): a non-zero LB, else the first source's descriptor, else 1 / ValidCol.
struct GenericShape {
  std::uint32_t valid_rows;
  std::uint32_t valid_cols;
  std::uint32_t cols;
};

Result<GenericShape> generic_shape(const Preflight& p) {
  auto lbs = p.lbs();
  if (!lbs) return lbs.fault();
  const auto& lb = *lbs;
  const LocalTile* shape_source = nullptr;
  if (p.operands.source_count > 0 && p.s.local(p.operands.sources[0]).allocated)
    shape_source = &p.s.local(p.operands.sources[0]);
  auto pick = [&](int i, std::uint32_t from_source, std::uint32_t fallback) {
    if (lb[i] && *lb[i] != 0) return *lb[i];
    return shape_source ? from_source : fallback;
  };
  GenericShape g;
  g.valid_rows = pick(1, shape_source ? shape_source->desc.valid_rows : 0, 1);
  g.valid_cols = pick(0, shape_source ? shape_source->desc.valid_cols : 0, 1);
  g.cols = pick(2, shape_source ? shape_source->desc.cols : 0, lb[0] && *lb[0] != 0 ? *lb[0] : 1);
  return g;
}

Layout bundle_layout(const Preflight& p) { return p.b.datr ? destination_layout(p.b.datr->layout) : Layout::RowMajor; }

}  // namespace

Status preflight_generation(Preflight& p) {
  const bool tci = p.op == Operation::TCI;
  if (p.b.iot.size() != 1)
    return legality(p.name() + " takes exactly one B.IOT; the block has " + std::to_string(p.b.iot.size()));
  // ASL SelectedBundleGenerationDimensionsLegal.
  auto lbs = p.lbs();
  if (!lbs) return lbs.fault();
  const auto& lb = *lbs;
  if (!lb[0]) return legality("LB0 (destination ValidCol) is required for " + p.name());
  if (*lb[0] == 0) return legality("LB0 (destination ValidCol) must be non-zero");
  if (lb[2] && *lb[2] < *lb[0])
    return legality("LB2 (destination Col) " + std::to_string(*lb[2]) + " is smaller than LB0 (ValidCol) " +
                    std::to_string(*lb[0]));
  if (tci && lb[1] && *lb[1] != 1)
    return legality("LB1 (destination ValidRow) is " + std::to_string(*lb[1]) + "; TCI generates exactly one row");
  if (!tci && lb[1] && *lb[1] == 0) return legality("LB1 (destination ValidRow) must be non-zero");
  if (!(tci ? sfu::tci_type(p.type) : sfu::ttri_type(p.type)))
    return legality(std::string(data_type_name(p.type)) + " is not a legal " + p.name() + " DataType");

  SfuArgs args;
  args.dst_dtype = p.type;
  args.scalars = read_scalars(p.b, p.s, p.mask);
  auto dst = p.destination(p.type, lb[1].value_or(1), *lb[0], lb[2].value_or(*lb[0]), Layout::RowMajor);
  if (!dst) return dst.fault();  // padding stays Null (TileWithPadding(TilePad_Null))
  p.plan.dests.push_back(*dst);
  p.plan.args = args;
  return std::nullopt;
}

Status preflight_histogram(Preflight& p) {
  if (p.b.iot.size() != 1)
    return legality("THISTOGRAM takes exactly one B.IOT; the block has " + std::to_string(p.b.iot.size()));
  for (int i = 0; i < 3; ++i)
    if (p.b.lb[i].present)
      return legality("THISTOGRAM takes no B.DIM (LB" + std::to_string(i) + " is present); its shape comes from the source");
  if (!p.b.datr) return legality("THISTOGRAM requires B.DATR with DataType U32 (and the ByteId)");
  if (p.b.datr->dtype_code != data_type_code(DataType::U32))
    return legality("B.DATR DataType " + std::to_string(p.b.datr->dtype_code) + " must be U32 (25) for THISTOGRAM");
  if (!sfu::histogram_source_type(p.type))
    return legality(std::string(data_type_name(p.type)) + " is not a legal THISTOGRAM source DataType (U16, U32)");
  const unsigned byte = p.b.datr->pad_or_byte_id;

  // ASL TileHistogramInputsLegal.
  auto src = p.source(p.operands.sources[0], "source");
  if (!src) return src.fault();
  if (Status f = p.require_generic_layout(*src, "source")) return *f;
  if (Status f = p.require_defined(*src, "source")) return *f;
  auto filter = p.source(p.operands.sources[1], "filter");
  if (!filter) return filter.fault();
  if (Status f = p.require_generic_layout(*filter, "filter")) return *f;
  if (src->desc.layout != Layout::RowMajor)
    return legality("source " + src->ref.name() + " is " + layout_name(src->desc.layout) + "; RowMajor is required");
  if (filter->desc.dtype != DataType::U8)
    return legality("filter " + filter->ref.name() + " is " + data_type_name(filter->desc.dtype) + "; U8 is required");
  // The seeds let BSTART select the source type; the ASL never compares the two.
  if (src->desc.dtype != p.type)
    return legality("source " + src->ref.name() + " is " + data_type_name(src->desc.dtype) + "; BSTART selects " +
                    data_type_name(p.type));
  const bool u16 = p.type == DataType::U16;
  if (u16 && byte > 1) return legality("ByteId " + std::to_string(byte) + " is not defined for a U16 source (0 or 1)");
  // Filter rows consumed: U16 ByteId 0 one per source row; U32 a global prefix of 3 - ByteId bytes.
  const std::uint32_t needed = u16 ? (byte == 0 ? src->desc.valid_rows : 0) : 3 - byte;
  if (needed > 0) {
    const TileDescriptor& fd = filter->desc;
    if (fd.valid_rows < needed || fd.valid_cols < 1)
      return legality("filter " + filter->ref.name() + " is " + geometry(fd) + "; ByteId " + std::to_string(byte) +
                      " consumes column 0 of " + std::to_string(needed) + " valid row(s)");
    const LocalTile& ft = p.s.local(filter->ref.index);
    for (int pe = 0; pe < kPeCount; ++pe)
      for (std::uint32_t r = 0; r < needed; ++r)
        if (p.mask.has(pe) && !ft.element_defined(pe, r, 0))
          return legality("filter " + filter->ref.name() + " element " + element_name(r, 0) + " on PE" +
                          std::to_string(pe) + " is undefined");
  }

  SfuArgs args;
  args.dst_dtype = DataType::U32;
  args.byte_id = byte;
  auto dst = p.destination(DataType::U32, src->desc.valid_rows, 256, 256, Layout::RowMajor);
  if (!dst) return dst.fault();
  p.plan.sources.push_back(*src);
  if (needed > 0) p.plan.sources.push_back(*filter);  // the unfiltered modes never read the filter
  p.plan.dests.push_back(*dst);
  p.plan.args = args;
  return std::nullopt;
}

Status preflight_fillpad(Preflight& p) {
  auto g = generic_shape(p);
  if (!g) return g.fault();
  auto dst = p.destination(p.type, g->valid_rows, g->valid_cols, g->cols, bundle_layout(p));
  if (!dst) return dst.fault();

  // InstructionContractDataTypeLegal_TFILLPAD, then TileOperandsLegal_TFILLPAD.
  if (!sfu::a16_type(p.type))
    return legality(std::string(data_type_name(p.type)) + " is not a legal TFILLPAD DataType");
  const TileDescriptor& dd = dst->desc;
  if (Status f = require_layout_shape(dd, "the destination")) return *f;
  auto src = p.source(p.operands.sources[0], "source");
  if (!src) return src.fault();
  if (Status f = p.require_generic_layout(*src, "source")) return *f;
  if (Status f = p.require_defined(*src, "source")) return *f;
  // Every TFILLPAD type is a raw carrier: encodings are copied, not checked (ASL).
  if (!sfu::fillpad_type(p.type))
    return legality(std::string(data_type_name(p.type)) + " is not a legal TFILLPAD DataType (at most 32-bit elements)");
  const TileDescriptor& sd = src->desc;
  if (sd.dtype != p.type)
    return legality("source " + src->ref.name() + " is " + data_type_name(sd.dtype) + "; BSTART selects " +
                    data_type_name(p.type));
  if (dd.rows < sd.rows || dd.cols < sd.cols || dd.valid_rows < sd.valid_rows || dd.valid_cols < sd.valid_cols)
    return legality("destination " + geometry(dd) + " is smaller than source " + src->ref.name() + " " +
                    geometry(sd) + " (every dimension must be at least the source's)");

  SfuArgs args;
  args.dst_dtype = p.type;
  args.scalars = read_scalars(p.b, p.s, p.mask);
  dst->defines_whole_tile = true;
  p.plan.sources.push_back(*src);
  p.plan.dests.push_back(*dst);
  p.plan.args = args;
  return std::nullopt;
}

Status preflight_concat(Preflight& p) {
  auto g = generic_shape(p);
  if (!g) return g.fault();
  auto dst = p.destination(p.type, g->valid_rows, g->valid_cols, g->cols, bundle_layout(p));
  if (!dst) return dst.fault();

  // InstructionContractDataTypeLegal_TCONCAT, then TileOperandsLegal_TCONCAT.
  if (!sfu::concat_type(p.type))
    return legality(std::string(data_type_name(p.type)) + " is not a legal TCONCAT DataType");
  const TileDescriptor& dd = dst->desc;
  auto left = p.source(p.operands.sources[0], "left source");
  if (!left) return left.fault();
  if (Status f = p.require_generic_layout(*left, "left source")) return *f;
  if (Status f = p.require_defined(*left, "left source")) return *f;
  auto right = p.source(p.operands.sources[1], "right source");
  if (!right) return right.fault();
  if (Status f = p.require_generic_layout(*right, "right source")) return *f;
  if (Status f = p.require_defined(*right, "right source")) return *f;
  for (const SourceOperand* s : {&*left, &*right})
    if (s->desc.dtype != p.type)
      return legality(std::string(s == &*left ? "left" : "right") + " source " + s->ref.name() + " is " +
                      data_type_name(s->desc.dtype) + "; BSTART selects " + data_type_name(p.type));
  // The types TileOperandsLegal_TCONCAT checks encodings for (64-bit, packed 4-bit) have no invalid ones.
  const TileDescriptor& ld = left->desc;
  const TileDescriptor& rd = right->desc;
  if (ld.valid_rows == 0) return legality("left source " + left->ref.name() + " has no valid rows");
  if (ld.valid_rows != rd.valid_rows)
    return legality("left source " + left->ref.name() + " has ValidRow " + std::to_string(ld.valid_rows) +
                    ", right source " + right->ref.name() + " " + std::to_string(rd.valid_rows) + " (they must match)");
  if (dd.valid_rows != ld.valid_rows || dd.valid_cols != ld.valid_cols + rd.valid_cols)
    return legality("destination valid shape " + std::to_string(dd.valid_rows) + "x" + std::to_string(dd.valid_cols) +
                    " must be " + std::to_string(ld.valid_rows) + "x" + std::to_string(ld.valid_cols + rd.valid_cols) +
                    " (left ValidCol + right ValidCol; set LB0)");
  // Seeds (Decision 125): sources and destination are row-major; the ASL admits every generic layout.
  for (const SourceOperand* s : {&*left, &*right})
    if (s->desc.layout != Layout::RowMajor)
      return legality(std::string(s == &*left ? "left" : "right") + " source " + s->ref.name() + " is " +
                      layout_name(s->desc.layout) + "; TCONCAT sources are RowMajor");
  if (dd.layout != Layout::RowMajor)
    return legality("B.DATR Layout " + std::to_string(p.b.datr->layout) + " gives a " + layout_name(dd.layout) +
                    " destination; TCONCAT writes RowMajor");

  SfuArgs args;
  args.dst_dtype = p.type;
  p.plan.sources.push_back(*left);
  p.plan.sources.push_back(*right);
  p.plan.dests.push_back(*dst);  // padding stays Null
  p.plan.args = args;
  return std::nullopt;
}

}  // namespace ptosim::model::sfu_detail
