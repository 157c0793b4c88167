// SPDX-License-Identifier: BSD-3-Clause
#include "model/bundle/block_builder.h"

#include "model/bundle/field_codes.h"
#include "model/bundle/operation.h"
#include "model/state/tile_ref.h"

namespace ptosim::model {

namespace {

constexpr const char* kLbNames[] = {"LB0", "LB1", "LB2"};

/// ASL BundleFPATRFieldsLegal, the consistency part (the reserved codes are decode checks).
std::optional<std::string> fpatr_inconsistency(const FpatrFields& f) {
  if (f.row_max_init && !f.row_max_en) return "B.FPATR RowMaxInit=1 requires RowMaxEn=1";
  if (!f.group_max_en && f.group_n_code != 0)
    return "B.FPATR GroupNCode " + std::to_string(f.group_n_code) + " requires GroupMaxEn=1";
  if (f.group_max_en && f.group_n_code == 0) return "B.FPATR GroupMaxEn=1 requires a non-zero GroupNCode";
  if (f.max_abs_en && !f.row_max_en && !f.group_max_en) return "B.FPATR MaxAbsEn=1 requires RowMaxEn or GroupMaxEn";
  return std::nullopt;
}

}  // namespace

std::string format_block_fault(const BlockFault& f) {
  std::string where = f.block_index >= 0
                          ? "block " + std::to_string(f.block_index) + " (" + f.block_mnemonic + ")"
                          : "outside any block (" + f.block_mnemonic + ")";
  return format_location(f.loc) + ": Fault_" + fault_code_name(f.fault.code) + " in " + where + " at " +
         f.instruction + ": " + f.fault.rule;
}

FeedResult BlockBuilder::reject(const Instruction& inst, FaultCode code, std::string rule) const {
  BlockFault f{Fault{code, std::move(rule)}, inst.loc, instruction_mnemonic(inst.body), -1, ""};
  if (m_active) {
    f.block_index = m_bundle->index;
    f.block_mnemonic = m_bundle->mnemonic;
  } else {
    const std::string op = bstart_operation_mnemonic(inst.body);
    f.block_mnemonic = op.empty() ? f.instruction : op;
  }
  FeedResult result;
  result.fault = std::move(f);
  return result;
}

FeedResult BlockBuilder::feed(const Instruction& inst) {
  // ASL ExecuteCommandInstruction: an undecodable word or a catalog field constraint (and, for
  // BSTART, BundleOperationDescriptorLegal) rejects before any placement rule.
  if (Status illegal = validate(inst.body)) return reject(inst, illegal->code, std::move(illegal->rule));

  if (is_bstart(inst.body)) return start(inst);
  const auto* iot = std::get_if<BIot>(&inst.body);
  const auto* ios = std::get_if<BIos>(&inst.body);
  if ((iot && iot->pe_mode == 0) || (ios && ios->pe_mode == 0)) {
    // PEMode 000: strict no-op before placement, stream and mask checks; inside an open header it
    // only records that a zero-participation binding was seen (_BundleZeroParticipationSeen).
    if (m_active) m_bundle->zero_mask_binding_seen = true;
    return {};
  }
  const bool is_stop = std::holds_alternative<BStop>(inst.body) || std::holds_alternative<CBStop>(inst.body) ||
                       std::holds_alternative<LBStop>(inst.body);
  if (is_stop) return stop(inst);
  // Every header command handler of ExecuteDecodedBundleCommand requires an active block header
  // (for B.IOT / B.IOS only once the mask is non-zero, above).
  if (!m_active)
    return reject(inst, FaultCode::BundleControl, instruction_mnemonic(inst.body) + " outside an active block header");

  if (const auto* d = std::get_if<BDim>(&inst.body)) {
    // ASL SetBundleDimension: each LB is write-once per block across B.DIM and C.B.DIMI.
    DimField& lb = m_bundle->lb[d->lb];
    if (lb.present) return reject(inst, FaultCode::BundleControl, std::string(kLbNames[d->lb]) + " written twice in one block");
    lb = DimField{true, d->reg, d->imm};
    return {};
  }
  if (const auto* d = std::get_if<CBDimi>(&inst.body)) {
    DimField& lb = m_bundle->lb[d->lb];
    if (lb.present) return reject(inst, FaultCode::BundleControl, std::string(kLbNames[d->lb]) + " written twice in one block");
    lb = DimField{true, 0, d->imm};
    return {};
  }
  if (const auto* d = std::get_if<BDatr>(&inst.body)) {
    // ASL SetBundleDataAttributes handler: at most one B.DATR per block.
    if (m_bundle->datr) return reject(inst, FaultCode::BundleControl, "duplicate B.DATR in one block");
    m_bundle->datr = d->fields;
    return {};
  }
  if (const auto* d = std::get_if<BFpatr>(&inst.body)) {
    // ASL BundleFixedPointAttributesCanBePlaced, then SetBundleFixedPointAttributeState.
    if (m_bundle->fpatr) return reject(inst, FaultCode::BundleControl, "duplicate B.FPATR in one block");
    if (m_bundle->kind != StartKind::Cube)
      return reject(inst, FaultCode::BundleControl, "B.FPATR in a non-CUBE block (" + m_bundle->mnemonic + ")");
    if (m_bundle->ior || !m_bundle->iot.empty() || !m_bundle->ios.empty())
      return reject(inst, FaultCode::BundleControl, "B.FPATR after a B.IOR/B.IOT/B.IOS binding; it must precede them");
    if (auto why = fpatr_inconsistency(d->fields)) return reject(inst, FaultCode::TileLegality, std::move(*why));
    m_bundle->fpatr = d->fields;
    ++m_bundle->fpatr_count;
    return {};
  }
  if (const auto* d = std::get_if<BIor>(&inst.body)) {
    // ASL BindBundleScalarIO handler: at most one B.IOR per block.
    if (m_bundle->ior) return reject(inst, FaultCode::BundleControl, "duplicate B.IOR in one block");
    m_bundle->ior = d->fields;
    return {};
  }
  if (iot) {
    const BIot* d = iot;
    // ASL BindBundleTileIO handler: closed stream -> BundleControl; a mask that differs from an
    // earlier effective binding -> TileLegality (BundleTileMaskCanAppend compares Local bindings
    // only; the B.IOT/B.IOS contract requires one mask for every binding, so Shared ones count too);
    // more than PTO_BUNDLE_TILE_BINDING_COUNT bindings -> TileLegality (AddBundleTileBinding).
    if (m_bundle->terminated)
      return reject(inst, FaultCode::BundleControl, "B.IOT after the binding list was closed by 'last'");
    const PeMask mask = PeMask::from_pe_mode(d->pe_mode);
    if ((!m_bundle->iot.empty() || !m_bundle->ios.empty()) && mask != m_bundle->mask())
      return reject(inst, FaultCode::TileLegality,
                    "B.IOT mask " + mask.to_string() + " differs from the block's mask " + m_bundle->mask().to_string());
    if (m_bundle->iot.size() == kMaxTileBindings)
      return reject(inst, FaultCode::TileLegality, "more than 16 effective B.IOT bindings in one block");
    IotBinding b;
    b.source_count = d->source_count;
    b.sources = d->sources;
    b.has_destination = d->has_destination;
    b.destination_hand = d->hand;
    b.size_code = d->size_code;
    b.mask = mask;
    b.last = d->last;
    m_bundle->iot.push_back(b);
    m_bundle->terminated = d->last;
    return {};
  }
  // B.IOS (the only remaining form). ASL BindBundleSharedIO: mask check (against every binding,
  // BundleSharedMaskCanAppend) -> TileLegality, then duplicate Sx or a fifth binding -> BundleControl.
  const BIos& s = *ios;
  const PeMask mask = PeMask::from_pe_mode(s.pe_mode);
  if ((!m_bundle->iot.empty() || !m_bundle->ios.empty()) && mask != m_bundle->mask())
    return reject(inst, FaultCode::TileLegality,
                  "B.IOS mask " + mask.to_string() + " differs from the block's mask " + m_bundle->mask().to_string());
  for (const IosBinding& other : m_bundle->ios)
    if (other.shared_id == s.shared_id)
      return reject(inst, FaultCode::BundleControl, TileRef::shared(s.shared_id).name() + " bound twice by B.IOS in one block");
  if (m_bundle->ios.size() == kMaxSharedBindings)
    return reject(inst, FaultCode::BundleControl, "fifth effective B.IOS in one block (at most 4)");
  m_bundle->ios.push_back(IosBinding{s.shared_id, s.size_code, mask});
  return {};
}

FeedResult BlockBuilder::start(const Instruction& inst) {
  // ASL ExecuteDecodedBundleStartWithAcceptedApplicabilityRules: the descriptor is legal (checked
  // by validate), so an active predecessor is completed first, then the new block begins with
  // cleared header state (ClearBundleHeaderState, BeginBundleAt).
  FeedResult result;
  if (m_active) result.completed = std::move(*m_bundle);
  m_bundle.emplace();
  if (const auto* s = std::get_if<BStartTepl>(&inst.body)) {
    m_bundle->kind = StartKind::Tepl;
    m_bundle->dtype_code = s->dtype;
    m_bundle->mode = s->mode;
    m_bundle->function = s->function;
    m_bundle->op = tepl_operation(s->mode, s->function);
  } else {
    const BStartCube& c = std::get<BStartCube>(inst.body);
    m_bundle->kind = StartKind::Cube;
    m_bundle->dtype_code = c.dtype;
    m_bundle->function = c.function;
    m_bundle->op = cube_operation(c.function);
  }
  m_bundle->mnemonic = bstart_operation_mnemonic(inst.body);
  m_bundle->loc = inst.loc;
  m_bundle->index = m_started++;
  m_active = true;
  return result;
}

FeedResult BlockBuilder::stop(const Instruction& inst) {
  // ASL CompleteBundleAtWithAcceptedApplicabilityRules: no active block -> BundleControl.
  if (!m_active)
    return reject(inst, FaultCode::BundleControl, instruction_mnemonic(inst.body) + " with no active block");
  m_active = false;
  FeedResult result;
  result.completed = std::move(*m_bundle);  // start() clears m_bundle for the next block
  return result;
}

std::optional<BlockFault> BlockBuilder::finish() const {
  if (!m_active) return std::nullopt;
  return BlockFault{Fault{FaultCode::BundleControl, "block not closed by BSTOP before the end of the program"},
                    m_bundle->loc, "end of program", m_bundle->index, m_bundle->mnemonic};
}

ProgramBlocks build_blocks(const std::vector<Instruction>& program) {
  ProgramBlocks out;
  BlockBuilder builder;
  for (const Instruction& inst : program) {
    FeedResult r = builder.feed(inst);
    if (r.completed) out.bundles.push_back(std::move(*r.completed));
    if (r.fault) {
      out.fault = std::move(r.fault);
      return out;
    }
  }
  out.fault = builder.finish();
  return out;
}

}  // namespace ptosim::model
