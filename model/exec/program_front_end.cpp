// SPDX-License-Identifier: BSD-3-Clause
#include "model/exec/program_front_end.h"

namespace ptosim::model {

namespace {

void set_fault(FetchedBundle& item, const BlockFault& f, unsigned instructions) {
  item.fault = f.fault;
  item.op = f.block_mnemonic;
  item.instructions = instructions;
  item.loc = f.loc;
}

}  // namespace

ProgramFrontEnd::ProgramFrontEnd(std::vector<Instruction> program) : m_program(std::move(program)) {}

std::optional<FetchedBundle> ProgramFrontEnd::next() {
  std::optional<FetchedBundle> item;  // every path returns it: built in place, never moved
  if (m_done) return item;
  unsigned consumed = 0;
  while (m_pos < m_program.size()) {
    const Instruction& inst = m_program[m_pos++];
    ++consumed;
    FeedResult r = m_builder.feed(inst);
    if (r.fault) {
      m_done = true;
      set_fault(item.emplace(), *r.fault, consumed);
      return item;
    }
    if (r.completed) {
      FetchedBundle& fetched = item.emplace();
      fetched.op = r.completed->mnemonic;
      fetched.loc = r.completed->loc;
      fetched.bundle.emplace(std::move(*r.completed));
      fetched.instructions = consumed;
      return item;
    }
  }
  m_done = true;
  if (auto f = m_builder.finish()) set_fault(item.emplace(), *f, consumed);
  return item;
}

}  // namespace ptosim::model
