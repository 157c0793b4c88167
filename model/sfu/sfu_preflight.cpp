// SPDX-License-Identifier: BSD-3-Clause
#include "model/sfu/sfu_preflight.h"

#include <string>

#include "model/numeric/scalar_ops.h"
#include "model/plan/preflight_support.h"
#include "model/state/element_access.h"

namespace ptosim::model {

namespace {

Fault legality(std::string rule) { return fault(FaultCode::TileLegality, std::move(rule)); }

// TileVecArithmeticDataTypeSupported (A16).
bool a16(DataType t) {
  switch (t) {
    case DataType::FP64: case DataType::FP32: case DataType::TF32: case DataType::HF32:
    case DataType::FP16: case DataType::BF16: case DataType::E4M3: case DataType::E5M2:
    case DataType::S64: case DataType::S32: case DataType::S16: case DataType::S8:
    case DataType::U64: case DataType::U32: case DataType::U16: case DataType::U8:
      return true;
    default:
      return false;
  }
}

bool is_row_reduction(Operation op) { return op >= Operation::TROWSUM && op <= Operation::TROWARGMIN && (op <= Operation::TROWPROD || op >= Operation::TROWARGMAX); }
bool is_col_reduction(Operation op) { return op >= Operation::TCOLSUM && op <= Operation::TCOLARGMIN && (op <= Operation::TCOLPROD || op >= Operation::TCOLARGMAX); }
bool is_arg(Operation op) {
  return op == Operation::TROWARGMAX || op == Operation::TROWARGMIN || op == Operation::TCOLARGMAX ||
         op == Operation::TCOLARGMIN;
}

// Only the fields named in `allowed` may be non-zero in a present B.DATR (catalog datr_contract).
Status check_datr(const Bundle& b, bool pad_allowed) {
  if (!b.datr) return std::nullopt;
  const DatrFields& d = *b.datr;
  if (d.cmode) return legality("B.DATR.CMode must be zero for " + b.mnemonic);
  if (!pad_allowed && d.pad_or_byte_id) return legality("B.DATR.PadValueOrByteId must be zero for " + b.mnemonic);
  if (d.sat) return legality("B.DATR.Sat must be zero for " + b.mnemonic);
  if (d.canonicalize) return legality("B.DATR.Canonicalize must be zero for " + b.mnemonic);
  if (d.dtype_code) return legality("B.DATR.DataType must be zero for " + b.mnemonic);
  if (d.rmode) return legality("B.DATR.RMode must be zero for " + b.mnemonic);
  if (d.layout) return legality("B.DATR.Layout must be zero for " + b.mnemonic);
  return std::nullopt;
}

// Every element of the source's valid rectangle, on every participating PE, has a valid encoding.
Status check_encodings(const SourceOperand& src, PeMask mask, const IPayloadReader* values, const char* role,
                       std::vector<std::string>& skipped) {
  const DataType t = src.desc.dtype;
  bool constrained = t == DataType::TF32 || t == DataType::HF32 || t == DataType::E3M2 || t == DataType::E2M3;
  if (!constrained) return std::nullopt;
  if (!values) {
    skipped.push_back(std::string("encoding validity of ") + role + " " + src.ref.name());
    return std::nullopt;
  }
  for (int pe = 0; pe < kPeCount; ++pe) {
    if (!mask.has(pe)) continue;
    const std::uint8_t* bytes = values->fragment(TileRef::Space::Local, src.slot, pe);
    for (std::uint32_t r = 0; r < src.desc.valid_rows; ++r)
      for (std::uint32_t c = 0; c < src.desc.valid_cols; ++c)
        if (!numeric::is_valid_encoding(t, load_element(src.desc, bytes, r, c)))
          return legality(std::string(role) + " " + src.ref.name() + " element [" + std::to_string(r) + "," +
                          std::to_string(c) + "] on PE" + std::to_string(pe) + " is an invalid " + data_type_name(t) +
                          " encoding");
  }
  return std::nullopt;
}

Status check_defined(const TileState& s, const SourceOperand& src, PeMask mask, const char* role) {
  const LocalTile& t = s.local(src.ref.index);
  for (int pe = 0; pe < kPeCount; ++pe)
    if (mask.has(pe) && !t.valid_region_defined(pe))
      return legality(std::string(role) + " " + src.ref.name() + " has an undefined element in its valid region on PE" +
                      std::to_string(pe));
  return std::nullopt;
}

// Row and column reductions and ARG (asl reduction-schema.asl, reduction-and-expansion.asl).
Result<ExecPlan> preflight_reduction(const Bundle& b, const TileState& s, const IPayloadReader* values, DataType t) {
  const bool row = is_row_reduction(*b.op);
  if (b.iot.size() != 1 || !b.ios.empty())
    return legality(b.mnemonic + " binds exactly one Local B.IOT and no B.IOS");
  if (b.ior) return legality(b.mnemonic + " takes no B.IOR");
  const IotBinding& io = b.iot[0];
  if (io.source_count != 1 || !io.has_destination || !io.last)
    return legality(b.mnemonic + " binding must be 'B.IOT Src, mask, last, ->Dst<size>'");
  if (auto f = check_datr(b, true)) return *f;
  if (!a16(t)) return legality(std::string(data_type_name(t)) + " is not a legal " + b.mnemonic + " DataType");

  auto lb0 = resolve_lb(b, s, 0);
  if (!lb0) return lb0.fault();
  auto lb1 = resolve_lb(b, s, 1);
  if (!lb1) return lb1.fault();
  auto lb2 = resolve_lb(b, s, 2);
  if (!lb2) return lb2.fault();
  if (!*lb0) return legality("LB0 (source ValidCol) is required for " + b.mnemonic);
  for (int i = 0; i < 3; ++i) {
    const auto& v = i == 0 ? *lb0 : i == 1 ? *lb1 : *lb2;
    if (v && *v == 0) return legality("LB" + std::to_string(i) + " must be non-zero");
  }
  const std::uint32_t vc = **lb0, vr = lb1->value_or(1), col = lb2->value_or(vc);

  const PeMask mask = b.mask();
  auto src = local_source(s, io.sources[0], mask, "source");
  if (!src) return src.fault();
  const TileDescriptor& sd = src->desc;
  if (sd.layout != Layout::RowMajor) return legality("source " + src->ref.name() + " must be RowMajor");
  if (sd.dtype != t)
    return legality("source " + src->ref.name() + " is " + data_type_name(sd.dtype) + ", BSTART selects " + data_type_name(t));
  if (sd.valid_rows != vr || sd.valid_cols != vc || sd.cols != col)
    return legality("source " + src->ref.name() + " geometry " + std::to_string(sd.valid_rows) + "x" +
                    std::to_string(sd.valid_cols) + " (Col " + std::to_string(sd.cols) + ") does not match LB geometry " +
                    std::to_string(vr) + "x" + std::to_string(vc) + " (Col " + std::to_string(col) + ")");
  if (auto f = check_defined(s, *src, mask, "source")) return *f;

  ExecPlan plan;
  plan.op = *b.op;
  plan.dtype = t;
  plan.mask = mask;
  if (auto f = check_encodings(*src, mask, values, "source", plan.skipped_checks)) return *f;

  SfuArgs args;
  args.dst_dtype = is_arg(*b.op) ? DataType::U32 : t;
  DestOperand dst;
  dst.hand = io.destination_hand;
  dst.desc.dtype = args.dst_dtype;
  dst.desc.capacity_bytes = size_code_bytes(io.size_code);
  dst.desc.cols = row ? 1 : col;
  dst.desc.valid_rows = row ? vr : 1;
  dst.desc.valid_cols = row ? 1 : vc;
  dst.desc.layout = Layout::RowMajor;
  dst.desc.location = Location::Any;
  dst.desc.pe_mask = mask;
  const auto rows = derived_rows(dst.desc.dtype, dst.desc.capacity_bytes, dst.desc.cols);
  if (!rows || *rows < dst.desc.valid_rows)
    return fault(FaultCode::TileAllocation, "destination TSize " + std::to_string(dst.desc.capacity_bytes) +
                                                " B cannot hold a " + std::to_string(dst.desc.valid_rows) + "x" +
                                                std::to_string(dst.desc.valid_cols) + " " +
                                                data_type_name(dst.desc.dtype) + " result with Col " +
                                                std::to_string(dst.desc.cols));
  dst.desc.rows = *rows;
  dst.pad = pad_encoding(b, dst.desc.dtype);

  plan.sources.push_back(*src);
  plan.dests.push_back(dst);
  plan.args = args;
  return plan;
}

}  // namespace

Result<ExecPlan> sfu_preflight(const Bundle& b, const TileState& s, const IPayloadReader* values) {
  const DataType t = *data_type_from_code(b.dtype_code);
  if (is_row_reduction(*b.op) || is_col_reduction(*b.op)) return preflight_reduction(b, s, values, t);
  return fault(FaultCode::IllegalInstruction, b.mnemonic + " is not yet modelled by ptosim");
}

}  // namespace ptosim::model
