// SPDX-License-Identifier: BSD-3-Clause
#include "model/bundle/disassembler.h"

#include "model/bundle/field_codes.h"
#include "model/bundle/operation.h"
#include "model/common/pe_mask.h"
#include "model/state/tile_ref.h"

namespace ptosim::model {

namespace {

/// Appends ", name=value" (or " name=value" for the first field).
void add_field(std::string& text, bool& first, const char* name, const std::string& value) {
  text += first ? " " : ", ";
  text += name;
  text += '=';
  text += value;
  first = false;
}

std::string mask_text(unsigned pe_mode) { return "mask=" + PeMask::from_pe_mode(pe_mode).to_string(); }

/// "T#1".."N#16"; out-of-range selectors (only in unencodable instructions) print numerically.
std::string local_tile_text(unsigned selector) {
  return selector < kLocalTileCount ? TileRef::local(selector).name() : "tile" + std::to_string(selector);
}

std::string hand_text(unsigned hand) { return hand < 4 ? std::string(1, kHandLetters[hand]) : std::to_string(hand); }

std::string text_of(const BStartTepl& s) {
  if (const TeplSelectorInfo* sel = tepl_selector(s.mode, s.function))
    return std::string(sel->sfu ? "BSTART.SFU " : "BSTART.VEC ") + sel->name + ", " + data_type_text(s.dtype);
  return "BSTART.TEPL " + std::to_string(s.mode) + ", " + std::to_string(s.function) + ", " +
         data_type_text(s.dtype);
}

std::string text_of(const BStartCube& s) {
  if (const auto op = cube_operation(s.function))
    return std::string("BSTART.") + operation_mnemonic(*op) + " " + data_type_text(s.dtype);
  return "BSTART (CUBE Function " + std::to_string(s.function) + ") " + data_type_text(s.dtype);
}

std::string text_of(const BDim& d) {
  return "B.DIM " + gpr_name(d.reg) + ", " + std::to_string(d.imm) + ", ->LB" + std::to_string(d.lb);
}

std::string text_of(const CBDimi& d) {
  return "C.B.DIMI " + std::to_string(d.imm) + ", ->LB" + std::to_string(d.lb);
}

std::string text_of(const BDatr& d) {
  const DatrFields& f = d.fields;
  std::string text = "B.DATR";
  bool first = true;
  if (f.dtype_code != 0) add_field(text, first, "dtype", data_type_text(f.dtype_code));
  if (f.pad_or_byte_id != 0) add_field(text, first, "pad", pad_name(f.pad_or_byte_id));
  if (f.rmode != 0) add_field(text, first, "rmode", rmode_name(f.rmode));
  if (f.sat) add_field(text, first, "sat", "1");
  if (f.layout != 0) {
    const char* name = datr_layout_name(f.layout);
    add_field(text, first, "layout", name ? name : std::to_string(f.layout));
  }
  if (f.cmode != 0) {
    const char* name = cmode_name(f.cmode);
    add_field(text, first, "cmode", name ? name : std::to_string(f.cmode));
  }
  if (f.canonicalize) add_field(text, first, "canon", "1");
  return text;
}

std::string text_of(const BFpatr& d) {
  const FpatrFields& f = d.fields;
  std::string text = "B.FPATR";
  bool first = true;
  const struct {
    const char* name;
    unsigned value;
  } fields[] = {
      {"prequantmode", f.prequant_mode}, {"relumode", f.relu_mode},     {"groupncode", f.group_n_code},
      {"rowmaxen", f.row_max_en},        {"groupmaxen", f.group_max_en}, {"rowmaxinit", f.row_max_init},
      {"maxabsen", f.max_abs_en},        {"transa", f.trans_a},          {"transb", f.trans_b},
  };
  for (const auto& field : fields)
    if (field.value != 0) add_field(text, first, field.name, std::to_string(field.value));
  return text;
}

std::string text_of(const BIor& d) {
  const IorFields& f = d.fields;
  return "B.IOR " + gpr_name(f.src[0]) + ", " + gpr_name(f.src[1]) + ", " + gpr_name(f.src[2]) + ", ->" +
         gpr_name(f.dst);
}

std::string text_of(const BIot& d) {
  std::string text = "B.IOT ";
  for (unsigned i = 0; i < d.source_count && i < 2; ++i) text += local_tile_text(d.sources[i]) + ", ";
  text += mask_text(d.pe_mode);
  if (d.last) text += ", last";
  if (d.has_destination)
    text += ", ->" + hand_text(d.hand) + "<" + std::to_string(d.size_code) + ">";
  return text;
}

std::string text_of(const BIos& d) {
  const std::string tile = TileRef::shared(d.shared_id).name();
  if (d.size_code == 0) return "B.IOS " + tile + ", " + mask_text(d.pe_mode);
  return "B.IOS " + mask_text(d.pe_mode) + ", ->" + tile + "<" + std::to_string(d.size_code) + ">";
}

std::string text_of(const BStop&) { return "BSTOP"; }
std::string text_of(const CBStop&) { return "C.BSTOP"; }
std::string text_of(const LBStop&) { return "L.BSTOP"; }
std::string text_of(const RawUnit& r) { return ".word 0x" + hex_digits(Encoding{r.bits, r.width_bits}); }

}  // namespace

std::string instruction_text(const InstructionBody& body) {
  return std::visit([](const auto& b) { return text_of(b); }, body);
}

std::string disassemble(const InstructionBody& body) {
  const std::string text = instruction_text(body);
  const Result<Encoding> encoding = encode(body);
  if (!encoding) return text + "  ; not encodable: " + encoding.fault().rule;
  const std::string word = ".word 0x" + hex_digits(*encoding) + "  ; ";
  if (std::holds_alternative<RawUnit>(body)) return word + "IllegalInstruction: " + validate(body)->rule;
  if (const Status illegal = validate(body)) return word + text + " -- IllegalInstruction: " + illegal->rule;
  if (const auto* iot = std::get_if<BIot>(&body); iot && iot->ignored_bits != 0)
    return word + text + " -- bits [8:7] = " + std::to_string(iot->ignored_bits) +
           " are not decoded by the source-only form";
  return text;
}

}  // namespace ptosim::model
