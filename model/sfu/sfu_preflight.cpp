// SPDX-License-Identifier: BSD-3-Clause
// The bundle-level steps every SFU operation shares, in the order of the ASL's
// ExecuteBundleTileOperationLocallyWithAcceptedApplicabilityRules, then the per-family schema.
#include "model/sfu/sfu_preflight.h"

#include <string>

#include "model/numeric/scalar_ops.h"
#include "model/plan/preflight_support.h"
#include "model/sfu/sfu_preflight_detail.h"
#include "model/state/element_access.h"

namespace ptosim::model {

namespace sfu_detail {

Fault legality(std::string rule) { return fault(FaultCode::TileLegality, std::move(rule)); }
Fault allocation(std::string rule) { return fault(FaultCode::TileAllocation, std::move(rule)); }

std::string element_name(std::uint32_t r, std::uint32_t c) {
  return "[" + std::to_string(r) + "," + std::to_string(c) + "]";
}

std::string geometry(const TileDescriptor& d) {
  return std::string(data_type_name(d.dtype)) + " " + std::to_string(d.valid_rows) + "x" +
         std::to_string(d.valid_cols) + " of " + std::to_string(d.rows) + "x" + std::to_string(d.cols) + " " +
         layout_name(d.layout);
}

Layout destination_layout(unsigned layout_code) {
  switch (layout_code) {
    case 1: case 18: case 28: return Layout::ColumnMajor;  // ND2DN, ZN2DN, NZ2DN
    case 3: case 8: case 30: return Layout::ZN;            // ND2ZN, DN2ZN, NZ2ZN
    case 4: case 9: case 20: return Layout::NZ;            // ND2NZ, DN2NZ, ZN2NZ
    default: return Layout::RowMajor;                      // NORM, DN2ND, ZN2ND, NZ2ND
  }
}

Preflight::Preflight(const Bundle& bundle, const TileState& state, const IPayloadReader* reader, ExecPlan& out)
    : b(bundle), s(state), values(reader), op(*bundle.op), type(*data_type_from_code(bundle.dtype_code)),
      mask(bundle.mask()), plan(out) {
  for (const IotBinding& io : b.iot) {
    if (io.has_destination && !operands.destination) operands.destination = &io;
    for (unsigned i = 0; i < io.source_count; ++i)
      if (operands.source_count < operands.sources.size()) operands.sources[operands.source_count++] = io.sources[i];
      else ++operands.source_count;
  }
  plan.op = op;
  plan.dtype = type;
  plan.mask = mask;
}

Result<std::array<std::optional<std::uint32_t>, 3>> Preflight::lbs() const {
  std::array<std::optional<std::uint32_t>, 3> out;
  for (int i = 0; i < 3; ++i) {
    auto v = resolve_lb(b, s, i);
    if (!v) return v.fault();
    out[i] = *v;
  }
  return out;
}

Result<SourceOperand> Preflight::source(unsigned selector, const char* role) const {
  return local_source(s, selector, mask, role);
}

Status Preflight::require_defined(const SourceOperand& src, const char* role) const {
  const LocalTile& t = s.local(src.ref.index);
  const int pe = t.first_pe_with_undefined_region(mask);
  if (pe < 0) return std::nullopt;
  const std::uint64_t i = t.defined[pe].first_undefined_in_rect(t.desc.valid_rows, t.desc.valid_cols, t.desc.cols);
  return legality(std::string(role) + " " + src.ref.name() + " element " +
                  element_name(static_cast<std::uint32_t>(i / t.desc.cols), static_cast<std::uint32_t>(i % t.desc.cols)) +
                  " on PE" + std::to_string(pe) + " is undefined (its valid region must be defined)");
}

Status Preflight::require_valid_encodings(const SourceOperand& src, const char* role) {
  const DataType t = src.desc.dtype;
  // Only these formats have encodings that are not values (numerics.md §2).
  if (t != DataType::TF32 && t != DataType::HF32 && t != DataType::E3M2 && t != DataType::E2M3) return std::nullopt;
  if (!values) {
    plan.skipped_checks.push_back(std::string("encoding validity of ") + role + " " + src.ref.name());
    return std::nullopt;
  }
  for (int pe = 0; pe < kPeCount; ++pe) {
    if (!mask.has(pe)) continue;
    const std::uint8_t* bytes = values->fragment(TileRef::Space::Local, src.slot, pe);
    for (std::uint32_t r = 0; r < src.desc.valid_rows; ++r)
      for (std::uint32_t c = 0; c < src.desc.valid_cols; ++c)
        if (!numeric::is_valid_encoding(t, load_element(src.desc, bytes, r, c)))
          return legality(std::string(role) + " " + src.ref.name() + " element " + element_name(r, c) + " on PE" +
                          std::to_string(pe) + " is an invalid " + data_type_name(t) + " encoding");
  }
  return std::nullopt;
}

Status Preflight::require_generic_layout(const SourceOperand& src, const char* role) const {
  if (is_cube_layout(src.desc.layout))
    return legality(std::string(role) + " " + src.ref.name() + " has the CUBE layout " + layout_name(src.desc.layout) +
                    " (generic layouts only)");
  return std::nullopt;
}

Result<DestOperand> Preflight::destination(DataType t, std::uint32_t valid_rows, std::uint32_t valid_cols,
                                           std::uint32_t cols, Layout layout) const {
  const IotBinding& io = *operands.destination;
  const std::uint32_t capacity = size_code_bytes(io.size_code);
  // Register and capacity with a descriptor of the same TSize and mask that is always legal.
  TileDescriptor probe;
  probe.dtype = DataType::U8;
  probe.capacity_bytes = capacity;
  probe.rows = 2;
  probe.cols = capacity / 2;
  probe.valid_rows = 1;
  probe.valid_cols = 1;
  probe.pe_mask = mask;
  if (Status f = s.check_allocation(DestinationRequest{io.destination_hand, probe})) return *f;

  auto shape = [&] {  // fault text only
    return std::to_string(valid_rows) + "x" + std::to_string(valid_cols) + " " + data_type_name(t) +
           " destination with Col " + std::to_string(cols);
  };
  const auto rows = derived_rows(t, capacity, cols);
  if (!rows) {
    const std::string hint = size_code_hint(capacity, t, cols, valid_rows);
    return allocation("TSize " + std::to_string(capacity) + " B cannot hold the " + shape() +
                      (hint.empty() ? " (Col must be a power of two whose rows divide the TSize, at most 65535 rows)"
                                    : hint));
  }
  if (valid_cols > cols)
    return allocation("destination ValidCol " + std::to_string(valid_cols) + " exceeds its Col " + std::to_string(cols));
  if (valid_rows > *rows)
    return allocation("TSize " + std::to_string(capacity) + " B gives " + std::to_string(*rows) +
                      " rows; too small for the " + shape() + size_code_hint(capacity, t, cols, valid_rows));
  DestOperand d;
  d.hand = io.destination_hand;
  d.desc.dtype = t;
  d.desc.capacity_bytes = capacity;
  d.desc.rows = *rows;
  d.desc.cols = cols;
  d.desc.valid_rows = valid_rows;
  d.desc.valid_cols = valid_cols;
  d.desc.layout = layout;
  d.desc.location = Location::Any;
  d.desc.pe_mask = mask;
  return d;
}

namespace {

struct Schema {
  unsigned sources;     ///< Local source operands
  unsigned gpr_inputs;  ///< B.IOR RegSrc slots the operation consumes
};

bool is_expdif(Operation op) { return op == Operation::TROWEXPANDEXPDIF || op == Operation::TCOLEXPANDEXPDIF; }

Schema schema_of(Operation op) {
  switch (op) {
    case Operation::TROWEXPAND: case Operation::TCOLEXPAND: return {1, 0};
    case Operation::TROWEXPANDADD: case Operation::TROWEXPANDSUB: case Operation::TROWEXPANDMUL:
    case Operation::TROWEXPANDDIV: case Operation::TROWEXPANDMAX: case Operation::TROWEXPANDMIN:
    case Operation::TROWEXPANDEXPDIF: case Operation::TCOLEXPANDADD: case Operation::TCOLEXPANDSUB:
    case Operation::TCOLEXPANDMUL: case Operation::TCOLEXPANDDIV: case Operation::TCOLEXPANDMAX:
    case Operation::TCOLEXPANDMIN: case Operation::TCOLEXPANDEXPDIF: case Operation::TCONCAT:
    case Operation::THISTOGRAM:
      return {2, 0};
    case Operation::TFILLPAD: return {1, 1};
    case Operation::TCI: case Operation::TTRI: return {0, 2};
    default: return {1, 0};  // reductions and ARG
  }
}

// ASL BundleOperationBindingsComplete (with BundleOperationScalarBindingSchemaLegal): Fault_BundleControl.
Status check_bindings_complete(const Preflight& p) {
  const Schema schema = schema_of(p.op);
  unsigned destinations = 0;
  for (const IotBinding& io : p.b.iot) destinations += io.has_destination ? 1 : 0;
  if (destinations != 1 || p.operands.source_count != schema.sources)
    return fault(FaultCode::BundleControl,
                 p.name() + " binds 1 destination and " + std::to_string(schema.sources) +
                     " Local source(s); the block binds " + std::to_string(destinations) + " and " +
                     std::to_string(p.operands.source_count));
  if (!p.b.terminated)
    return fault(FaultCode::BundleControl, "the B.IOT binding list of " + p.name() + " is not closed by 'last'");
  if (p.b.ior) {
    for (unsigned i = schema.gpr_inputs; i < 3; ++i)
      if (p.b.ior->src[i] != 0)
        return fault(FaultCode::BundleControl, "B.IOR RegSrc" + std::to_string(i) + " must be zero: " + p.name() +
                                                   " consumes " + std::to_string(schema.gpr_inputs) + " GPR input(s)");
    if (p.b.ior->dst != 0)
      return fault(FaultCode::BundleControl, "B.IOR RegDst must be zero: " + p.name() + " writes no GPR");
  }
  return std::nullopt;
}

// ASL BundleOperationGPRBindingValuesLegal: the flag0 and diagonal GPR values, per participating PE.
Status check_gpr_values(const Preflight& p) {
  if (!p.b.ior || (p.op != Operation::TCI && p.op != Operation::TTRI)) return std::nullopt;
  const auto scalars = read_scalars(p.b, p.s, p.mask);
  const char* flag_role = p.op == Operation::TCI ? "direction" : "orientation";
  for (int pe = 0; pe < kPeCount; ++pe)
    if (p.mask.has(pe) && scalars[pe][1] > 1)
      return legality("B.IOR RegSrc1 (" + p.name() + " " + flag_role + ") is " + std::to_string(scalars[pe][1]) +
                      " on PE" + std::to_string(pe) + "; it must be exactly 0 or 1");
  if (p.op == Operation::TTRI)
    for (int pe = 0; pe < kPeCount; ++pe) {
      const auto diagonal = static_cast<std::int64_t>(scalars[pe][0]);
      if (p.mask.has(pe) && (diagonal < -65535 || diagonal > 65535))
        return legality("B.IOR RegSrc0 (TTRI diagonal) is " + std::to_string(diagonal) + " on PE" +
                        std::to_string(pe) + "; it must lie in -65535..65535");
    }
  return std::nullopt;
}

// ASL SelectedBundleTileDataAttributesLegal with the catalog datr_contract of each operation. An
// encoded zero DataType where DataType is not applicable is ignored (bundle-encoding.md §5).
Status check_datr(const Preflight& p) {
  if (!p.b.datr) return std::nullopt;
  const DatrFields& d = *p.b.datr;
  const bool layout_op = p.op == Operation::TFILLPAD || p.op == Operation::TCONCAT;
  const bool pad_ok = !layout_op && p.op != Operation::TCI && p.op != Operation::TTRI;
  const bool dtype_ok = is_expdif(p.op) || p.op == Operation::THISTOGRAM;
  auto inapplicable = [&](const std::string& field, unsigned value) {
    return legality("B.DATR " + field + " " + std::to_string(value) + " is not applicable to " + p.name() +
                    " (it must be zero)");
  };
  if (d.cmode) return inapplicable("CMode", d.cmode);
  if (!pad_ok && d.pad_or_byte_id) return inapplicable("PadValueOrByteId", d.pad_or_byte_id);
  if (d.sat) return inapplicable("Sat", 1);
  if (d.canonicalize) return inapplicable("Canonicalize", 1);
  if (!dtype_ok && d.dtype_code) return inapplicable("DataType", d.dtype_code);
  if (d.rmode) return inapplicable("RMode", d.rmode);
  if (!layout_op && d.layout) return inapplicable("Layout", d.layout);
  // Codes 21..26 select GM<->CUBE transports: TLOAD/TSTORE only.
  if (d.layout >= 21 && d.layout <= 26)
    return legality("B.DATR Layout " + std::to_string(d.layout) + " is a CUBE transport, not a " + p.name() +
                    " layout transform");
  return std::nullopt;
}

}  // namespace

}  // namespace sfu_detail

Status sfu_preflight(const Bundle& b, const TileState& s, const IPayloadReader* values, ExecPlan& plan) {
  using namespace sfu_detail;
  // Shared registers are consumed by no SFU operation (ASL BundleSharedBindingsUnconsumed).
  if (!b.ios.empty())
    return legality("B.IOS binds " + TileRef::shared(b.ios[0].shared_id).name() + " but " + b.mnemonic +
                    " consumes no Shared register");
  Preflight p(b, s, values, plan);
  if (Status f = check_bindings_complete(p)) return *f;
  if (Status f = check_gpr_values(p)) return *f;
  if (Status f = check_datr(p)) return *f;
  switch (p.op) {
    case Operation::TCI: case Operation::TTRI: return preflight_generation(p);
    case Operation::THISTOGRAM: return preflight_histogram(p);
    case Operation::TFILLPAD: return preflight_fillpad(p);
    case Operation::TCONCAT: return preflight_concat(p);
    default: break;
  }
  if (p.op >= Operation::TROWEXPAND && p.op <= Operation::TROWEXPANDEXPDIF) return preflight_expansion(p);
  if (p.op >= Operation::TCOLEXPAND && p.op <= Operation::TCOLEXPANDEXPDIF) return preflight_expansion(p);
  return preflight_reduction(p);
}

}  // namespace ptosim::model
