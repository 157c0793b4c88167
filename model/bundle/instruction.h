// SPDX-License-Identifier: BSD-3-Clause
// Instruction: one bundle instruction of a form ptosim models, field by field as encoded (reserved
// values included), plus the instruction-level legality check of those field values.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>

#include "model/bundle/bundle.h"
#include "model/common/result.h"

namespace ptosim::model {

/// BSTART.TEPL carrier (spelled BSTART.SFU, BSTART.VEC or BSTART.TEPL): [31:27] DataType,
/// [26:25] Mode, [24:20] Function, [19:0] 0x19181.
struct BStartTepl {
  std::uint8_t dtype = 0;
  std::uint8_t mode = 0;
  std::uint8_t function = 0;

  bool operator==(const BStartTepl& o) const { return dtype == o.dtype && mode == o.mode && function == o.function; }
};

/// BSTART.<CUBE op>: [31:27] DataType, [24:20] CUBE Function, [26:25] 00, [19:0] 0x31181.
struct BStartCube {
  std::uint8_t dtype = 0;
  std::uint8_t function = 0;

  bool operator==(const BStartCube& o) const { return dtype == o.dtype && function == o.function; }
};

/// B.DIM RegSrc, uimm17, ->LB<lb> (lb 0..2 selects the form).
struct BDim {
  std::uint8_t lb = 0;
  std::uint8_t reg = 0;   ///< GPR selector (24..31 reserved)
  std::uint32_t imm = 0;  ///< 17-bit unsigned immediate

  bool operator==(const BDim& o) const { return lb == o.lb && reg == o.reg && imm == o.imm; }
};

/// C.B.DIMI imm8, ->LB<lb> (16-bit; lb is the LoopNest field, 3 reserved).
struct CBDimi {
  std::uint8_t lb = 0;
  std::uint8_t imm = 0;

  bool operator==(const CBDimi& o) const { return lb == o.lb && imm == o.imm; }
};

struct BDatr {
  DatrFields fields;

  bool operator==(const BDatr& o) const { return fields == o.fields; }
};

struct BFpatr {
  FpatrFields fields;

  bool operator==(const BFpatr& o) const { return fields == o.fields; }
};

struct BIor {
  IorFields fields;  ///< selectors 24..31 reserved

  bool operator==(const BIor& o) const { return fields == o.fields; }
};

/// B.IOT in one of its five forms, chosen by (source_count, has_destination):
/// (2, yes) funct3 100, (2, no) 100 with SizeCode 0, (1, yes) 101, (1, no) 101 with SizeCode 0,
/// (0, yes) 110. (0, no) has no encoding.
struct BIot {
  std::uint8_t source_count = 0;          ///< 0, 1 or 2
  std::array<std::uint8_t, 2> sources{};  ///< SrcTile0 [25:20], SrcTile1 [31:26]: Local 0..63
  bool has_destination = false;
  std::uint8_t hand = 0;       ///< DstTile [8:7]: 0 T, 1 U, 2 M, 3 N
  std::uint8_t size_code = 0;  ///< SizeCode [18:15]; destination forms: 1..10 legal, 0 and 11..15 reserved
  std::uint8_t pe_mode = 0;    ///< PEMode [11:9]
  bool last = false;           ///< L [19]
  /// Source-only forms do not decode bits [8:7]; kept so the word re-encodes exactly.
  std::uint8_t ignored_bits = 0;

  bool operator==(const BIot& o) const {
    return source_count == o.source_count && sources == o.sources && has_destination == o.has_destination &&
           hand == o.hand && size_code == o.size_code && pe_mode == o.pe_mode && last == o.last &&
           ignored_bits == o.ignored_bits;
  }
};

/// B.IOS: source (SizeCode 0) or destination (SizeCode 1..12; 13..15 reserved) Shared binding.
struct BIos {
  std::uint8_t shared_id = 0;  ///< SharedTID [27:20]: S0..S255
  std::uint8_t size_code = 0;  ///< [18:15]
  std::uint8_t pe_mode = 0;    ///< [11:9]

  bool operator==(const BIos& o) const { return shared_id == o.shared_id && size_code == o.size_code && pe_mode == o.pe_mode; }
};

/// 0x00000001
struct BStop {
  bool operator==(const BStop&) const { return true; }
};
/// 16-bit 0x0000
struct CBStop {
  bool operator==(const CBStop&) const { return true; }
};
/// 64-bit: low word 0x0000000F, high word 0x00000001
struct LBStop {
  bool operator==(const LBStop&) const { return true; }
};

/// An instruction unit that matches no form ptosim models. `bits` is right-aligned; a 64-bit unit
/// is (high word << 32) | low word. The width always agrees with the unit's length code.
struct RawUnit {
  std::uint64_t bits = 0;
  std::uint8_t width_bits = 32;  ///< 16, 32, 48 or 64

  bool operator==(const RawUnit& o) const { return bits == o.bits && width_bits == o.width_bits; }
};

/// Each operator== above compares every field: the ProgramFrontEnd replays a block decoded before
/// when its instructions' bodies are equal.
using InstructionBody = std::variant<BStartTepl, BStartCube, BDim, CBDimi, BDatr, BFpatr, BIor, BIot,
                                     BIos, BStop, CBStop, LBStop, RawUnit>;

/// same_body over the alternatives I...: a fold of index tests, which the compiler inlines where
/// the variant's own == calls through a table.
template <std::size_t... I>
inline bool same_body(const InstructionBody& a, const InstructionBody& b, std::index_sequence<I...>) {
  if (a.index() != b.index()) return false;
  bool same = a.valueless_by_exception();  // as b is then
  (void)((a.index() == I && ((same = *std::get_if<I>(&a) == *std::get_if<I>(&b)), true)) || ...);
  return same;
}
/// a == b, as the ProgramFrontEnd asks it of every instruction of every block it replays.
inline bool same_body(const InstructionBody& a, const InstructionBody& b) {
  return same_body(a, b, std::make_index_sequence<std::variant_size_v<InstructionBody>>{});
}

/// One instruction and where it came from.
struct Instruction {
  InstructionBody body;
  SourceLoc loc;
};

/// Whether `body` opens a block (a BSTART of either family).
inline bool is_bstart(const InstructionBody& body) {
  return std::holds_alternative<BStartTepl>(body) || std::holds_alternative<BStartCube>(body);
}

/// Mnemonic of an instruction as its canonical assembly spells it: "BSTART.SFU", "BSTART.VEC",
/// "BSTART.TMATMUL.ACC", "B.IOT", ...; "BSTART.TEPL" for an unassigned TEPL selector, ".word" for
/// a RawUnit.
std::string instruction_mnemonic(const InstructionBody& body);

/// The operation a BSTART names as BSTART spells it ("TROWSUM", "TMATMUL.ACC", a TEPL catalog
/// name), or "" when the selector or CUBE Function is unassigned or `body` is not a BSTART.
std::string bstart_operation_mnemonic(const InstructionBody& body);

/// Instruction-level legality of the encoded field values, as the decoder checks them before any
/// placement rule (ASL ExecuteCommandInstruction: no matching form, CommandFormOperandsLegal, and
/// BundleOperationDescriptorLegal for BSTART). Returns Fault_IllegalInstruction naming the field
/// and value, or nothing. Applies equally to decoded and assembled instructions.
Status validate(const InstructionBody& body);

/// "file:line:column", "file:+0x<offset>" for a binary, or just "file".
std::string format_location(const SourceLoc& loc);

}  // namespace ptosim::model
