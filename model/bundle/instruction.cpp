// SPDX-License-Identifier: BSD-3-Clause
#include "model/bundle/instruction.h"

#include <cstdio>

#include "model/bundle/encoding.h"
#include "model/bundle/field_codes.h"
#include "model/bundle/operation.h"
#include "model/numeric/data_type.h"

namespace ptosim::model {

namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

Status illegal(std::string rule) { return fault(FaultCode::IllegalInstruction, std::move(rule)); }

Status illegal_bstart_data_type(unsigned code) {
  if (code == kDataTypeNoneCode) return illegal("BSTART DataType 31 (DTYPE_NONE) is illegal in BSTART");
  return illegal("BSTART DataType " + std::to_string(code) + " is reserved (assigned: 0..14, 16..20, 24..28)");
}

// The fault text apart (illegal_bstart_data_type), so this check is small enough to inline.
Status check_bstart_data_type(unsigned code) {
  if (bstart_data_type_assigned(code)) return std::nullopt;  // never 31 (DTYPE_NONE)
  return illegal_bstart_data_type(code);
}

Status reserved_gpr(const char* form, const char* field, unsigned selector) {
  return illegal(std::string(form) + " " + field + " " + std::to_string(selector) +
                 " is reserved (GPR selectors are 0..23)");
}

// The fault text apart, so this check is small enough to inline: B.DIM asks it three times a bundle.
Status check_gpr(const char* form, const char* field, unsigned selector) {
  if (selector < kGprSelectorCount) return std::nullopt;
  return reserved_gpr(form, field, selector);
}

Status validate_fields(const BStartTepl& s) {
  if (Status f = check_bstart_data_type(s.dtype)) return f;
  if (!tepl_selector(s.mode, s.function)) {
    char sel[8];
    std::snprintf(sel, sizeof sel, "0x%03X", (s.mode << 5) | s.function);
    return illegal("BSTART.TEPL Mode " + std::to_string(s.mode) + " Function " + std::to_string(s.function) +
                   " (selector " + sel + ") is unassigned");
  }
  return std::nullopt;
}

Status validate_fields(const BStartCube& s) {
  if (!cube_operation(s.function))
    return illegal("CUBE BSTART Function " + std::to_string(s.function) + " is unassigned");
  return check_bstart_data_type(s.dtype);
}

Status validate_fields(const BDim& d) { return check_gpr("B.DIM", "RegSrc", d.reg); }

Status validate_fields(const CBDimi& d) {
  if (d.lb == 3) return illegal("C.B.DIMI LoopNest 3 is reserved (0..2 select LB0..LB2)");
  return std::nullopt;
}

Status validate_fields(const BDatr& d) {
  const DatrFields& f = d.fields;
  if (!datr_data_type_assigned(f.dtype_code))
    return illegal("B.DATR DataType " + std::to_string(f.dtype_code) +
                   " is reserved (assigned: 0..14, 16..20, 24..28, 31 = DTYPE_NONE)");
  if (!cmode_name(f.cmode)) return illegal("B.DATR CMode " + std::to_string(f.cmode) + " is reserved (0..5)");
  if (!datr_layout_name(f.layout)) return illegal("B.DATR Layout " + std::to_string(f.layout) + " is unassigned");
  return std::nullopt;
}

Status validate_fields(const BFpatr& d) {
  const FpatrFields& f = d.fields;
  if (!fpatr_prequant_mode_assigned(f.prequant_mode))
    return illegal("B.FPATR PreQuantMode " + std::to_string(f.prequant_mode) +
                   " is reserved (assigned: 0..5, 12, 13, 16..20, 23..28, 32..39)");
  if (!fpatr_relu_mode_assigned(f.relu_mode))
    return illegal("B.FPATR ReluMode " + std::to_string(f.relu_mode) + " is reserved (0..3)");
  if (!fpatr_group_n_code_assigned(f.group_n_code))
    return illegal("B.FPATR GroupNCode " + std::to_string(f.group_n_code) + " is reserved (0..9)");
  return std::nullopt;
}

Status validate_fields(const BIor& d) {
  const char* names[] = {"RegSrc0", "RegSrc1", "RegSrc2"};
  for (int i = 0; i < 3; ++i)
    if (Status f = check_gpr("B.IOR", names[i], d.fields.src[i])) return f;
  return check_gpr("B.IOR", "RegDst", d.fields.dst);
}

Status validate_fields(const BIot& d) {
  if (d.has_destination && (d.size_code == 0 || d.size_code > kIotMaxSizeCode))
    return illegal("B.IOT destination SizeCode " + std::to_string(d.size_code) +
                   " is reserved (destination forms take 1..10)");
  return std::nullopt;
}

Status validate_fields(const BIos& d) {
  if (d.size_code > kIosMaxSizeCode)
    return illegal("B.IOS SizeCode " + std::to_string(d.size_code) + " is reserved (0 source, 1..12 destination)");
  return std::nullopt;
}

Status validate_fields(const BStop&) { return std::nullopt; }
Status validate_fields(const CBStop&) { return std::nullopt; }
Status validate_fields(const LBStop&) { return std::nullopt; }

Status validate_fields(const RawUnit& r) {
  return illegal(std::to_string(r.width_bits) + "-bit instruction 0x" + hex_digits(Encoding{r.bits, r.width_bits}) +
                 " matches no bundle instruction form ptosim models");
}

}  // namespace

