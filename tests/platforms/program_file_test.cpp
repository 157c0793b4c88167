// SPDX-License-Identifier: BSD-3-Clause
// The ptosim run program format: tile directives, values, files, random fills, precise errors.
#include <catch2/catch.hpp>

#include <sys/resource.h>

#include <filesystem>
#include <fstream>

#include "platforms/ptosim/program_file.h"
#include "tests/platforms/run_helpers.h"

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
  // A directive is the line's first token, after blanks and commas; a comment is not one.
  const ProgramFile q = parse_ok("  .tile T#1 S8 valid=1x1\n\t, .dump T#1\n; .dump T#1\nBSTOP ; .dump\n");
  CHECK(q.assembly == "\n\n; .dump T#1\nBSTOP ; .dump\n");
  CHECK(q.dumps.size() == 1);
}

TEST_CASE("A .tile without cols has the smallest power of two of physical columns holding the valid ones", "[program]") {
  const ProgramFile p = parse_ok(".tile T#1 FP32 valid=4x8\n");
  REQUIRE(p.tiles.size() == 1);
  CHECK(p.tiles[0].desc.cols == 8);
  CHECK(p.tiles[0].desc.capacity_bytes == 128);
  CHECK(p.tiles[0].desc.rows == 4);
  const ProgramFile q = parse_ok(".tile T#1 S8 valid=2x3\n");
  CHECK(q.tiles[0].desc.cols == 4);
  CHECK(q.tiles[0].desc.valid_cols == 3);
}

TEST_CASE("A UTF-8 byte order mark before a program file or a value file is skipped", "[program]") {
  const std::string values = ptosim::test::write_file("bom_values.txt", "\xEF\xBB\xBF" "1 2\n");
  const ProgramFile p = parse_ok("\xEF\xBB\xBF.tile T#1 S8 valid=1x2\n.file T#1 " + values + "\n");
  REQUIRE(p.tiles.size() == 1);
  CHECK(p.tiles[0].data[0][1] == 2u);
  CHECK(p.assembly == "\n\n");
  // Columns count from after it, as an editor shows them.
  CHECK(parse_error("\xEF\xBB\xBF.tile T#0 S8 valid=1x2\n").rfind("p.pto:1:7: error:", 0) == 0);
}

TEST_CASE("A .word line in a program file is assembly, not a directive", "[program]") {
  const ProgramFile p = parse_ok(".tile T#1 S8 valid=1x1\n  .word 0x0c019181 ; BSTART\n.WORD 0x1\n");
  CHECK(p.assembly == "\n  .word 0x0c019181 ; BSTART\n.WORD 0x1\n");
  CHECK(parse_error(".words 1\n").find("unknown directive '.words'") != std::string::npos);
}

