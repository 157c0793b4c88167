// SPDX-License-Identifier: BSD-3-Clause
#include "model/exec/program_front_end.h"

namespace ptosim::model {

ProgramFrontEnd::ProgramFrontEnd(std::vector<Instruction> program) : m_program(std::move(program)) {
  m_recent.reserve(kRecentBlocks);  // a lent bundle stays where it is until the next call
}

std::optional<FetchedBundle> ProgramFrontEnd::next() {
  std::optional<FetchedBundle> item;  // every path returns it: built in place, never moved
  if (m_done) return item;
  FetchedBundle& fetched = item.emplace();
  const bool between_blocks = !m_builder.active();
  if (between_blocks && replay(fetched)) return item;
  const std::size_t first = m_pos;
  while (m_pos < m_program.size()) {
    const Instruction& inst = m_program[m_pos++];
    ++fetched.instructions;
    FeedResult r = m_builder.feed(inst);
    if (r.fault) {
      m_done = true;
      fetched.fault = std::move(r.fault);
      return item;
    }
    if (r.completed) {
      m_decoded = std::move(*r.completed);
      fetched.bundle = &m_decoded;
      // Only a block read from between blocks to its BSTOP stands alone (one ended by the next
      // BSTART leaves that block open).
      if (between_blocks && !m_builder.active()) {
        DecodedBlock& block = remember(first);
        fetched.bundle = &block.bundle;
        fetched.memo = &block.memo;
      }
      return item;
    }
  }
  m_done = true;
  fetched.fault = m_builder.finish();
  if (!fetched.fault) item.reset();
  return item;
}

bool ProgramFrontEnd::replay(FetchedBundle& item) {
  for (DecodedBlock& block : m_recent) {
    const std::size_t n = block.count;
    if (n > m_program.size() - m_pos) continue;
    std::size_t i = 0;
    while (i < n && same_body(m_program[m_pos + i].body, m_program[block.first + i].body)) ++i;
    if (i < n) continue;
    block.bundle.loc = m_program[m_pos + block.start_offset].loc;
    block.bundle.index = m_builder.count_replayed_block();
    item.bundle = &block.bundle;
    item.memo = &block.memo;
    item.instructions = static_cast<unsigned>(n);
    m_pos += n;
    return true;
  }
  return false;
}

ProgramFrontEnd::DecodedBlock& ProgramFrontEnd::remember(std::size_t first) {
  // The oldest block makes room: a loop body's blocks come round again in order.
  if (m_recent.size() < kRecentBlocks) m_recent.emplace_back();
  DecodedBlock& block = m_recent[m_oldest];
  m_oldest = (m_oldest + 1) % kRecentBlocks;
  block.first = first;
  block.count = m_pos - first;
  block.start_offset = 0;
  for (std::size_t i = first; i < m_pos; ++i) {
    const InstructionBody& body = m_program[i].body;
    if (is_bstart(body)) block.start_offset = i - first;
  }
  block.bundle = std::move(m_decoded);
  block.memo = PreflightMemo{};
  return block;
}

std::optional<BlockFault> first_instruction_fault(const std::vector<Instruction>& program) {
  BlockBuilder builder;
  for (const Instruction& inst : program)
    if (FeedResult r = builder.feed(inst); r.fault) return r.fault;
  return builder.finish();
}

}  // namespace ptosim::model