std::string instruction_mnemonic(const InstructionBody& body) {
  return std::visit(
      Overloaded{
          [](const BStartTepl& s) -> std::string {
            const TeplSelectorInfo* sel = tepl_selector(s.mode, s.function);
            if (!sel) return "BSTART.TEPL";
            return sel->sfu ? "BSTART.SFU" : "BSTART.VEC";
          },
          [](const BStartCube& s) -> std::string {
            const auto op = cube_operation(s.function);
            return op ? std::string("BSTART.") + operation_mnemonic(*op) : std::string("BSTART (CUBE)");
          },
          [](const BDim&) -> std::string { return "B.DIM"; },
          [](const CBDimi&) -> std::string { return "C.B.DIMI"; },
          [](const BDatr&) -> std::string { return "B.DATR"; },
          [](const BFpatr&) -> std::string { return "B.FPATR"; },
          [](const BIor&) -> std::string { return "B.IOR"; },
          [](const BIot&) -> std::string { return "B.IOT"; },
          [](const BIos&) -> std::string { return "B.IOS"; },
          [](const BStop&) -> std::string { return "BSTOP"; },
          [](const CBStop&) -> std::string { return "C.BSTOP"; },
          [](const LBStop&) -> std::string { return "L.BSTOP"; },
          [](const RawUnit&) -> std::string { return ".word"; },
      },
      body);
}

std::string bstart_operation_mnemonic(const InstructionBody& body) {
  if (const auto* s = std::get_if<BStartTepl>(&body)) {
    const TeplSelectorInfo* sel = tepl_selector(s->mode, s->function);
    return sel ? sel->name : "";
  }
  if (const auto* s = std::get_if<BStartCube>(&body)) {
    const auto op = cube_operation(s->function);
    return op ? operation_mnemonic(*op) : "";
  }
  return "";
}

Status validate(const InstructionBody& body) {
  if (!encoding(body)) return encode(body).fault();  // encode() only to name the field
  return std::visit([](const auto& b) { return validate_fields(b); }, body);
}

std::string format_location(const SourceLoc& loc) {
  if (loc.line > 0) return loc.file.str() + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.column);
  if (loc.offset >= 0) {
    char buf[32];
    std::snprintf(buf, sizeof buf, ":+0x%llx", static_cast<unsigned long long>(loc.offset));
    return loc.file.str() + buf;
  }
  return loc.file.str();
}

}  // namespace ptosim::model
