// SPDX-License-Identifier: BSD-3-Clause
// The ptosim run program format: tile directives, values, files, random fills, precise errors.
#include <catch2/catch.hpp>

#include <fstream>

#include "platforms/ptosim/program_file.h"

using namespace ptosim;
using platforms::ProgramFile;

namespace {

ProgramFile parse_ok(const std::string& text) {
  ProgramFile p;
  std::string error;
  INFO(error);
  REQUIRE(platforms::parse_program_text(text, "p.pto", p, error));
  return p;
}

std::string parse_error(const std::string& text) {
  ProgramFile p;
  std::string error;
  REQUIRE_FALSE(platforms::parse_program_text(text, "p.pto", p, error));
  return error;
}

}  // namespace

TEST_CASE("Directive lines are blanked so assembly line numbers stay true", "[program]") {
  const ProgramFile p = parse_ok(".tile T#1 S8 cols=4 valid=2x3\n.data T#1 1 2 3 -4 5 6\nBSTOP\n.dump T#1\n");
  CHECK(p.assembly == "\n\nBSTOP\n\n");
  REQUIRE(p.tiles.size() == 1);
  const auto& t = p.tiles[0];
  CHECK(t.desc.capacity_bytes == 128);
  CHECK(t.desc.rows == 32);
  CHECK(t.data[0][0] == 1u);
  CHECK(t.data[3][4] == 0xFCu);  // row 1, column 0: -4 in S8
  CHECK_FALSE(t.data[0][3].has_value());  // outside the valid region: undefined
  CHECK(p.dumps.size() == 1);
}

TEST_CASE("Per-PE data, GPRs, flags and seeded random fills", "[program]") {
  const ProgramFile p = parse_ok(
      ".tile U#2 FP16 cols=2 valid=1x2 mask=1100\n.data U#2 pe=PE0 1 2\n.data U#2 pe=PE1 3 4\n"
      ".gpr all r5 0x10\n.gpr PE2 r6 -1\n.status NX OF\n"
      ".tile T#1 FP32 cols=8 valid=8x8\n.random T#1 seed=7 min=-2 max=2\n"
      ".tile N#1 FP32 cols=1 valid=4x1\n.fill N#1 -inf\n");
  CHECK(p.tiles[2].data[1][3] == 0xFF800000u);
  CHECK(p.tiles[0].data[0][1] == 0x4000u);
  CHECK(p.tiles[0].data[1][0] == 0x4200u);
  CHECK(p.gprs.size() == 2);
  CHECK(p.gprs[1].value == ~0ULL);
  CHECK(p.status == 0x14);
  const ProgramFile again = parse_ok(".tile T#1 FP32 cols=8 valid=8x8\n.random T#1 seed=7 min=-2 max=2\n");
  CHECK(again.tiles[0].data == p.tiles[1].data);
}

TEST_CASE("Text and raw value files", "[program]") {
  std::ofstream("ptosim_values.txt") << "1 2\n3 4\n";
  const ProgramFile p = parse_ok(".tile T#1 U16 cols=2 valid=2x2\n.file T#1 ptosim_values.txt\n");
  CHECK(p.tiles[0].data[2][3] == 4u);
  std::ofstream raw("ptosim_values.bin", std::ios::binary);
  for (int i = 0; i < 128; ++i) raw.put(static_cast<char>(i));
  raw.close();
  const ProgramFile r = parse_ok(".tile T#1 U8 cols=2 capacity=128 valid=1x1\n.file T#1 ptosim_values.bin\n");
  CHECK(r.tiles[0].data[0][127] == 127u);  // the whole physical fragment is loaded and defined
  // A raw file completes its fragments: values after it are an error, not a silent overwrite.
  CHECK(parse_error(".tile T#1 U8 cols=2 capacity=128 valid=1x1\n.file T#1 ptosim_values.bin\n.data T#1 5\n")
            .find("already has its 1 valid values on PE0") != std::string::npos);
  CHECK(parse_error(".tile T#1 U8 cols=2 capacity=128 valid=1x1\n.data T#1 5\n.file T#1 ptosim_values.bin\n")
            .find("T#1 already has values on PE0") != std::string::npos);
}