TEST_CASE("A .tile without capacity gets the smallest power of two holding its storage, CELLs for CUBE layouts", "[program]") {
  // 2x8 FP16 valid in CUBE_M16 is stored as 16x8 (256 B), not as its 32 valid bytes.
  const ProgramFile cube = parse_ok(".tile M#1 FP16 valid=2x8 layout=CUBE_M16 location=Matrix\n");
  REQUIRE(cube.tiles.size() == 1);
  CHECK(cube.tiles[0].desc.rows == 16);
  CHECK(cube.tiles[0].desc.cols == 8);
  CHECK(cube.tiles[0].desc.capacity_bytes == 256);
  const ProgramFile n8 = parse_ok(".tile N#1 FP16 valid=20x10 layout=CUBE_N8 location=Matrix\n");
  CHECK(n8.tiles[0].desc.capacity_bytes == 1024);  // 32 rows (K up to the 16-row CELL) x 16 columns x 2 B
  CHECK(parse_error(".tile M#1 FP16 valid=20x8 layout=CUBE_M16\n").find("cannot hold a 20x8 valid shape") !=
        std::string::npos);
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
  const std::string text = ptosim::test::write_file("values.txt", "1 2\n3 4\n");
  const ProgramFile p = parse_ok(".tile T#1 U16 cols=2 valid=2x2\n.file T#1 " + text + "\n");
  CHECK(p.tiles[0].data[2][3] == 4u);
  // A value that does not read is named by its line and column in the value file.
  const std::string bad = ptosim::test::write_file("bad_values.txt", "1 2\n\t3  x\n");
  CHECK(parse_error(".tile T#1 U16 cols=2 valid=2x2\n.file T#1 " + bad + "\n") ==
        "p.pto:2:11: error: " + bad + ":2:5: 'x' is not a U16 value (range [0, 65535])");
  // So is a value past the valid region.
  const std::string long_file = ptosim::test::write_file("long_values.txt", "1 2\n3 4\n5\n");
  CHECK(parse_error(".tile T#1 U16 cols=2 valid=2x2\n.file T#1 " + long_file + "\n") ==
        "p.pto:2:11: error: " + long_file + ":3:1: T#1 already has its 4 valid values on PE0");
  const std::string bin = ptosim::test::scratch("values.bin");
  std::ofstream raw(bin, std::ios::binary);
  for (int i = 0; i < 128; ++i) raw.put(static_cast<char>(i));
  raw.close();
  const std::string tile = ".tile T#1 U8 cols=2 capacity=128 valid=1x1\n";
  const ProgramFile r = parse_ok(tile + ".file T#1 " + bin + "\n");
  CHECK(r.tiles[0].data[0][127] == 127u);  // the whole physical fragment is loaded and defined
  // A raw file completes its fragments: values after it are an error, not a silent overwrite.
  CHECK(parse_error(tile + ".file T#1 " + bin + "\n.data T#1 5\n").find("already has its 1 valid values on PE0") !=
        std::string::npos);
  CHECK(parse_error(tile + ".data T#1 5\n.file T#1 " + bin + "\n").find("T#1 already has values on PE0") !=
        std::string::npos);
}

TEST_CASE(".tile errors name the option at fault", "[program]") {
  CHECK(parse_error(".tile T#1 S8 valid=1x1 mask=0000\n") ==
        "p.pto:1:29: error: mask: 0000 names no PE; an input tile needs one to hold it");
  CHECK(parse_error(".tile T#1 FP32 valid=4x8 capacity=100\n") ==
        "p.pto:1:7: error: .tile T#1: capacity/cols: capacity 100 B does not divide into rows of 8 FP32 elements");
  CHECK(parse_error(".tile T#1 FP32 valid=1x131072\n") == "p.pto:1:7: error: .tile T#1: valid: must fit 16 bits");
  CHECK(parse_error(".tile T#1 FP32 valid=1x8 layout=Row\n") ==
        "p.pto:1:33: error: unknown layout 'Row' (RowMajor, ColumnMajor, ZN, NZ, CUBE_M16, CUBE_M32, CUBE_N8)");
  CHECK(parse_error(".tile T#1 FP32 valid=1x8 location=L1\n").find("(Vector, Matrix, Memory, Any)") != std::string::npos);
  // Names in any case, as DataType names.
  const ProgramFile p = parse_ok(".tile M#1 fp16 valid=2x8 layout=cube_m16 location=matrix\n");
  CHECK(p.tiles[0].desc.layout == model::Layout::CubeM16);
  CHECK(p.tiles[0].desc.location == model::Location::Matrix);
}

