// SPDX-License-Identifier: BSD-3-Clause
// Exact encodings of every bundle form against words computed by hand from the bit layouts of
// spec/bundle-encoding.md, the worked encodings of its §12, the raw vectors of
// spec/data/pto-isa-0583-encoding-totality.json, the reserved-value list of §11, and stream decoding.
#include <catch2/catch.hpp>

#include <algorithm>

#include "model/bundle/disassembler.h"
#include "model/bundle/encoding.h"
#include "model/bundle/operation.h"
#include "tests/model/bundle/bundle_test_util.h"

namespace ptosim::model {
namespace {

using test::assemble_one;
using test::word_of;

struct Worked {
  const char* text;
  std::uint32_t word;
  const char* canonical;  ///< disassembly of the word
};

TEST_CASE("worked encodings of bundle-encoding.md section 12", "[bundle]") {
  const Worked table[] = {
      {"BSTART.SFU TROWSUM, FP32", 0x0C019181, "BSTART.SFU TROWSUM, FP32"},
      {"BSTART.SFU TCOLMIN, S8", 0x9D219181, "BSTART.SFU TCOLMIN, S8"},
      {"B.DIM zero, 16, ->LB0", 0x01000043, "B.DIM zero, 16, ->LB0"},
      {"B.DIM zero, 8, ->LB1", 0x00801043, "B.DIM zero, 8, ->LB1"},
      {"B.IOT T#1, mask=1111, last, ->T<1>", 0x0008DE13, "B.IOT T#1, mask=1111, last, ->T<1>"},
      {"B.IOT T#1, T#2, mask=1111, last, ->U<2>", 0x04094E93, "B.IOT T#1, T#2, mask=1111, last, ->U<2>"},
      {"B.IOT mask=1111, last, ->T<1>", 0x0008EE13, "B.IOT mask=1111, last, ->T<1>"},
      {"B.DATR pad=zero", 0x00001023, "B.DATR"},  // Pad=Zero, all else 0
      {"B.DATR pad=max", 0x08001023, "B.DATR pad=max"},
      {"B.DATR dtype=FP32", 0x00101023, "B.DATR dtype=FP32"},
      {"B.DATR dtype=U32, byteid=3", 0x19901023, "B.DATR dtype=U32, pad=null"},
      {"B.IOR r2", 0x00010013, "B.IOR r2, zero, zero, ->zero"},  // RegSrc0 = 2, other fields 0
      {"BSTART.TMATMUL FP16", 0x20031181, "BSTART.TMATMUL FP16"},
      {"BSTART.TMATMULMX.ACC E4M3", 0x38631181, "BSTART.TMATMULMX.ACC E4M3"},
      {"B.FPATR", 0x00002023, "B.FPATR"},
      {"BSTOP", 0x00000001, "BSTOP"},
  };
  for (const Worked& w : table) {
    INFO(w.text);
    CHECK(word_of(w.text) == w.word);
    const InstructionBody decoded = decode(w.word, 32);
    CHECK(!validate(decoded));
    CHECK(disassemble(decoded) == w.canonical);
  }
}

struct Sample {
  const char* text;
  std::uint64_t word;
  unsigned width;
};

TEST_CASE("hand-computed encodings of every form", "[bundle]") {
  const Sample table[] = {
      // BSTART.TEPL carrier: DataType [31:27], Mode [26:25], Function [24:20], 0x19181.
      {"BSTART.SFU TCOLARGMIN, U16", (26u << 27) | (2u << 25) | (29u << 20) | 0x19181u, 32},  // 0xD5D19181
      {"BSTART.SFU THISTOGRAM, U8", (27u << 27) | (3u << 25) | (8u << 20) | 0x19181u, 32},
      {"BSTART.VEC TFMA, BF16", (5u << 27) | (0u << 25) | (28u << 20) | 0x19181u, 32},
      {"BSTART.SFU TDIVS, HF32", (3u << 27) | (1u << 25) | (3u << 20) | 0x19181u, 32},
      {"BSTART.TEPL 3, 20, S4X2", (20u << 27) | (3u << 25) | (20u << 20) | 0x19181u, 32},  // TPARTMIN
      // CUBE starts: DataType [31:27], Function [24:20], [26:25] = 0, 0x31181.
      {"BSTART.TMATMUL.BIAS HiF8", (6u << 27) | (1u << 20) | 0x31181u, 32},
      {"BSTART.TGEMVMX.BIAS BF16", 0x29531181, 32},  // (5 << 27) | (21 << 20) | 0x31181
      {"BSTART.TGEMV.ACC S8", (19u << 27) | (18u << 20) | 0x31181u, 32},
      // B.DIM: uimm[11:0] [31:20], RegSrc [19:15], LB [14:12], uimm[16:12] [11:7], 0x43.
      // r7, uimm 0x1ABCD, LB2: 0xBCD << 20 | 7 << 15 | 2 << 12 | 0x1A << 7 | 0x43.
      {"B.DIM r7, 0x1ABCD, ->LB2", 0xBCD3AD43, 32},
      {"B.DIM r23, 131071, ->LB1", (0xFFFu << 20) | (23u << 15) | (1u << 12) | (0x1Fu << 7) | 0x43u, 32},
      // C.B.DIMI: LoopNest [15:14], imm8 [13:6], 0x3C.
      {"C.B.DIMI 255, ->LB1", 0x7FFC, 16},  // 1 << 14 | 255 << 6 | 0x3C
      {"C.B.DIMI 0, ->LB0", 0x003C, 16},
      // B.DATR: CMode [31:29], Pad [28:27], Sat [26], Canon [25], DataType [24:20], RMode [17:15],
      // 001 [14:12], Layout [11:7], 0x23. GE=5, Null=3, DTYPE_NONE=31, RHB=7, NZ2ZN=30.
      {"B.DATR dtype=none, pad=null, rmode=rhb, sat=1, layout=NZ2ZN, cmode=ge, canon=1", 0xBFF39F23, 32},
      {"B.DATR layout=ND2M16, rmode=rne", (22u << 7) | (1u << 15) | 0x1023u, 32},
      // B.FPATR: PreQuantMode [31:26], ReluMode [25:23], GroupNCode [22:19], RowMaxEn [18],
      // GroupMaxEn [17], RowMaxInit [16], MaxAbsEn [15], 010 [14:12], TransB [8], TransA [7], 0x23.
      {"B.FPATR prequantmode=39, relumode=3, groupncode=9, rowmaxen=1, groupmaxen=1, rowmaxinit=1, "
       "maxabsen=1, transa=1, transb=1",
       0x9DCFA1A3, 32},
      {"B.FPATR transa=1", 0x000020A3, 32},
      // B.IOR: RegSrc2 [31:27], RegSrc1 [24:20], RegSrc0 [19:15], RegDst [11:7], 0x13.
      {"B.IOR r1, r2, r23, ->r9", (23u << 27) | (2u << 20) | (1u << 15) | (9u << 7) | 0x13u, 32},  // 0xB8208493
      // B.IOT two sources + destination: SrcTile1 [31:26], SrcTile0 [25:20], L [19], SizeCode [18:15],
      // 100, PEMode [11:9], DstTile [8:7]. N#16 = 63, M#1 = 32, mask 0001 = PEMode 100, U = 1.
      {"B.IOT N#16, M#1, mask=0001, ->U<10>", 0x83F54893, 32},
      // two sources, source-only (SizeCode 0): U#16 = 31, T#3 = 2, mask 1100 = PEMode 101.
      {"B.IOT T#3, U#16, mask=1100, last", 0x7C284A13, 32},
      // one source + destination (101): U#2 = 17, mask 1110 = PEMode 110, N = 3, SizeCode 7.
      {"B.IOT U#2, mask=1110, last, ->N<7>", 0x011BDD93, 32},
      // one source, source-only: M#5 = 36, mask 0100 = PEMode 010.
      {"B.IOT M#5, mask=0100", 0x02405413, 32},
      // destination only (110): mask 0010 = PEMode 011, M = 2, SizeCode 10.
      {"B.IOT mask=0010, ->M<10>", 0x00056713, 32},
      // B.IOS: SharedTID [27:20], SizeCode [18:15], 001, PEMode [11:9], 0x13.
      {"B.IOS S255, mask=1000", 0x0FF01213, 32},
      {"B.IOS mask=0001, ->S0<12>", (12u << 15) | (4u << 9) | 0x1013u, 32},  // 0x00061813
      {"BSTOP", 0x00000001, 32},
      {"C.BSTOP", 0x0000, 16},
      {"L.BSTOP", 0x000000010000000FULL, 64},  // low word 0x0000000F, high word 0x00000001
  };
  for (const Sample& s : table) {
    INFO(s.text);
    const Result<Encoding> e = encode(assemble_one(s.text));
    REQUIRE(e.ok());
    CHECK(e->bits == s.word);
    CHECK(e->width_bits == s.width);
    CHECK(unit_length_bits(static_cast<std::uint16_t>(s.word)) == s.width);
    CHECK(!validate(decode(s.word, s.width)));
  }
}

TEST_CASE("memory image: little-endian units, 64-bit forms low word first", "[bundle]") {
  std::vector<std::uint8_t> bytes;
  append_bytes(*encode(assemble_one("BSTART.SFU TROWSUM, FP32")), bytes);
  append_bytes(*encode(assemble_one("C.B.DIMI 16, ->LB2")), bytes);
  append_bytes(*encode(assemble_one("L.BSTOP")), bytes);
  const std::vector<std::uint8_t> expected = {0x81, 0x91, 0x01, 0x0C, 0x3C, 0x84,
                                              0x0F, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00};
  CHECK(bytes == expected);
}

TEST_CASE("encoding-totality raw vectors", "[bundle]") {
  const struct {
    std::uint32_t raw;
    const char* name;
  } positive[] = {{0xC0019181, "TADD"}, {0xC1A19181, "TSEL"}, {0xC1C19181, "TFMA"},
                  {0xC6819181, "THISTOGRAM"}, {0xC6C19181, "TSORT"}};
  for (const auto& p : positive) {
    const InstructionBody b = decode(p.raw, 32);
    INFO(p.name);
    REQUIRE(std::holds_alternative<BStartTepl>(b));
    CHECK(!validate(b));
    CHECK(bstart_operation_mnemonic(b) == p.name);
    CHECK(std::get<BStartTepl>(b).dtype == 24);  // U64
  }
  // Every negative vector (TADDC and TFMOD share 0xC1819181, listed once).
  const std::uint32_t reserved[] = {0xC0E19181, 0xC2F19181, 0xC6119181, 0xC6919181, 0xC7519181,
                                    0xC7619181, 0xC7719181, 0xC7819181, 0xC7919181, 0xC7A19181,
                                    0xC7B19181, 0xC7C19181, 0xC7D19181, 0xC1819181, 0xC1919181,
                                    0xC2519181, 0xC2E19181, 0xC3819181, 0xC3919181};
  for (const std::uint32_t raw : reserved) {
    INFO(raw);
    const InstructionBody b = decode(raw, 32);
    REQUIRE(std::holds_alternative<BStartTepl>(b));
    const Status f = validate(b);
    REQUIRE(f);
    CHECK(f->code == FaultCode::IllegalInstruction);
    CHECK(f->rule.find("unassigned") != std::string::npos);
  }
  // The pre-0.58.0 TADD encoding matches no form at all.
  const InstructionBody old = decode(0xC2001181, 32);
  CHECK(std::holds_alternative<RawUnit>(old));
  REQUIRE(validate(old));
  CHECK(validate(old)->code == FaultCode::IllegalInstruction);
}

TEST_CASE("TEPL raw space: 2175 accepted, 128 illegal (DataType 31), 1793 reserved", "[bundle]") {
  int accepted = 0, illegal = 0, reserved = 0;
  for (std::uint32_t dtype = 0; dtype < 32; ++dtype)
    for (std::uint32_t mode = 0; mode < 4; ++mode)
      for (std::uint32_t fn = 0; fn < 32; ++fn) {
        const std::uint32_t w = (dtype << 27) | (mode << 25) | (fn << 20) | 0x19181u;
        const InstructionBody b = decode(w, 32);
        REQUIRE(std::holds_alternative<BStartTepl>(b));
        if (!validate(b))
          ++accepted;
        else if (dtype == 31)
          ++illegal;
        else
          ++reserved;
      }
  CHECK(accepted == 2175);
  CHECK(illegal == 128);
  CHECK(reserved == 1793);
}

TEST_CASE("CUBE BSTART words: twelve assigned functions, everything else matches no form", "[bundle]") {
  int forms = 0;
  for (std::uint32_t fn = 0; fn < 32; ++fn)
    for (std::uint32_t high = 0; high < 4; ++high) {  // bits [26:25] must be 00
      const std::uint32_t w = (4u << 27) | (high << 25) | (fn << 20) | 0x31181u;
      const InstructionBody b = decode(w, 32);
      const bool assigned = high == 0 && cube_operation(fn).has_value();
      CHECK(std::holds_alternative<BStartCube>(b) == assigned);
      CHECK(static_cast<bool>(validate(b)) == !assigned);
      forms += assigned;
    }
  CHECK(forms == 12);
}

TEST_CASE("every reserved field value of section 11 raises IllegalInstruction naming field and value",
          "[bundle]") {
  const struct {
    std::uint64_t word;
    unsigned width;
    const char* field;
    const char* value;
  } cases[] = {
      {(15u << 27) | 0x19181u, 32, "DataType", "15"},
      {(21u << 27) | (2u << 25) | 0x19181u, 32, "DataType", "21"},
      {(29u << 27) | (2u << 25) | 0x19181u, 32, "DataType", "29"},
      {(30u << 27) | (2u << 25) | 0x19181u, 32, "DataType", "30"},
      {(31u << 27) | (2u << 25) | 0x19181u, 32, "DataType", "31"},
      {(23u << 27) | 0x31181u, 32, "DataType", "23"},  // BSTART.TMATMUL
      {(31u << 27) | (22u << 20) | 0x31181u, 32, "DataType", "31"},
      {(1u << 27) | (2u << 25) | (14u << 20) | 0x19181u, 32, "Function", "14"},
      {(1u << 27) | (3u << 25) | (31u << 20) | 0x19181u, 32, "Function", "31"},
      {(15u << 20) | 0x1023u, 32, "DataType", "15"},  // B.DATR
      {(6u << 29) | 0x1023u, 32, "CMode", "6"},
      {(7u << 29) | 0x1023u, 32, "CMode", "7"},
      {(2u << 7) | 0x1023u, 32, "Layout", "2"},
      {(29u << 7) | 0x1023u, 32, "Layout", "29"},
      {(11u << 15) | (7u << 9) | 0x6013u, 32, "SizeCode", "11"},  // B.IOT destination only
      {(15u << 15) | (7u << 9) | 0x4013u, 32, "SizeCode", "15"},  // two sources + destination
      {(12u << 15) | (7u << 9) | 0x5013u, 32, "SizeCode", "12"},  // one source + destination
      {(7u << 9) | 0x6013u, 32, "SizeCode", "0"},                 // SizeCode 0 on the destination-only form
      {(13u << 15) | (7u << 9) | 0x1013u, 32, "SizeCode", "13"},  // B.IOS
      {(15u << 15) | 0x1013u, 32, "SizeCode", "15"},
      {(24u << 15) | 0x43u, 32, "RegSrc", "24"},  // B.DIM
      {(31u << 15) | 0x2043u, 32, "RegSrc", "31"},
      {(24u << 15) | 0x13u, 32, "RegSrc0", "24"},  // B.IOR
      {(25u << 20) | 0x13u, 32, "RegSrc1", "25"},
      {(30u << 27) | 0x13u, 32, "RegSrc2", "30"},
      {(31u << 7) | 0x13u, 32, "RegDst", "31"},
      {(3u << 14) | (255u << 6) | 0x3Cu, 16, "LoopNest", "3"},  // C.B.DIMI
      {(6u << 26) | 0x2023u, 32, "PreQuantMode", "6"},          // B.FPATR
      {(40u << 26) | 0x2023u, 32, "PreQuantMode", "40"},
      {(63u << 26) | 0x2023u, 32, "PreQuantMode", "63"},
      {(4u << 23) | 0x2023u, 32, "ReluMode", "4"},
      {(7u << 23) | 0x2023u, 32, "ReluMode", "7"},
      {(10u << 19) | 0x2023u, 32, "GroupNCode", "10"},
      {(15u << 19) | 0x2023u, 32, "GroupNCode", "15"},
  };
  for (const auto& c : cases) {
    INFO(std::hex << c.word);
    const InstructionBody b = decode(c.word, c.width);
    REQUIRE(!std::holds_alternative<RawUnit>(b));
    const Status f = validate(b);
    REQUIRE(f);
    CHECK(f->code == FaultCode::IllegalInstruction);
    CHECK(f->rule.find(std::string(c.field) + " " + c.value) != std::string::npos);
  }
}

TEST_CASE("decode-reserved code sets are exactly the catalog constraints", "[bundle]") {
  const std::vector<unsigned> prequant = {0,  1,  2,  3,  4,  5,  12, 13, 16, 17, 18, 19, 20, 23,
                                          24, 25, 26, 27, 28, 32, 33, 34, 35, 36, 37, 38, 39};
  for (unsigned pq = 0; pq < 64; ++pq) {
    const bool assigned = std::find(prequant.begin(), prequant.end(), pq) != prequant.end();
    CHECK(!validate(decode((pq << 26) | 0x2023u, 32)) == assigned);
  }
  const std::vector<unsigned> layouts = {0, 1, 3, 4, 6, 8, 9, 17, 18, 20, 21, 22, 23, 24, 25, 26, 27, 28, 30};
  for (unsigned code = 0; code < 32; ++code) {
    const bool assigned = std::find(layouts.begin(), layouts.end(), code) != layouts.end();
    CHECK(!validate(decode((code << 7) | 0x1023u, 32)) == assigned);
  }
  for (unsigned dtype = 0; dtype < 32; ++dtype) {
    const bool reserved = dtype == 15 || (dtype >= 21 && dtype <= 23) || dtype == 29 || dtype == 30;
    CHECK(!validate(decode((dtype << 20) | 0x1023u, 32)) == !reserved);  // B.DATR also accepts 31
  }
  for (unsigned size = 0; size < 16; ++size) {
    CHECK(!validate(decode((size << 15) | (7u << 9) | 0x6013u, 32)) == (size >= 1 && size <= 10));
    CHECK(!validate(decode((size << 15) | (7u << 9) | 0x1013u, 32)) == (size <= 12));
  }
}

TEST_CASE("B.IOT overlaps: SizeCode 0 selects the source-only form, whose bits [8:7] are not decoded",
          "[bundle]") {
  // Two sources, SizeCode 0, DstTile bits 11: the narrow source-only form wins.
  const std::uint32_t w = (1u << 26) | (1u << 19) | (7u << 9) | (3u << 7) | 0x4013u;
  const InstructionBody b = decode(w, 32);
  REQUIRE(std::holds_alternative<BIot>(b));
  const BIot& iot = std::get<BIot>(b);
  CHECK(iot.source_count == 2);
  CHECK(!iot.has_destination);
  CHECK(iot.ignored_bits == 3);
  CHECK(!validate(b));
  CHECK(encode(b)->bits == w);
  CHECK(disassemble(b) == ".word 0x04084f93  ; B.IOT T#1, T#2, mask=1111, last -- bits [8:7] = 3 are not "
                          "decoded by the source-only form");
  // Same word with SizeCode 1: the destination form.
  const InstructionBody d = decode(w | (1u << 15), 32);
  REQUIRE(std::holds_alternative<BIot>(d));
  CHECK(std::get<BIot>(d).has_destination);
  CHECK(std::get<BIot>(d).hand == 3);
  // funct3 101 with bits [31:26] set and funct3 111 match no form.
  CHECK(std::holds_alternative<RawUnit>(decode((1u << 26) | 0x5013u, 32)));
  CHECK(std::holds_alternative<RawUnit>(decode(0x7013u, 32)));
  // Fixed bits of B.IOS and B.FPATR.
  CHECK(std::holds_alternative<RawUnit>(decode((1u << 28) | 0x1013u, 32)));
  CHECK(std::holds_alternative<RawUnit>(decode((1u << 19) | 0x1013u, 32)));
  CHECK(std::holds_alternative<RawUnit>(decode((1u << 7) | 0x1013u, 32)));
  CHECK(std::holds_alternative<RawUnit>(decode((1u << 9) | 0x2023u, 32)));   // Reserved [10:9]
  CHECK(std::holds_alternative<RawUnit>(decode((1u << 11) | 0x2023u, 32)));  // ElementWiseEn
  CHECK(std::holds_alternative<RawUnit>(decode(0x00000023u, 32)));           // B.CATR: not modelled
  CHECK(std::holds_alternative<RawUnit>(decode(0x3043u, 32)));              // B.DIM funct3 011
}

TEST_CASE("encode rejects values that do not fit their fields and combinations without a form", "[bundle]") {
  BIot none;
  none.pe_mode = 7;
  CHECK(encode(none).fault().rule.find("neither") != std::string::npos);
  BIot zero_dst;
  zero_dst.source_count = 1;
  zero_dst.has_destination = true;
  CHECK(!encode(zero_dst).ok());
  CHECK(!encode(BDim{3, 0, 0}).ok());
  CHECK(!encode(BDim{0, 0, 1u << 17}).ok());
  CHECK(!encode(BDim{0, 32, 0}).ok());
  CHECK(!encode(BStartTepl{32, 0, 0}).ok());
  CHECK(!encode(BIos{0, 16, 0}).ok());
  CHECK(!encode(RawUnit{0x0C019181, 32}).ok());  // a modelled word is not raw
  CHECK(!encode(RawUnit{0x1234, 32}).ok());      // low nibble 4 is a 16-bit unit
  CHECK(!encode(RawUnit{0x1FFFF, 16}).ok());
  CHECK(!encode(RawUnit{0x1, 24}).ok());
  // encoding() gives exactly what encode() does, without the fault.
  for (const InstructionBody& b :
       {InstructionBody{none}, InstructionBody{zero_dst}, InstructionBody{BDim{3, 0, 0}}, InstructionBody{BDim{0, 0, 1u << 17}},
        InstructionBody{BDim{0, 32, 0}}, InstructionBody{BDim{2, 23, (1u << 17) - 1}}, InstructionBody{BStartTepl{32, 0, 0}},
        InstructionBody{BStartTepl{0, 4, 0}}, InstructionBody{BIos{0, 16, 0}}, InstructionBody{BIos{255, 15, 7}},
        InstructionBody{RawUnit{0x0C019181, 32}}, InstructionBody{RawUnit{0x1234, 32}}, InstructionBody{RawUnit{0x1, 24}},
        InstructionBody{RawUnit{0x0023, 32}}, InstructionBody{BStop{}}, InstructionBody{CBStop{}}, InstructionBody{LBStop{}}})
  {
    const auto word = encoding(b);
    REQUIRE(word.has_value() == encode(b).ok());
    if (word) CHECK(*word == *encode(b));
  }
  // validate() reports unencodable instructions as IllegalInstruction too.
  REQUIRE(validate(none));
  CHECK(validate(none)->code == FaultCode::IllegalInstruction);
  // Disassembly of an unencodable instruction says so, whatever its field values.
  BIot wild;
  wild.source_count = 3;
  wild.sources = {200, 64};
  wild.has_destination = true;
  wild.hand = 9;
  wild.size_code = 40;
  CHECK(disassemble(wild) == "B.IOT tile200, tile64, mask=0000, ->9<40>  ; not encodable: B.IOT takes at most two source tiles");
  CHECK(disassemble(BDim{3, 0, 0}) == "B.DIM zero, 0, ->LB3  ; not encodable: B.DIM has forms for LB0..LB2 only, not LB3");
}

TEST_CASE("instruction length from the low nibble of the first halfword", "[bundle]") {
  for (unsigned nibble = 0; nibble < 16; ++nibble) {
    const unsigned expected = nibble == 15 ? 64 : nibble == 14 ? 48 : (nibble & 1) ? 32 : 16;
    CHECK(unit_length_bits(static_cast<std::uint16_t>(0xABC0 | nibble)) == expected);
  }
  // A stream mixing every width, then a truncated 32-bit unit.
  const std::vector<std::uint8_t> bytes = {
      0x81, 0x91, 0x01, 0x0C,                          // BSTART.SFU TROWSUM, FP32
      0x3C, 0x84,                                      // C.B.DIMI 16, ->LB2
      0x0E, 0x00, 0x11, 0x22, 0x33, 0x44,              // a 48-bit unit (no modelled form)
      0x0F, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,  // L.BSTOP
      0x00, 0x00,                                      // C.BSTOP
      0x13, 0x00};                                     // 32-bit unit cut short
  const DecodedProgram p = decode_program(bytes, "x.bin");
  REQUIRE(p.instructions.size() == 5);
  CHECK(std::holds_alternative<BStartTepl>(p.instructions[0].body));
  CHECK(std::holds_alternative<CBDimi>(p.instructions[1].body));
  REQUIRE(std::holds_alternative<RawUnit>(p.instructions[2].body));
  CHECK(std::get<RawUnit>(p.instructions[2].body).bits == 0x44332211000EULL);
  CHECK(std::get<RawUnit>(p.instructions[2].body).width_bits == 48);
  CHECK(std::holds_alternative<LBStop>(p.instructions[3].body));
  CHECK(std::holds_alternative<CBStop>(p.instructions[4].body));
  CHECK(p.instructions[3].loc.offset == 12);
  CHECK(format_location(p.instructions[3].loc) == "x.bin:+0xc");
  REQUIRE(p.error);
  CHECK(*p.error == "truncated 32-bit instruction at offset 0x16: 2 bytes left");
  const DecodedProgram odd = decode_program({0x01, 0x00, 0x00, 0x00, 0x00}, "y.bin");
  CHECK(odd.instructions.size() == 1);
  CHECK(*odd.error == "truncated instruction at offset 0x4: 1 byte left");
}

}  // namespace
}  // namespace ptosim::model