TEST_CASE("Directive errors carry file:line:column", "[program]") {
  CHECK(parse_error(".tile T#1 FP32 cols=4\n") == "p.pto:1:1: .tile needs valid=ROWSxCOLS");
  CHECK(parse_error("\n.tile T#1 FP99 cols=4 valid=1x1\n").rfind("p.pto:2:11: unknown DataType", 0) == 0);
  CHECK(parse_error(".tile T#1 FP32 cols=3 valid=1x1\n").find("power of two") != std::string::npos);
  CHECK(parse_error(".data T#1 1\n").rfind("p.pto:1:7: T#1 is not declared", 0) == 0);
  CHECK(parse_error(".tile T#1 U8 cols=2 valid=1x2\n.data T#1 1 2 3\n").rfind("p.pto:2:15:", 0) == 0);
  CHECK(parse_error(".tile T#1 U8 cols=2 valid=1x2\n.data T#1 1\n").find("has 1 values for PE0") != std::string::npos);
  CHECK(parse_error(".tile T#1 U8 cols=2 valid=1x2\n.data T#1 300 1\n").rfind("p.pto:2:11: '300' is not a U8 value", 0) == 0);
  CHECK(parse_error(".frob\n").rfind("p.pto:1:1: unknown directive", 0) == 0);
  CHECK(parse_error(".tile T#1 U8 cols=2 valid=1x2 mask=0000\n").find("mask") != std::string::npos);
  CHECK(parse_error(".gpr PE4 r1 1\n").rfind("p.pto:1:6:", 0) == 0);
  CHECK(parse_error(".tile T#1 U8 cols=2 valid=1x2\n.file T#1 /nonexistent\n").find("cannot open") != std::string::npos);
  CHECK(parse_error(".tile S0 U8 cols=2 valid=1x2\n.data S0 pe=PE1 1 2\n").rfind("p.pto:2:13: S0 is a Shared tile", 0) == 0);
  CHECK(parse_error(".tile T#1 U8 cols=2 capacity=524288 valid=1x2\n").find("capacity: must be 1..262144") != std::string::npos);
  CHECK(parse_error(".tile T#1 U8 cols=2 valid=1x2\n.random T#1 sed=5\n").rfind("p.pto:2:13: unknown option 'sed'", 0) == 0);
  CHECK(parse_error(".tile T#1 U8 cols=2 valid=1x2\n.data T#1 seed=5 1 2\n").find("unknown option 'seed'") != std::string::npos);
  CHECK(parse_error(".tile T#1 FP32 cols=2 valid=1x2\n.random T#1 min=1abc\n").find("min: expected a finite number") !=
        std::string::npos);
  CHECK(parse_error(".tile T#1 U8 cols=2 valid=1x2\n.random T#1 min=0.2 max=0.8\n").find("no integer") != std::string::npos);
}

TEST_CASE("Integer random fills reach both bounds", "[program]") {
  const ProgramFile p = parse_ok(".tile T#1 U8 cols=64 valid=4x64\n.random T#1 min=3 max=4\n");
  bool three = false, four = false;
  for (std::size_t i = 0; i < 256; ++i) {
    REQUIRE(p.tiles[0].data[0][i]);
    three |= *p.tiles[0].data[0][i] == 3u;
    four |= *p.tiles[0].data[0][i] == 4u;
    CHECK((*p.tiles[0].data[0][i] == 3u || *p.tiles[0].data[0][i] == 4u));
  }
  CHECK(three);
  CHECK(four);
}

TEST_CASE("A Shared tile's values are its one payload whatever its PE mask", "[program]") {
  const ProgramFile p = parse_ok(".tile S3 U8 cols=2 valid=1x2 mask=0111\n.data S3 5 6\n");
  REQUIRE(p.tiles.size() == 1);
  CHECK(p.tiles[0].data[0][0] == 5u);
  CHECK(p.tiles[0].data[0][1] == 6u);
}
