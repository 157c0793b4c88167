// SPDX-License-Identifier: BSD-3-Clause
#include "model/exec/program_front_end.h"

namespace ptosim::model {

namespace {

FetchedBundle from_fault(const BlockFault& f, unsigned instructions) {
  FetchedBundle item;
  item.fault = f.fault;
  item.op = f.block_mnemonic;
  item.instructions = instructions;
  item.loc = f.loc;
  return item;
}

}  // namespace

ProgramFrontEnd::ProgramFrontEnd(std::vector<Instruction> program) : m_program(std::move(program)) {}

std::optional<FetchedBundle> ProgramFrontEnd::next() {
  if (m_done) return std::nullopt;
  unsigned consumed = 0;
  while (m_pos < m_program.size()) {
    const Instruction& inst = m_program[m_pos++];
    ++consumed;
    FeedResult r = m_builder.feed(inst);
    if (r.fault) {
      m_done = true;
      return from_fault(*r.fault, consumed);
    }
    if (r.completed) {
      FetchedBundle item;
      item.op = r.completed->mnemonic;
      item.loc = r.completed->loc;
      item.bundle = std::move(*r.completed);
      item.instructions = consumed;
      return item;
    }
  }
  m_done = true;
  if (auto f = m_builder.finish()) return from_fault(*f, consumed);
  return std::nullopt;
}

}  // namespace ptosim::model
