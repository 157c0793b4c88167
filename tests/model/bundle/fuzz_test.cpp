// SPDX-License-Identifier: BSD-3-Clause
// Fuzzing smoke tests (fixed seeds): random instruction streams through the decoder and the
// BlockBuilder, random text lines through the assembler. Nothing may crash (CI runs these under
// AddressSanitizer + UBSan); every input is accepted or rejected with a located, non-empty error,
// and every accepted input re-encodes bit-identically.
#include <catch2/catch.hpp>

#include <algorithm>
#include <iterator>
#include <random>
#include <set>

#include "model/bundle/disassembler.h"
#include "tests/model/bundle/bundle_test_util.h"

namespace ptosim::model {
namespace {

const char* const kValidLines[] = {
    "BSTART.SFU TROWSUM, FP32",
    "BSTART.SFU TCOLMIN, S8",
    "BSTART.SFU THISTOGRAM, U8",
    "BSTART.VEC TADD, S32",
    "BSTART.TEPL 3, 7, U16",
    "BSTART.TMATMUL FP16",
    "BSTART.TMATMULMX.ACC E4M3",
    "BSTART.TGEMV.BIAS BF16",
    "B.DIM zero, 16, ->LB0",
    "B.DIM r5, 131071, ->LB2",
    "B.DIM LB1=8",
    "C.B.DIMI 200, ->LB1",
    "B.DATR pad=max",
    "B.DATR dtype=U32, byteid=1",
    "B.DATR dtype=none, rmode=rne, sat=1, layout=ND2ZN, cmode=ge, canon=1",
    "B.FPATR",
    "B.FPATR prequantmode=3, relumode=2, rowmaxen=1, rowmaxinit=1",
    "B.FPATR groupmaxen=1, groupncode=4, maxabsen=1, transa=1, transb=1",
    "B.IOR r5, r6, zero, ->zero",
    "B.IOR r1",
    "B.IOT T#1, mask=1111, last, ->T<1>",
    "B.IOT T#1, U#3, mask=1111, last, ->M<4>",
    "B.IOT mask=1111, last, ->T<4KiB>",
    "B.IOT M#2, N#16, mask=1100",
    "B.IOT T#5, mask=0000, last",
    "B.IOT U#1, mask=1110",
    "B.IOS S7, mask=1111",
    "B.IOS mask=1111, ->S255<12>",
    "B.IOS S1, mask=0000",
    "BSTOP",
    "C.BSTOP",
    "L.BSTOP",
    ".word 0x0c019181",
    ".word 0x00007013",
};

/// Checks one completed bundle's structural invariants; returns a description of the first problem.
std::string bundle_problem(const Bundle& b) {
  if (b.iot.size() > 16) return "more than 16 B.IOT";
  if (b.ios.size() > 4) return "more than 4 B.IOS";
  if (b.fpatr_count != (b.fpatr ? 1 : 0)) return "fpatr_count";
  if (b.fpatr && b.kind != StartKind::Cube) return "B.FPATR on a TEPL block";
  if (b.mnemonic.empty()) return "empty mnemonic";
  const PeMask m = b.mask();
  std::set<unsigned> ids;
  for (const IotBinding& i : b.iot)
    if (i.mask != m || i.mask.empty()) return "unequal B.IOT mask";
  for (const IosBinding& s : b.ios) {
    if (s.mask != m || s.mask.empty()) return "unequal B.IOS mask";
    if (!ids.insert(s.shared_id).second) return "duplicate Shared id";
  }
  for (std::size_t i = 0; i + 1 < b.iot.size(); ++i)
    if (b.iot[i].last) return "B.IOT after last";
  if (b.terminated != (!b.iot.empty() && b.iot.back().last)) return "terminated flag";
  return "";
}

TEST_CASE("fuzz: 100000 random instruction streams through decoder and BlockBuilder", "[bundle][fuzz]") {
  std::vector<Encoding> pool;
  for (const char* line : kValidLines) pool.push_back(*encode(test::assemble_one(line)));
  std::mt19937_64 rng(0x5EED0B0C);
  long units = 0, bundles = 0, faults = 0, truncated = 0, problems = 0;
  std::string first_problem;
  auto problem = [&](const std::string& what) {
    if (problems++ == 0) first_problem = what;
  };
  for (int stream = 0; stream < 100000; ++stream) {
    std::vector<std::uint8_t> bytes;
    const int length = 1 + static_cast<int>(rng() % 24);
    for (int u = 0; u < length; ++u) {
      const unsigned kind = static_cast<unsigned>(rng() % 20);
      std::uint64_t r = rng();
      Encoding e;
      if (kind < 8) {
        e = pool[r % pool.size()];
      } else if (kind < 11) {
        e = pool[r % pool.size()];
        // One flipped bit; when it changes the length class the decoder re-synchronises on the
        // following bytes, which is part of what is fuzzed.
        e.bits ^= std::uint64_t{1} << ((r >> 32) % e.width_bits);
      } else if (kind < 15) {
        e = {(r & 0xFFFFFFF0ULL) | (2 * (r % 7) + 1), 32};  // odd low nibble other than 1111
      } else if (kind < 17) {
        e = {r & 0xFFFE, 16};                                // even low nibble ...
        if ((e.bits & 0xF) == 0xE) e.bits ^= 0x2;             // ... other than 1110
        if ((r >> 40) & 1) e.bits = (e.bits & ~0x3FULL) | 0x3C;  // C.B.DIMI with random fields
      } else if (kind < 18) {
        e = {0x000000010000000FULL, 64};
      } else if (kind < 19) {
        e = {r | 0xF, 64};
      } else {
        e = {(r & 0xFFFFFFFFFFF0ULL) | 0xE, 48};
      }
      append_bytes(e, bytes);
    }
    if (rng() % 16 == 0) bytes.push_back(static_cast<std::uint8_t>(rng()));
    const DecodedProgram program = decode_program(bytes, "fuzz.bin");
    truncated += program.error.has_value();
    // The stream re-encodes to the bytes it was decoded from.
    std::vector<std::uint8_t> again;
    for (const Instruction& inst : program.instructions) {
      const Result<Encoding> e = encode(inst.body);
      if (!e) {
        problem("decoded instruction does not encode: " + e.fault().rule);
        continue;
      }
      append_bytes(*e, again);
    }
    if (again.size() > bytes.size() || !std::equal(again.begin(), again.end(), bytes.begin()))
      problem("stream does not re-encode to its bytes");
    if (program.error && bytes.size() - again.size() >= 8) problem("truncation with 8 bytes left");

    BlockBuilder builder;
    for (const Instruction& inst : program.instructions) {
      ++units;
      const FeedResult r = builder.feed(inst);
      if (r.completed && r.fault) problem("both a bundle and a fault");
      if (r.completed) {
        ++bundles;
        const std::string p = bundle_problem(*r.completed);
        if (!p.empty()) problem(p);
      }
      if (r.fault) {
        ++faults;
        if (r.fault->fault.rule.empty() || r.fault->instruction.empty() || r.fault->block_mnemonic.empty())
          problem("fault without rule or names");
        if (r.fault->loc.offset < 0) problem("fault without location");
        if (r.fault->block_index < -1 || r.fault->block_index >= builder.blocks_started())
          problem("fault block index");
      }
      if (stream % 8 == 0) {
        // Disassembly re-assembles to the same bits.
        const std::string text = disassemble(inst.body);
        const Assembly a = assemble(text, "d.s");
        if (!a.ok() || a.instructions.size() != 1 || encode(a.instructions[0].body)->bits != encode(inst.body)->bits)
          problem("disassembly does not round-trip: " + text);
      }
    }
    if (const auto end = builder.finish(); end && end->fault.code != FaultCode::BundleControl)
      problem("end of program fault class");
  }
  INFO(first_problem);
  CHECK(problems == 0);
  CHECK(units > 1000000);
  CHECK(bundles > 10000);
  CHECK(faults > 100000);
  CHECK(truncated > 1000);
}

std::string mutate(std::string line, std::mt19937_64& rng) {
  const int edits = 1 + static_cast<int>(rng() % 3);
  for (int i = 0; i < edits; ++i) {
    const std::size_t at = line.empty() ? 0 : rng() % line.size();
    const char c = static_cast<char>(rng() % 3 == 0 ? (rng() % 255) + 1 : " ,=<>-#.;0123456789TUMNSrx"[rng() % 26]);
    switch (rng() % 6) {
      case 0: if (!line.empty()) line.erase(at, 1); break;
      case 1: line.insert(at, 1, c == '\n' ? ' ' : c); break;
      case 2: if (!line.empty()) line[at] = c == '\n' ? ' ' : c; break;
      case 3: line.resize(at); break;
      case 4: line.insert(at, line.substr(at, rng() % 8)); break;
      default: if (line.size() > 1) std::swap(line[at], line[rng() % line.size()]); break;
    }
  }
  return line;
}

TEST_CASE("fuzz: 100000 random text lines through the assembler", "[bundle][fuzz]") {
  const char* const tokens[] = {
      "BSTART.SFU", "BSTART.VEC", "BSTART.TEPL", "BSTART.TMATMUL", "BSTART.TGEMVMX.ACC", "B.DIM", "C.B.DIMI",
      "B.DATR",     "B.FPATR",    "B.IOR",       "B.IOT",          "B.IOS",              "BSTOP", "C.BSTOP",
      "L.BSTOP",    ".word",      "TROWSUM",     "TADD",           "TMATMUL",            "FP32",  "S8",
      "none",       "zero",       "r5",          "r24",            "sp",                 "ra",    "T#1",
      "U#16",       "N#17",       "S7",          "S256",           "mask",               "1111",  "1010",
      "last",       "LB0",        "LB3",         "pad",            "max",                "byteid", "dtype",
      "rmode",      "layout",     "ND2ZN",       "prequantmode",   "0",                  "1",     "16",
      "131072",     "0x0c019181", "0x13",        "4KiB",           "T",                  "M",     "<",
      ">",          "->",         ",",           "=",              ";",                  "-",     "\t",
  };
  const char* const separators[] = {" ", ", ", "", "=", "->", "<", ">", "  "};
  std::mt19937_64 rng(0xA55E3B1E);
  long accepted = 0, rejected = 0, problems = 0;
  std::string first_problem;
  // Every line again in one text: a line reads as it reads alone, whatever lines came before it
  // (the assembler reuses its buffers from line to line).
  std::string all_lines;
  Assembly alone;
  auto problem = [&](const std::string& what, const std::string& line) {
    if (problems++ == 0) first_problem = what + ": [" + line + "]";
  };
  for (int i = 0; i < 100000; ++i) {
    std::string line;
    const unsigned kind = static_cast<unsigned>(rng() % 10);
    if (kind < 4) {
      const int count = 1 + static_cast<int>(rng() % 10);
      for (int t = 0; t < count; ++t) {
        if (t > 0) line += separators[rng() % std::size(separators)];
        line += tokens[rng() % std::size(tokens)];
      }
    } else if (kind < 7) {
      line = mutate(kValidLines[rng() % std::size(kValidLines)], rng);
    } else if (kind < 9) {
      const std::size_t n = rng() % 41;
      for (std::size_t b = 0; b < n; ++b) {
        const char c = static_cast<char>(rng() % 256);
        line += c == '\n' ? '\r' : c;
      }
    } else {
      line = kValidLines[rng() % std::size(kValidLines)];
    }
    const Assembly a = assemble(line, "f.s");
    if (a.errors.size() + a.instructions.size() > 1) problem("more than one result for one line", line);
    all_lines += line + "\n";
    for (Instruction inst : a.instructions) {
      inst.loc.line = i + 1;
      alone.instructions.push_back(inst);
    }
    for (AsmError e : a.errors) {
      e.loc.line = i + 1;
      alone.errors.push_back(e);
    }
    if (!a.errors.empty()) {
      ++rejected;
      const AsmError& e = a.errors[0];
      if (e.message.empty()) problem("empty message", line);
      if (e.loc.line != 1 || e.loc.column < 1 || e.loc.column > static_cast<int>(line.size()) + 1)
        problem("error location out of the line", line);
      if (e.loc.file != "f.s") problem("error file", line);
    } else if (!a.instructions.empty()) {
      ++accepted;
      const Result<Encoding> e = encode(a.instructions[0].body);
      if (!e) {
        problem("assembled instruction does not encode", line);
        continue;
      }
      const std::string text = disassemble(a.instructions[0].body);
      const Assembly again = assemble(text, "g.s");
      if (!again.ok() || again.instructions.size() != 1 || encode(again.instructions[0].body)->bits != e->bits ||
          disassemble(again.instructions[0].body) != text)
        problem("accepted line does not round-trip via " + text, line);
    }
  }
  INFO(first_problem);
  CHECK(problems == 0);
  CHECK(accepted > 10000);
  CHECK(rejected > 30000);

  const Assembly together = assemble(all_lines, "f.s");
  REQUIRE(together.instructions.size() == alone.instructions.size());
  REQUIRE(together.errors.size() == alone.errors.size());
  long differences = 0;
  for (std::size_t k = 0; k < together.instructions.size(); ++k) {
    const Instruction &x = together.instructions[k], &y = alone.instructions[k];
    differences += !(x.body == y.body) || x.loc.line != y.loc.line || x.loc.column != y.loc.column;
  }
  for (std::size_t k = 0; k < together.errors.size(); ++k) {
    const AsmError &x = together.errors[k], &y = alone.errors[k];
    differences += x.message != y.message || x.loc.line != y.loc.line || x.loc.column != y.loc.column;
  }
  CHECK(differences == 0);
}

}  // namespace
}  // namespace ptosim::model