TEST_CASE("Values are separated by blanks or commas, with comments after a semicolon, in a .data line and a value file alike, and never skipped", "[program]") {
  const std::string tile = ".tile T#1 S8 cols=4 valid=1x4\n";
  CHECK(parse_ok(tile + ".data T#1 1, 2,3 4 ; four\n").tiles[0].data[0][3] == 4u);
  const std::string csv = ptosim::test::write_file("values.csv", "1,2,\n3, 4\n");
  CHECK(parse_ok(tile + ".file T#1 " + csv + "\n").tiles[0].data[1][2] == 3u);
  // A comma with no value after it is an error where it stands, not an empty value skipped.
  CHECK(parse_error(tile + ".data T#1 1,,2,3,4\n") == "p.pto:2:12: error: a comma with no value after it");
  CHECK(parse_error(tile + ".data T#1 1,2,3,4, ; end\n") == "p.pto:2:18: error: a comma with no value after it");
  const std::string lead = ptosim::test::write_file("lead.csv", ",,1,2,3,4\n");
  CHECK(parse_error(tile + ".file T#1 " + lead + "\n") == "p.pto:2:11: error: " + lead + ":1:1: a comma with no value after it");
  const std::string none = ptosim::test::write_file("none.csv", " \n");
  CHECK(parse_error(tile + ".file T#1 " + none + "\n") == "p.pto:2:11: error: " + none + ": no values");
  const std::string gap = ptosim::test::write_file("gap.csv", "1,2,\n, 3, 4\n");
  CHECK(parse_error(tile + ".file T#1 " + gap + "\n") ==
        "p.pto:2:11: error: " + gap + ":1:4: a comma with no value after it");
  // ';' starts a comment to the line's end, as in the program; commas in it are not separators.
  const std::string noted = ptosim::test::write_file("noted.csv", "; x, y\n1, 2 ;,,\n3;4\n4\n");
  const ProgramFile n = parse_ok(tile + ".file T#1 " + noted + "\n");
  CHECK(n.tiles[0].data[0][2] == 3u);
  CHECK(n.tiles[0].data[0][3] == 4u);
  const std::string only = ptosim::test::write_file("only.csv", "; 1, 2, 3, 4\n");
  CHECK(parse_error(tile + ".file T#1 " + only + "\n") == "p.pto:2:11: error: " + only + ": no values");
  const std::string bad = ptosim::test::write_file("bad.csv", "; fine\n1, 2, x;3\n");
  CHECK(parse_error(tile + ".file T#1 " + bad + "\n").find(bad + ":2:7: ") != std::string::npos);
}

TEST_CASE("A directive that would set nothing, or set a GPR or flag again, is an error", "[program]") {
  CHECK(parse_error(".tile T#1 S8 cols=4 valid=1x4\n.data T#1\n") == "p.pto:2:10: error: expected values");
  CHECK(parse_error(".status\n") == "p.pto:1:8: error: expected a flag name (NV DZ OF UF NX)");
  CHECK(parse_error(".status NV NX NV\n") == "p.pto:1:15: error: NV is already set");
  CHECK(parse_error(".gpr PE1 r5 1\n.gpr all r5 2\n") == "p.pto:2:10: error: r5 is already set on PE1");
  CHECK(parse_ok(".gpr PE1 r5 1\n.gpr PE2 r5 2\n.gpr all r6 3\n").gprs.size() == 3);
}

TEST_CASE("A .data line takes pe= before its values, which it applies to", "[program]") {
  const std::string tile = ".tile T#1 S8 cols=4 valid=1x3\n";
  CHECK(parse_error(tile + ".data T#1 1 2 3 pe=PE0 4 5 6\n") == "p.pto:2:17: error: pe= comes before the values");
  const ProgramFile p = parse_ok(tile + ".data T#1 pe=PE0 1 2 3\n.data T#1 pe=PE1 4 5 6\n");
  CHECK(p.tiles[0].data[0][0] == 1u);
  CHECK(p.tiles[0].data[1][0] == 4u);
}

