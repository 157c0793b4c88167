// SPDX-License-Identifier: BSD-3-Clause
// Helpers shared by the bundle front-end tests: assemble one line, encode it, run a program text
// through the BlockBuilder.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "model/bundle/assembler.h"
#include "model/bundle/block_builder.h"
#include "model/bundle/encoding.h"

namespace ptosim::model::test {

/// The single instruction of one assembly line (the line must assemble).
inline InstructionBody assemble_one(const std::string& line) {
  const Assembly a = assemble(line, "t.s");
  INFO(line);
  REQUIRE(a.errors.empty());
  REQUIRE(a.instructions.size() == 1);
  return a.instructions[0].body;
}

/// The encoding bits of one assembly line.
inline std::uint64_t word_of(const std::string& line) {
  const Result<Encoding> e = encode(assemble_one(line));
  REQUIRE(e.ok());
  return e->bits;
}

/// The first error of a text that must not assemble.
inline AsmError first_error(const std::string& text) {
  const Assembly a = assemble(text, "t.s");
  INFO(text);
  REQUIRE(!a.errors.empty());
  return a.errors[0];
}

/// Every FeedResult of a program, plus the end-of-program check.
struct Run {
  std::vector<FeedResult> steps;
  std::optional<BlockFault> end;
  std::vector<Bundle> bundles() const {
    std::vector<Bundle> out;
    for (const FeedResult& s : steps)
      if (s.completed) out.push_back(*s.completed);
    return out;
  }
  std::vector<BlockFault> faults() const {
    std::vector<BlockFault> out;
    for (const FeedResult& s : steps)
      if (s.fault) out.push_back(*s.fault);
    return out;
  }
};

inline Run run_program(const std::string& text) {
  const Assembly a = assemble(text, "p.s");
  INFO(text);
  REQUIRE(a.errors.empty());
  Run r;
  BlockBuilder builder;
  for (const Instruction& inst : a.instructions) r.steps.push_back(builder.feed(inst));
  r.end = builder.finish();
  return r;
}

}  // namespace ptosim::model::test
