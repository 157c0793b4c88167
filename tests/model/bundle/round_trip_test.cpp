// SPDX-License-Identifier: BSD-3-Clause
// Round trips binary -> text -> binary and text -> binary -> text -> binary over every legal form
// (generated systematically), every 16-bit unit, and random 32/48/64-bit units.
#include <catch2/catch.hpp>

#include <array>
#include <random>

#include "model/bundle/disassembler.h"
#include "model/bundle/field_codes.h"
#include "model/bundle/operation.h"
#include "model/numeric/data_type.h"
#include "tests/model/bundle/bundle_test_util.h"

namespace ptosim::model {
namespace {

/// Every legal form the front end knows, field values enumerated per field.
std::vector<InstructionBody> legal_forms() {
  std::vector<InstructionBody> out;
  for (unsigned mode = 0; mode < 4; ++mode)
    for (unsigned fn = 0; fn < 32; ++fn)
      if (tepl_selector(mode, fn))
        for (DataType t : kAllDataTypes)
          out.push_back(BStartTepl{static_cast<std::uint8_t>(data_type_code(t)), static_cast<std::uint8_t>(mode),
                                   static_cast<std::uint8_t>(fn)});
  for (unsigned fn = 0; fn < 32; ++fn)
    if (cube_operation(fn))
      for (DataType t : kAllDataTypes)
        out.push_back(BStartCube{static_cast<std::uint8_t>(data_type_code(t)), static_cast<std::uint8_t>(fn)});
  for (std::uint8_t lb = 0; lb < 3; ++lb) {
    for (std::uint8_t reg = 0; reg < kGprSelectorCount; ++reg)
      for (std::uint32_t imm : {0u, 1u, 16u, 4095u, 4096u, 65535u, 65536u, 131071u}) out.push_back(BDim{lb, reg, imm});
    for (unsigned imm = 0; imm < 256; ++imm) out.push_back(CBDimi{lb, static_cast<std::uint8_t>(imm)});
  }
  for (unsigned dtype = 0; dtype < 32; ++dtype)
    for (unsigned pad = 0; pad < 4; ++pad)
      if (datr_data_type_assigned(dtype)) {
        DatrFields f;
        f.dtype_code = static_cast<std::uint8_t>(dtype);
        f.pad_or_byte_id = static_cast<std::uint8_t>(pad);
        out.push_back(BDatr{f});
      }
  for (unsigned layout = 0; layout < 32; ++layout)
    for (unsigned cmode = 0; cmode < 6; ++cmode)
      if (datr_layout_name(layout)) {
        DatrFields f;
        f.layout = static_cast<std::uint8_t>(layout);
        f.cmode = static_cast<std::uint8_t>(cmode);
        f.rmode = static_cast<std::uint8_t>((layout + cmode) % 8);
        f.sat = layout & 1;
        f.canonicalize = cmode & 1;
        out.push_back(BDatr{f});
      }
  for (unsigned pq = 0; pq < 64; ++pq)
    if (fpatr_prequant_mode_assigned(pq))
      for (unsigned relu = 0; relu < 4; ++relu)
        for (unsigned group = 0; group < 10; ++group) {
          FpatrFields f;
          f.prequant_mode = static_cast<std::uint8_t>(pq);
          f.relu_mode = static_cast<std::uint8_t>(relu);
          f.group_n_code = static_cast<std::uint8_t>(group);
          const unsigned flags = pq + relu + group;
          f.row_max_en = flags & 1;
          f.group_max_en = flags & 2;
          f.row_max_init = flags & 4;
          f.max_abs_en = flags & 8;
          f.trans_a = flags & 16;
          f.trans_b = flags & 32;
          out.push_back(BFpatr{f});
        }
  for (std::uint8_t a = 0; a < kGprSelectorCount; ++a)
    for (std::uint8_t b : {0, 1, 9, 23}) {
      out.push_back(BIor{IorFields{{a, b, 0}, b}});
      out.push_back(BIor{IorFields{{b, 0, a}, a}});
    }
  const std::uint8_t tiles[] = {0, 15, 16, 31, 32, 47, 48, 63};
  for (std::uint8_t pe = 0; pe < 8; ++pe)
    for (bool last : {false, true}) {
      for (std::uint8_t s0 : tiles)
        for (std::uint8_t s1 : tiles) {
          BIot src2;
          src2.source_count = 2;
          src2.sources = {s0, s1};
          src2.pe_mode = pe;
          src2.last = last;
          out.push_back(src2);
        }
      for (std::uint8_t s0 : tiles) {
        BIot src1;
        src1.source_count = 1;
        src1.sources = {s0, 0};
        src1.pe_mode = pe;
        src1.last = last;
        out.push_back(src1);
      }
      for (std::uint8_t hand = 0; hand < 4; ++hand)
        for (std::uint8_t size = 1; size <= kIotMaxSizeCode; ++size)
          for (std::uint8_t sources = 0; sources < 3; ++sources) {
            BIot dst;
            dst.source_count = sources;
            dst.sources = {static_cast<std::uint8_t>(size * 5 % 64), static_cast<std::uint8_t>(hand * 17 % 64)};
            dst.has_destination = true;
            dst.hand = hand;
            dst.size_code = size;
            dst.pe_mode = pe;
            dst.last = last;
            out.push_back(dst);
          }
      for (std::uint8_t size = 0; size <= kIosMaxSizeCode; ++size)
        for (unsigned id : {0u, 7u, 128u, 255u}) out.push_back(BIos{static_cast<std::uint8_t>(id), size, pe});
    }
  out.push_back(BStop{});
  out.push_back(CBStop{});
  out.push_back(LBStop{});
  return out;
}

/// binary -> text -> binary, and the canonical text re-assembles to itself.
void check_round_trip(const InstructionBody& body) {
  const Result<Encoding> e = encode(body);
  REQUIRE(e.ok());
  const std::string text = disassemble(body);
  INFO(text);
  const Assembly a = assemble(text, "rt.s");
  REQUIRE(a.errors.empty());
  REQUIRE(a.instructions.size() == 1);
  const Result<Encoding> again = encode(a.instructions[0].body);
  REQUIRE(again.ok());
  CHECK(again->bits == e->bits);
  CHECK(again->width_bits == e->width_bits);
  CHECK(disassemble(a.instructions[0].body) == text);
  CHECK(disassemble(decode(e->bits, e->width_bits)) == text);
}

TEST_CASE("round trip of every legal form", "[bundle]") {
  const std::vector<InstructionBody> forms = legal_forms();
  CHECK(forms.size() > 8000);
  for (const InstructionBody& body : forms) {
    REQUIRE(!validate(body));
    // A legal form prints its own field-by-field text: no .word fallback.
    CHECK(disassemble(body) == instruction_text(body));
    check_round_trip(body);
  }
}

// The ProgramFrontEnd replays a block when its instructions' bodies are the same (same_body, the
// variant's == unrolled), so both must tell apart any two bodies that encode differently: every
// field counts, and bodies of different forms differ.
TEST_CASE("instruction bodies are equal exactly when their encodings are", "[bundle]") {
  const std::vector<InstructionBody> forms = legal_forms();
  for (const InstructionBody& body : forms) {
    const Result<Encoding> e = encode(body);
    REQUIRE(e.ok());
    const InstructionBody copy = body;
    CHECK(copy == body);
    CHECK(same_body(copy, body));
    for (unsigned bit = 0; bit < e->width_bits; ++bit) {
      const std::uint64_t flipped = e->bits ^ (std::uint64_t{1} << bit);
      if (unit_length_bits(static_cast<std::uint16_t>(flipped)) != e->width_bits) continue;
      INFO(disassemble(body) << " with bit " << bit << " flipped");
      const InstructionBody other = decode(flipped, e->width_bits);
      CHECK_FALSE(other == body);
      CHECK_FALSE(same_body(other, body));
    }
    for (const InstructionBody& form : forms) CHECK(same_body(form, body) == (form == body));
  }
}

TEST_CASE("round trip of every 16-bit unit", "[bundle]") {
  int modelled = 0;
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    if (unit_length_bits(static_cast<std::uint16_t>(h)) != 16) continue;
    const InstructionBody b = decode(h, 16);
    modelled += !std::holds_alternative<RawUnit>(b);
    check_round_trip(b);
  }
  CHECK(modelled == 1 + 4 * 256);  // C.BSTOP and every C.B.DIMI (LoopNest 3 included, reserved)
}

TEST_CASE("round trip of random 32-, 48- and 64-bit units", "[bundle]") {
  std::mt19937_64 rng(20260822);
  int legal = 0;
  for (int i = 0; i < 200000; ++i) {
    std::uint64_t bits = rng();
    const unsigned pick = i % 8;
    if (pick < 6) {
      // Bias half of the 32-bit words towards the modelled opcodes so every form is reached.
      bits &= 0xFFFFFFFFULL;
      if (pick >= 3) bits = (bits & ~0x7FULL) | std::array<std::uint64_t, 3>{0x13, 0x23, 0x43}[i % 3];
      if (pick == 5) bits = (bits & ~0xFFFFFULL) | ((i & 1) ? 0x19181 : 0x31181);
      bits |= 1;                                          // odd low nibble ...
      if ((bits & 0xF) == 0xF) bits &= ~std::uint64_t{4};  // ... but not 1111
    } else if (pick == 6) {
      bits = (bits & 0xFFFFFFFFFFF0ULL) | 0xE;
    } else {
      bits = (bits & ~std::uint64_t{0xF}) | 0xF;
      if (i % 16 == 7) bits = 0x000000010000000FULL;
    }
    const unsigned width = unit_length_bits(static_cast<std::uint16_t>(bits));
    const InstructionBody b = decode(bits, width);
    legal += !validate(b);
    check_round_trip(b);
  }
  CHECK(legal > 10000);
}

TEST_CASE("text -> binary -> text -> binary for non-canonical spellings", "[bundle]") {
  const struct {
    const char* input;
    const char* canonical;
  } cases[] = {
      {"bstart.sfu trowsum, fp32", "BSTART.SFU TROWSUM, FP32"},
      {"BSTART.TEPL TROWSUM, FP32", "BSTART.SFU TROWSUM, FP32"},
      {"BSTART.TEPL 2, 0, FP32", "BSTART.SFU TROWSUM, FP32"},
      {"BSTART.TEPL TADD, 1", "BSTART.VEC TADD, FP32"},
      {"BSTART.TEPL 0x0, 0x1A, U64", "BSTART.VEC TSEL, U64"},
      {"BSTART.tmatmul.acc fp16", "BSTART.TMATMUL.ACC FP16"},
      {"B.DIM LB0=16", "B.DIM zero, 16, ->LB0"},
      {"B.DIM lb2=0x10", "B.DIM zero, 16, ->LB2"},
      {"B.DIM r0, 8, ->lb1", "B.DIM zero, 8, ->LB1"},
      {"B.DIM s8, 1, ->LB0", "B.DIM r19, 1, ->LB0"},
      {"C.B.DIMI LB1=3", "C.B.DIMI 3, ->LB1"},
      {"B.DATR byteid=1, dtype=u32", "B.DATR dtype=U32, pad=max"},
      {"B.DATR PAD=MIN, datatype=none", "B.DATR dtype=none, pad=min"},
      {"B.DATR rmode=rtm, layout=nd2zn, cmode=3, canonicalize=1", "B.DATR rmode=rdn, layout=ND2ZN, cmode=gt, canon=1"},
      {"B.DATR rmode=4, pad=0, sat=0", "B.DATR rmode=rup"},
      {"B.FPATR TransB=1, PreQuantMode=0x20", "B.FPATR prequantmode=32, transb=1"},
      {"B.IOR", "B.IOR zero, zero, zero, ->zero"},
      {"B.IOR ->r3", "B.IOR zero, zero, zero, ->r3"},
      {"B.IOR ra, x3", "B.IOR r10, r23, zero, ->zero"},
      {"B.IOT T#1, mask=1111, ->U<1>, last", "B.IOT T#1, mask=1111, last, ->U<1>"},
      {"B.IOT T#1, MASK=1000, LAST, ->T<4KiB>", "B.IOT T#1, mask=1000, last, ->T<6>"},
      {"B.IOT mask=1111, last, ->N<128B>", "B.IOT mask=1111, last, ->N<1>"},
      {"B.IOT mask=1111, ->N<64k>", "B.IOT mask=1111, ->N<10>"},
      {"B.IOS mask=1111, ->S255<0001>", "B.IOS mask=1111, ->S255<1>"},
      {"B.IOS mask=0000, ->S3<256KiB>", "B.IOS mask=0000, ->S3<12>"},
      {"  BSTOP   ; done", "BSTOP"},
      {".word 0x0C019181", "BSTART.SFU TROWSUM, FP32"},
      {".word 0x843C", "C.B.DIMI 16, ->LB2"},
      {".word 0x000000010000000F", "L.BSTOP"},
  };
  for (const auto& c : cases) {
    INFO(c.input);
    const InstructionBody first = test::assemble_one(c.input);
    const std::string text = disassemble(first);
    CHECK(text == c.canonical);
    const InstructionBody second = test::assemble_one(text);
    CHECK(encode(second)->bits == encode(first)->bits);
    CHECK(disassemble(second) == text);
  }
}

TEST_CASE("reserved encodings written in assembly disassemble to .word and come back", "[bundle]") {
  const char* reserved[] = {
      "B.DIM r24, 16, ->LB0", "B.IOR r31, zero, zero, ->zero", "C.B.DIMI 4, ->LB3",
      "BSTART.SFU TROWSUM, 15", "BSTART.TEPL 2, 14, FP32", "BSTART.TMATMUL none",
      "B.DATR dtype=30", "B.DATR cmode=7", "B.DATR layout=2", "B.IOT mask=1111, last, ->T<0>",
      "B.IOT T#1, mask=1111, ->T<11>", "B.IOS mask=1111, ->S1<13>", "B.FPATR prequantmode=6",
      "B.FPATR relumode=4", "B.FPATR groupncode=10",
  };
  for (const char* line : reserved) {
    INFO(line);
    const InstructionBody b = test::assemble_one(line);
    REQUIRE(validate(b));
    const std::string text = disassemble(b);
    CHECK(text.rfind(".word 0x", 0) == 0);
    CHECK(text.find("IllegalInstruction") != std::string::npos);
    check_round_trip(b);
  }
}

}  // namespace
}  // namespace ptosim::model