TEST_CASE("Directive errors carry file:line:column", "[program]") {
  CHECK(parse_error(".tile T#1 FP32 cols=4\n") == "p.pto:1:1: error: .tile needs valid=ROWSxCOLS");
  CHECK(parse_error("\n.tile T#1 FP99 cols=4 valid=1x1\n").rfind("p.pto:2:11: error: unknown DataType", 0) == 0);
  CHECK(parse_error(".tile T#1 FP32 cols=3 valid=1x1\n").find("power of two") != std::string::npos);
  CHECK(parse_error(".data T#1 1\n").rfind("p.pto:1:7: error: T#1 is not declared", 0) == 0);
  CHECK(parse_error(".tile T#1 U8 cols=2 valid=1x2\n.data T#1 1 2 3\n").rfind("p.pto:2:15:", 0) == 0);
  // A short list is reported at its last value (of that PE), not at the .tile.
  CHECK(parse_error(".tile T#1 U8 cols=2 valid=1x2\n.data T#1 1\n") == "p.pto:2:11: error: T#1 has 1 values for PE0, its valid region needs 2");
  CHECK(parse_error(".tile T#1 U8 cols=2 valid=1x2\n.data T#1 1\n.data T#1 pe=PE1 2\n").rfind("p.pto:2:11: error: T#1 has 1 values for PE0", 0) == 0);
  CHECK(parse_error(".tile T#1 U8 cols=2 valid=1x2\n.data T#1 300 1\n").rfind("p.pto:2:11: error: '300' is not a U8 value (range [0, 255])", 0) == 0);
  CHECK(parse_error(".frob\n").rfind("p.pto:1:1: error: unknown directive", 0) == 0);
  CHECK(parse_error(".tile T#1 U8 cols=2 valid=1x2 mask=0000\n").find("mask") != std::string::npos);
  CHECK(parse_error(".gpr PE4 r1 1\n").rfind("p.pto:1:6:", 0) == 0);
  CHECK(parse_error(".tile T#1 U8 cols=2 valid=1x2\n.file T#1 /nonexistent\n") ==
        "p.pto:2:11: error: cannot read '/nonexistent': No such file or directory");
  CHECK(parse_error(".tile S0 U8 cols=2 valid=1x2\n.data S0 pe=PE1 1 2\n").rfind("p.pto:2:13: error: S0 is a Shared tile", 0) == 0);
  CHECK(parse_error(".tile T#1 U8 cols=2 capacity=524288 valid=1x2\n").find("capacity: must be 1..262144") != std::string::npos);
  // Input tiles are charged per PE of their mask against the 256 KiB tile capacity, Shared ones too.
  CHECK(parse_error(".tile T#1 FP32 cols=64 valid=1x2 capacity=256KiB\n.tile T#2 U8 cols=2 valid=1x2 mask=0100\n") ==
        "p.pto:2:7: error: .tile T#2: the input tiles hold 262272 bytes on PE1, beyond its tile capacity (262144)");
  CHECK(parse_error(".tile T#1 FP32 cols=64 valid=1x2 capacity=128KiB\n.tile S1 FP32 cols=64 valid=1x2 capacity=128KiB\n"
                    ".tile M#1 U8 cols=2 valid=1x2 mask=0001\n") ==
        "p.pto:3:7: error: .tile M#1: the input tiles hold 262272 bytes on PE3, beyond its tile capacity (262144)");
  CHECK(parse_ok(".tile T#1 FP32 cols=64 valid=1x2 capacity=256KiB mask=1000\n.tile T#2 U8 cols=2 valid=1x2 mask=0111\n")
            .tiles.size() == 2);
  // A descriptor rule names the .tile option at fault (valid=RxC, not a scenario's field names).
  CHECK(parse_error(".tile T#1 U8 cols=4 capacity=128 valid=33x4\n") ==
        "p.pto:1:7: error: .tile T#1: valid: valid rectangle exceeds the physical shape");
  // Only capacity is a size: units on another number, or on a GPR's name, are errors.
  CHECK(parse_error(".tile T#1 FP32 cols=64B valid=1x2\n") == "p.pto:1:21: error: cols: expected a non-negative integer (decimal or 0x hex), got '64B'");
  CHECK(parse_error(".gpr all r1b 5\n").find("expected a GPR r1..r23") != std::string::npos);
  // Sizes take the assembler's units (B, K, KB, KiB, any case), and a size too large to count fails.
  for (const char* size : {"4096", "4096B", "4K", "4KB", "4kb", "4KiB"})
    CHECK(parse_ok(std::string(".tile T#1 FP32 cols=64 valid=1x2 capacity=") + size + "\n").tiles[0].desc.capacity_bytes == 4096);
  for (const std::string size : {"4MB", "KiB", "18014398509481988K", "-1"})
    CHECK(parse_error(".tile T#1 FP32 cols=64 valid=1x2 capacity=" + size + "\n") ==
          "p.pto:1:43: error: capacity: expected a size in bytes (4096, 0x1000, 4K, 4KB, 4KiB, 128B), got '" + size + "'");
  CHECK(parse_error(".tile T#1 U8 cols=2 valid=1x2\n.random T#1 seed=-1\n") ==
        "p.pto:2:18: error: seed: expected a non-negative integer (decimal or 0x hex), got '-1'");
  CHECK(parse_error(".tile T#1 U8 cols=2 valid=1x2\n.random T#1 sed=5\n").rfind("p.pto:2:13: error: unknown option 'sed'", 0) == 0);
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

TEST_CASE("A directory as the program or as a .file is an error, not an empty input", "[program]") {
  const std::string dir = ptosim::test::scratch("program_dir");
  std::filesystem::create_directories(dir);
  std::filesystem::create_directories(dir + ".bin");
  ProgramFile p;
  std::string error;
  CHECK_FALSE(platforms::parse_program_file(dir, p, error));
  CHECK(error == "cannot read '" + dir + "': is a directory");
  CHECK_FALSE(platforms::parse_program_file("/nonexistent/p.pto", p, error));
  CHECK(error == "cannot read '/nonexistent/p.pto': No such file or directory");
  CHECK(parse_error(".tile T#1 U8 cols=2 valid=1x2\n.file T#1 " + dir + "\n") ==
        "p.pto:2:11: error: cannot read '" + dir + "': is a directory");
  CHECK(parse_error(".tile T#1 U8 cols=2 valid=1x2\n.file T#1 " + dir + ".bin\n") ==
        "p.pto:2:11: error: cannot read '" + dir + ".bin': is a directory");
  // An endless device stops at the input limit instead of reading forever.
  CHECK(parse_error(".tile T#1 U8 cols=2 valid=1x2\n.file T#1 /dev/zero\n") ==
        "p.pto:2:11: error: cannot read '/dev/zero': larger than 256 MiB");
  // A program file that can be read is parsed.
  const std::string values = ptosim::test::write_file("values.txt", "7 8\n");
  const std::string prog =
      ptosim::test::write_file("program.pto", ".tile T#1 U8 cols=2 valid=1x2\n.file T#1 " + values + "\n");
  REQUIRE(platforms::parse_program_file(prog, p, error));
  CHECK(p.tiles[0].data[0][1] == 8u);
}

TEST_CASE("A regular file beyond the input limit is refused by its size, before it is read", "[program]") {
  // Its own test process: reading 256 MiB would raise this process's peak memory by as much. A
  // sparse file costs no disk.
  const std::string huge = ptosim::test::write_file("huge.pto", "");
  std::filesystem::resize_file(huge, (std::uintmax_t{256} << 20) + 1);
  ProgramFile p;
  std::string error;
  rusage before{}, after{};
  getrusage(RUSAGE_SELF, &before);
  CHECK_FALSE(platforms::parse_program_file(huge, p, error));
  getrusage(RUSAGE_SELF, &after);
  std::filesystem::remove(huge);
  CHECK(error == "cannot read '" + huge + "': larger than 256 MiB");
  CHECK(after.ru_maxrss - before.ru_maxrss < 64 * 1024);  // KiB
}

TEST_CASE(".random bounds: integers exact up to 2^63 - 1 in magnitude, every bound within the tile's type", "[program]") {
  // Every element of the valid region (one row of 8) is one of the two bounds.
  const auto drawn_from = [](const std::string& program, std::uint64_t low, std::uint64_t high) {
    const ProgramFile f = parse_ok(program);
    REQUIRE(f.tiles[0].data[0].size() >= 8);
    for (std::size_t i = 0; i < 8; ++i) {
      const auto& v = f.tiles[0].data[0][i];
      REQUIRE(v);
      CHECK((*v == low || *v == high));
    }
  };
  drawn_from(".tile T#1 S64 cols=8 valid=1x8\n.random T#1 min=-9223372036854775807 max=-9223372036854775806\n",
             0x8000000000000001u, 0x8000000000000002u);
  drawn_from(".tile T#1 U64 cols=8 valid=1x8\n.random T#1 min=+9223372036854775806 max=9223372036854775807\n",
             0x7FFFFFFFFFFFFFFEu, 0x7FFFFFFFFFFFFFFFu);
  parse_ok(".tile T#1 S64 cols=8 valid=1x8\n.random T#1 min=-9223372036854775807 max=9223372036854775807\n");
  // Integers are drawn as 64-bit signed values; a bound beyond them names the type's range where
  // it is outside that too.
  CHECK(parse_error(".tile T#1 S64 cols=8 valid=1x8\n.random T#1 min=-9223372036854775808\n") ==
        "p.pto:2:17: error: min: -9223372036854775808 is out of range: integers are drawn as 64-bit signed values "
        "(|min| < 2^63)");
  CHECK(parse_error(".tile T#1 U64 cols=8 valid=1x8\n.random T#1 max=9223372036854775808\n") ==
        "p.pto:2:17: error: max: 9223372036854775808 is out of range: integers are drawn as 64-bit signed values "
        "(|max| < 2^63)");
  CHECK(parse_error(".tile T#1 S64 cols=8 valid=1x8\n.random T#1 max=9223372036854775808\n") ==
        "p.pto:2:17: error: max: 9223372036854775808 is outside S64's range [-9223372036854775808, "
        "9223372036854775807]");
  CHECK(parse_error(".tile T#1 S8 cols=8 valid=1x8\n.random T#1 min=1e20\n") ==
        "p.pto:2:17: error: min: 1e20 is outside S8's range [-128, 127]");
  // Floating bounds are any finite values of the type, and their difference a finite double.
  CHECK(parse_error(".tile T#1 FP32 cols=8 valid=1x8\n.random T#1 max=1e400\n")
            .rfind("p.pto:2:17: error: max: 1e400 is outside FP32's range [", 0) == 0);
  parse_ok(".tile T#1 FP32 cols=8 valid=1x8\n.random T#1 min=-1e20 max=1e30\n");
  CHECK(parse_error(".tile T#1 FP64 cols=8 valid=1x8\n.random T#1 min=-1e308 max=1e308\n") ==
        "p.pto:2:1: error: .random: max - min must be a finite binary64 value");
  CHECK(parse_error(".tile T#1 FP32 cols=8 valid=1x8\n.random T#1 max=inf\n") ==
        "p.pto:2:17: error: max: expected a finite number, got 'inf'");
  // Bounds outside the type would give draws that do not fit it, depending on the seed.
  CHECK(parse_error(".tile T#1 U8 cols=8 valid=1x8\n.random T#1 max=300\n") ==
        "p.pto:2:17: error: max: 300 is outside U8's range [0, 255]");
  CHECK(parse_error(".tile T#1 U64 cols=8 valid=1x8\n.random T#1 min=-1\n") ==
        "p.pto:2:17: error: min: -1 is outside U64's range [0, 18446744073709551615]");
  CHECK(parse_error(".tile T#1 S4X2 cols=8 valid=1x8\n.random T#1\n") ==
        "p.pto:2:1: error: the default max 100 is outside S4X2's range [-8, 7]: give max=");
  CHECK(parse_error(".tile T#1 FP16 cols=8 valid=1x8\n.random T#1 max=1e6\n") ==
        "p.pto:2:17: error: max: 1e6 is outside FP16's range [-65504, 65504]");
}

TEST_CASE(".random bounds are decimal values, never encodings", "[program]") {
  CHECK(parse_error(".tile T#1 FP16 cols=4 valid=1x4\n.random T#1 min=0x3c00 max=2\n") ==
        "p.pto:2:17: error: min: expected a decimal number, got '0x3c00' (a bound is a value; encodings such as "
        "0x3c00 are for .data and .fill)");
  CHECK(parse_error(".tile T#1 S8 cols=4 valid=1x4\n.random T#1 max=0x7f\n").find("max: expected a decimal number") !=
        std::string::npos);
  CHECK(parse_ok(".tile T#1 FP16 cols=4 valid=1x4\n.random T#1 min=1e0 max=2.5\n").tiles.size() == 1);
}

TEST_CASE(".random ranges: floats need min < max, integers min <= max", "[program]") {
  CHECK(parse_error(".tile T#1 FP32 cols=8 valid=1x8\n.random T#1 min=1 max=1\n") ==
        "p.pto:2:1: error: .random: floats are drawn from [min, max), empty unless min < max");
  CHECK(parse_error(".tile T#1 FP32 cols=8 valid=1x8\n.random T#1 min=0.5 max=0.25\n") ==
        "p.pto:2:1: error: .random needs min <= max");
  CHECK(parse_error(".tile T#1 U8 cols=8 valid=1x8\n.random T#1 min=5 max=4\n") ==
        "p.pto:2:1: error: .random needs min <= max");
  const ProgramFile one = parse_ok(".tile T#1 U8 cols=8 valid=1x8\n.random T#1 min=1 max=1\n");  // [1, 1]
  for (std::size_t i = 0; i < 8; ++i) CHECK(one.tiles[0].data[0][i] == 1u);
  // A non-empty range, however narrow, is drawn from (values are then rounded to the type).
  const ProgramFile narrow = parse_ok(".tile T#1 FP32 cols=8 valid=1x8\n.random T#1 min=1 max=1.00000005\n");
  for (std::size_t i = 0; i < 8; ++i) CHECK(narrow.tiles[0].data[0][i] == 0x3F800000u);
}

TEST_CASE("A finite value beyond a floating type's range is an error naming the type", "[program]") {
  CHECK(parse_error(".tile T#1 FP32 cols=8 valid=1x8\n.fill T#1 1e40\n") ==
        "p.pto:2:11: error: '1e40' overflows FP32 (largest finite 3.4028234663852886e+38)");
  CHECK(parse_error(".tile T#1 FP16 cols=2 valid=1x2\n.data T#1 1 -70000\n") ==
        "p.pto:2:13: error: '-70000' overflows FP16 (largest finite 65504)");
  // E4M3 has no infinity (parse_value gives NaN); E2M3 has neither (it gives the largest finite value).
  CHECK(parse_error(".tile T#1 E4M3 cols=8 valid=1x8\n.fill T#1 500\n") ==
        "p.pto:2:11: error: '500' overflows E4M3 (largest finite 448)");
  CHECK(parse_error(".tile T#1 E2M3 cols=8 valid=1x8\n.fill T#1 7.75\n") ==
        "p.pto:2:11: error: '7.75' overflows E2M3 (largest finite 7.5)");
  const std::string big = ptosim::test::write_file("big.txt", "1 2 3e38 4e38\n");
  CHECK(parse_error(".tile T#1 FP32 cols=4 valid=1x4\n.file T#1 " + big + "\n") ==
        "p.pto:2:11: error: " + big + ":1:10: '4e38' overflows FP32 (largest finite 3.4028234663852886e+38)");
  // What rounds to the largest finite value, a written infinity and a raw encoding are values.
  const ProgramFile p = parse_ok(
      ".tile T#1 FP32 cols=4 valid=1x4\n.data T#1 3.4028235e38 inf -Infinity 0x7f800000\n"
      ".tile T#2 E2M3 cols=2 valid=1x2\n.data T#2 7.7 -7.74\n");
  CHECK(p.tiles[0].data[0][0] == 0x7F7FFFFFu);
  CHECK(p.tiles[0].data[0][1] == 0x7F800000u);
  CHECK(p.tiles[0].data[0][2] == 0xFF800000u);
  CHECK(p.tiles[0].data[0][3] == 0x7F800000u);
  CHECK(p.tiles[1].data[0][0] == 0x1Fu);
  CHECK(p.tiles[1].data[0][1] == 0x3Fu);
}

TEST_CASE("A directive option given twice is an error at the repetition", "[program]") {
  CHECK(parse_error(".tile T#1 FP32 cols=8 valid=4x8 valid=2x8\n") == "p.pto:1:33: error: valid= is given twice");
  CHECK(parse_error(".tile T#1 FP32 cols=8 valid=1x8\n.fill T#1 1 pe=PE0 pe=PE1\n") ==
        "p.pto:2:20: error: pe= is given twice");
  CHECK(parse_error(".tile T#1 FP32 cols=8 valid=1x8\n.random T#1 seed=1 seed=2\n") ==
        "p.pto:2:20: error: seed= is given twice");
}
