// SPDX-License-Identifier: BSD-3-Clause
// The assembler accepts every form of /work/shared/scenario-format.md exactly as written (plus the
// documented extensions) and reports errors with file:line:column and what was expected.
#include <catch2/catch.hpp>

#include "model/bundle/disassembler.h"
#include "model/bundle/operation.h"
#include "model/numeric/data_type.h"
#include "tests/model/bundle/bundle_test_util.h"

namespace ptosim::model {
namespace {

using test::assemble_one;
using test::first_error;
using test::word_of;

TEST_CASE("scenario-format example program", "[bundle]") {
  const Assembly a = assemble(
      "BSTART.SFU TCOLMIN, S8\nB.DIM zero, 2, ->LB0\nB.DIM zero, 2, ->LB1\nB.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\n",
      "scenario.json");
  REQUIRE(a.ok());
  REQUIRE(a.instructions.size() == 5);
  const char* canonical[] = {"BSTART.SFU TCOLMIN, S8", "B.DIM zero, 2, ->LB0", "B.DIM zero, 2, ->LB1",
                             "B.IOT T#1, mask=1111, last, ->T<1>", "BSTOP"};
  for (int i = 0; i < 5; ++i) {
    CHECK(disassemble(a.instructions[i].body) == canonical[i]);
    CHECK(a.instructions[i].loc.line == i + 1);
    CHECK(a.instructions[i].loc.column == 1);
    CHECK(a.instructions[i].loc.file == "scenario.json");
  }
}

TEST_CASE("scenario-format forms, exactly as written", "[bundle]") {
  // BSTART.SFU <op>, <DataType> and its BSTART.TEPL synonym, for every SFU op and every DataType.
  for (unsigned mode = 0; mode < 4; ++mode)
    for (unsigned fn = 0; fn < 32; ++fn) {
      const TeplSelectorInfo* sel = tepl_selector(mode, fn);
      if (!sel || !sel->sfu) continue;
      for (DataType t : kAllDataTypes) {
        const std::string operands = std::string(sel->name) + ", " + data_type_name(t);
        const std::uint32_t expected = (data_type_code(t) << 27) | (mode << 25) | (fn << 20) | 0x19181u;
        CHECK(word_of("BSTART.SFU " + operands) == expected);
        CHECK(word_of("BSTART.TEPL " + operands) == expected);
      }
    }
  // BSTART.<cube op> <DataType> for the twelve CUBE forms.
  for (int i = 0; i < kOperationCount; ++i) {
    const OperationInfo& info = operation_info(static_cast<Operation>(i));
    if (info.engine != Engine::Cube) continue;
    CHECK(word_of(std::string("BSTART.") + info.mnemonic + " FP16") == ((4u << 27) | (info.function << 20) | 0x31181u));
  }
  CHECK(word_of("BSTART.TMATMUL.ACC FP16") == 0x20231181);
  CHECK(word_of("B.DIM zero, 16, ->LB0") == 0x01000043);
  CHECK(word_of("B.DIM r5, 16, ->LB2") == ((16u << 20) | (5u << 15) | (2u << 12) | 0x43u));
  // B.DATR field=value lists; unnamed fields encode zero.
  CHECK(word_of("B.DATR pad=max") == 0x08001023);
  CHECK(word_of("B.DATR dtype=U32, byteid=1") == ((1u << 27) | (25u << 20) | 0x1023u));
  CHECK(word_of("B.DATR dtype=none") == ((31u << 20) | 0x1023u));
  const char* pads[] = {"zero", "max", "min", "null"};
  for (unsigned i = 0; i < 4; ++i) {
    CHECK(word_of(std::string("B.DATR pad=") + pads[i]) == ((i << 27) | 0x1023u));
    CHECK(word_of("B.DATR byteid=" + std::to_string(i)) == ((i << 27) | 0x1023u));
  }
  const char* rmodes[] = {"none", "rne", "rtz", "rdn", "rup", "rna", "rto", "rhb"};
  for (unsigned i = 0; i < 8; ++i) CHECK(word_of(std::string("B.DATR rmode=") + rmodes[i]) == ((i << 15) | 0x1023u));
  const char* cmodes[] = {"eq", "ne", "lt", "gt", "le", "ge"};
  for (unsigned i = 0; i < 6; ++i) CHECK(word_of(std::string("B.DATR cmode=") + cmodes[i]) == ((i << 29) | 0x1023u));
  CHECK(word_of("B.DATR sat=1") == ((1u << 26) | 0x1023u));
  CHECK(word_of("B.DATR canon=1") == ((1u << 25) | 0x1023u));
  CHECK(word_of("B.DATR layout=NORM") == 0x1023u);
  CHECK(word_of("B.DATR layout=ND2ZN") == ((3u << 7) | 0x1023u));
  CHECK(word_of("B.DATR layout=NZ2ZN") == ((30u << 7) | 0x1023u));
  CHECK(word_of("B.DATR") == 0x1023u);
  // B.IOT with one or two sources, optional last, optional destination; destination-only.
  CHECK(word_of("B.IOT T#1, U#3, mask=1111, last, ->M<4>") ==
        ((18u << 26) | (0u << 20) | (1u << 19) | (4u << 15) | 0x4000u | (7u << 9) | (2u << 7) | 0x13u));
  CHECK(word_of("B.IOT mask=1111, last, ->T<1>") == 0x0008EE13);
  CHECK(word_of("B.IOT mask=1111, ->T<1>") == 0x0000EE13);
  CHECK(word_of("B.IOT T#1, mask=1111") == 0x00005E13);
  CHECK(word_of("B.IOT T#1, T#2, mask=1111, last") == 0x04084E13);
  // B.IOR RegSrc0, RegSrc1, RegSrc2, ->RegDst.
  CHECK(word_of("B.IOR r5, r6, zero, ->zero") == ((6u << 20) | (5u << 15) | 0x13u));
  CHECK(word_of("B.IOR r23, r1, r2, ->r3") == ((2u << 27) | (1u << 20) | (23u << 15) | (3u << 7) | 0x13u));
  // B.IOS source and destination.
  CHECK(word_of("B.IOS S7, mask=1111") == 0x00701E13);
  CHECK(word_of("B.IOS mask=1111, ->S3<2>") == ((3u << 20) | (2u << 15) | 0x1E13u));
  // B.FPATR: bare, and each field by its lower-case spec name.
  CHECK(word_of("B.FPATR") == 0x00002023);
  const struct {
    const char* field;
    unsigned value;
    unsigned lsb;
  } fpatr[] = {{"prequantmode", 33, 26}, {"relumode", 3, 23}, {"groupncode", 9, 19}, {"rowmaxen", 1, 18},
               {"groupmaxen", 1, 17},    {"rowmaxinit", 1, 16}, {"maxabsen", 1, 15},  {"transa", 1, 7},
               {"transb", 1, 8}};
  for (const auto& f : fpatr)
    CHECK(word_of(std::string("B.FPATR ") + f.field + "=" + std::to_string(f.value)) == ((f.value << f.lsb) | 0x2023u));
  CHECK(word_of("BSTOP") == 1);
}

TEST_CASE("documented extensions: shorthand, byte sizes, synonyms, case, comments", "[bundle]") {
  CHECK(word_of("B.DIM LB0=16") == word_of("B.DIM zero, 16, ->LB0"));
  CHECK(word_of("B.DIM LB1=8") == word_of("B.DIM zero, 8, ->LB1"));
  CHECK(word_of("B.IOT T#1, mask=1111, last, ->T<4KiB>") == word_of("B.IOT T#1, mask=1111, last, ->T<6>"));
  CHECK(word_of("B.IOT mask=1111, ->U<128B>") == word_of("B.IOT mask=1111, ->U<1>"));
  CHECK(word_of("B.IOT mask=1111, ->U<4kb>") == word_of("B.IOT mask=1111, ->U<6>"));
  CHECK(word_of("B.IOS mask=1111, ->S2<256KiB>") == word_of("B.IOS mask=1111, ->S2<12>"));
  CHECK(word_of("BSTART.TEPL 2, 0, FP32") == 0x0C019181);
  CHECK(word_of("BSTART.VEC TADD, FP32") == word_of("BSTART.TEPL TADD, FP32"));
  CHECK(word_of("BSTART.SFU TDIV, FP32") == word_of("BSTART.TEPL 0, 3, FP32"));
  CHECK(word_of("bstart.sfu trowsum, fp32 ; comment with T#1") == 0x0C019181);
  // Mnemonics, LB names and size suffixes in any case.
  CHECK(word_of("b.dim lb1=8") == word_of("B.DIM zero, 8, ->LB1"));
  CHECK(word_of("b.Dim zero, 8, ->lb2") == word_of("B.DIM zero, 8, ->LB2"));
  CHECK(word_of("b.iot T#1, MASK=1111, LAST, ->T<4kib>") == word_of("B.IOT T#1, mask=1111, last, ->T<6>"));
  CHECK(word_of("B.IOT mask=1111, ->U<4k>") == word_of("B.IOT mask=1111, ->U<6>"));
  CHECK(word_of("B.IOT mask=1111, ->U<4Kb>") == word_of("B.IOT mask=1111, ->U<6>"));
  CHECK(word_of("B.IOT mask=1111, ->U<128b>") == word_of("B.IOT mask=1111, ->U<1>"));
  CHECK(word_of("bStop") == word_of("BSTOP"));
  CHECK(word_of("bstart.tmatmul.acc fp16") == word_of("BSTART.TMATMUL.ACC FP16"));
  CHECK(word_of("B.IOR zero, a1, ra, ->s0") == ((10u << 27) | (3u << 20) | (11u << 7) | 0x13u));
  CHECK(word_of("B.IOR r0") == 0x13u);
  // Numbers are decimal or 0x hex everywhere, DataType codes included.
  CHECK(word_of("BSTART.SFU TROWSUM, 0x11") == word_of("BSTART.SFU TROWSUM, 17"));
  const Assembly blank = assemble("\n; only a comment\n   \n\r\n", "t.s");
  CHECK(blank.ok());
  CHECK(blank.instructions.empty());
  const Assembly crlf = assemble("BSTART.SFU TROWSUM, FP32\r\nBSTOP\r\n", "t.s");
  CHECK(crlf.ok());
  CHECK(crlf.instructions.size() == 2);
  // A zero-mask bundle naming unallocated registers assembles.
  const Assembly noop = assemble("BSTART.SFU TROWSUM, FP32\nB.IOT N#16, mask=0000, last, ->N<1>\nBSTOP\n", "t.s");
  CHECK(noop.ok());
}

TEST_CASE("reserved GPR selectors r24..r31 are expressible, ambiguous ABI names are not", "[bundle]") {
  for (unsigned r = 24; r < 32; ++r) {
    const InstructionBody b = assemble_one("B.DIM r" + std::to_string(r) + ", 0, ->LB0");
    REQUIRE(validate(b));
    CHECK(validate(b)->code == FaultCode::IllegalInstruction);
  }
  CHECK(first_error("B.IOR sp").message.find("ambiguous") != std::string::npos);
  CHECK(first_error("B.IOR a0").message.find("ambiguous") != std::string::npos);
  CHECK(first_error("B.IOR r32").message.find("expected a GPR") != std::string::npos);
}

struct ErrorCase {
  const char* text;
  int line;
  int column;
  const char* message;  ///< substring of the message
};

TEST_CASE("assembler errors carry line:column and say what was expected", "[bundle]") {
  const ErrorCase cases[] = {
      {"BSTART.SFU TROWSUM FP32", 1, 20, "expected ',' after the operation, found 'FP32'"},
      {"B.DIM zero, 16", 1, 15, "expected ',', found end of line"},
      {"B.IOT T#1, mask=1010, last, ->T<1>", 1, 17, "mask 1010 is not encodable"},
      {"FOO r1", 1, 1, "unknown mnemonic 'FOO'"},
      {"BSTART.TLOAD FP32", 1, 1, "unknown mnemonic 'BSTART.TLOAD'"},
      {"BSTART.SFU TADD, FP32", 1, 12, "TADD is a VEC operation: use BSTART.VEC (or BSTART.TEPL)"},
      {"BSTART.VEC TROWSUM, FP32", 1, 12, "TROWSUM is an SFU operation: use BSTART.SFU"},
      {"BSTART.SFU TMATMUL, FP16", 1, 12, "TMATMUL is a CUBE operation: write BSTART.TMATMUL <DataType>"},
      {"BSTART.SFU TFOO, FP32", 1, 12, "unknown TEPL operation 'TFOO'"},
      {"BSTART.SFU 2, 0, FP32", 1, 12, "numeric Mode, Function is the BSTART.TEPL form"},
      {"BSTART.TEPL 4, 0, FP32", 1, 13, "Mode 4 is out of range 0..3"},
      {"BSTART.SFU TROWSUM, FP99", 1, 21, "expected a DataType"},
      {"B.DIM zero, 131072, ->LB0", 1, 13, "uimm17 131072 is out of range 0..131071"},
      {"C.B.DIMI 256, ->LB0", 1, 10, "imm8 256 is out of range 0..255"},
      {"B.DIM zero, 1, ->LB3", 1, 18, "B.DIM writes LB0..LB2 only"},
      {"B.IOR sp, zero", 1, 7, "ambiguous"},
      {"B.IOR r1, r2, r3, r4", 1, 19, "at most three source GPRs"},
      {"B.IOT T#1, mask=1111, last, ->T<0>", 1, 31, "SizeCode 0 means no destination"},
      {"B.IOT T#1, mask=1111, ->T<100KiB>", 1, 27, "100KiB is not a destination size"},
      {"B.IOT T#1, mask=1111, ->T<9999999999999999K>", 1, 27, "9999999999999999K is not a destination size"},
      {"B.IOT T#1, mask=1111, ->T<16>", 1, 27, "SizeCode 16 does not fit its 4-bit field"},
      {"B.IOT T#1, mask=1111, ->X<1>", 1, 25, "expected a destination hand T, U, M or N, found 'X'"},
      {"B.IOT S3, mask=1111", 1, 7, "S3 is a Shared tile; bind it with B.IOS"},
      {"B.IOT mask=1111, T#1", 1, 18, "source tiles come before mask="},
      {"B.IOT mask=1111, last", 1, 7, "B.IOT needs a source tile or a destination"},
      {".tile T#1 S8 valid=1x1", 1, 1, "unknown directive '.tile' (assembly takes .word only; .tile, .data and the like belong to a program file for ptosim run)"},
      {"B.IOT T#1, last", 1, 12, "B.IOT needs mask=<PE0..PE3 bits> before last"},
      {"B.IOT T#1, ->T<1>", 1, 12, "B.IOT needs mask=<PE0..PE3 bits> before the destination"},
      {"B.IOT T#1, T#2, T#3, mask=1111", 1, 17, "at most two source tiles"},
      {"B.IOT T#1", 1, 7, "B.IOT needs mask=<PE0..PE3 bits>"},
      {"B.IOT T#1, mask=1111, last, last", 1, 29, "last given twice"},
      {"B.IOS T#1, mask=1111", 1, 7, "T#1 is a Local tile; bind it with B.IOT"},
      {"B.IOS mask=1111, ->S1<0>", 1, 22, "SizeCode 0 is the source form"},
      {"B.DATR pad=max, byteid=1", 1, 17, "pad and byteid share the PadValueOrByteId field"},
      {"B.DATR pad=max, pad=min", 1, 17, "field 'pad' given twice"},
      {"B.DATR pad=max pad=min", 1, 16, "expected ',' or end of line, found 'pad'"},
      {"B.DATR foo=1", 1, 8, "unknown B.DATR field 'foo'"},
      {"B.DATR pad=big", 1, 12, "expected pad (zero max min null or 0..3), found 'big'"},
      {"B.DATR sat=2", 1, 12, "sat 2 is out of range 0..1"},
      {"B.FPATR relumode=8", 1, 18, "relumode 8 is out of range 0..7"},
      {"B.FPATR scale=1", 1, 9, "unknown B.FPATR field 'scale'"},
      {"BSTOP now", 1, 7, "expected end of line, found 'now'"},
      {"B.IOT T#1, mask=1111, last, ->T<1> !", 1, 36, "unexpected character '!'"},
      {"B.IOT T#1 - mask", 1, 11, "unexpected character '-'"},
      {"BSTOP \xff", 1, 7, "unexpected character byte 0xff"},
      {".word 0x13", 1, 7, "encodes a 32-bit instruction unit, written with exactly 8 hex digits"},
      {".word 19", 1, 7, "expected a hexadecimal instruction unit"},
      // A list ending in ',' is missing its next item.
      {"B.IOR r1,", 1, 10, "expected a GPR or '->' after ',', found end of line"},
      {"B.DATR dtype=FP32,", 1, 19, "expected a field name after ',', found end of line"},
      {"B.FPATR transa=1,", 1, 18, "expected a field name after ',', found end of line"},
      {"C.B.DIMI 1, ->LB4", 1, 15, "expected LB0, LB1, LB2 or LB3, found 'LB4'"},
      {"B.IOR r0x1", 1, 7, "expected a GPR"},
      {"BSTART.SFU TROWSUM, 0x20", 1, 21, "expected a DataType"},
      // The end of a CRLF line is before its CR.
      {"BSTART.SFU TROWSUM\r", 1, 19, "expected ',' after the operation, found end of line"},
  };
  for (const ErrorCase& c : cases) {
    INFO(c.text);
    const AsmError e = first_error(c.text);
    CHECK(e.loc.line == c.line);
    CHECK(e.loc.column == c.column);
    CHECK(e.message.find(c.message) != std::string::npos);
  }
}

TEST_CASE("one error per bad line, good lines still assemble, formatted as file:line:column", "[bundle]") {
  const Assembly a = assemble("BSTOP\n\nB.DIM\n  BSTART.SFU TROWSUM, FP99\nC.BSTOP", "prog.s");
  REQUIRE(a.errors.size() == 2);
  CHECK(format_error(a.errors[0]) == "prog.s:3:6: error: expected a GPR (zero, r1..r31 or an ABI name), found end of line");
  CHECK(a.errors[1].loc.line == 4);
  CHECK(a.errors[1].loc.column == 23);
  REQUIRE(a.instructions.size() == 2);
  CHECK(a.instructions[1].loc.line == 5);
  CHECK(!a.ok());
  // An instruction is located at its mnemonic, indented or not (a fault names that column).
  const Assembly indented = assemble("BSTOP\n    BSTART.SFU TROWSUM, FP32\n\tBSTOP\n", "prog.s");
  REQUIRE(indented.instructions.size() == 3);
  CHECK(indented.instructions[0].loc.column == 1);
  CHECK(indented.instructions[1].loc.column == 5);
  CHECK(indented.instructions[2].loc.column == 2);
  CHECK(format_location(indented.instructions[1].loc) == "prog.s:2:5");
}

}  // namespace
}  // namespace ptosim::model
