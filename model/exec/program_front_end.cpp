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
  const bool between_blocks = !m_builder.active();
  if (between_blocks && (item = replay())) return item;
  const std::size_t first = m_pos;
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
      // Only a block read from between blocks to its BSTOP stands alone (one ended by the next
      // BSTART leaves that block open).
      if (between_blocks && !m_builder.active()) remember(first, *fetched.bundle);
      return item;
    }
  }
  m_done = true;
  if (auto f = m_builder.finish()) set_fault(item.emplace(), *f, consumed);
  return item;
}

std::optional<FetchedBundle> ProgramFrontEnd::replay() {
  std::optional<FetchedBundle> item;
  std::size_t encoded = 0;  // m_upcoming holds the words from m_pos on this far
  for (std::size_t k = 0; k < m_recent.size(); ++k) {
    const DecodedBlock& block = m_recent[k];
    if (block.words.size() > m_program.size() - m_pos) continue;
    std::size_t i = 0;
    for (; i < block.words.size(); ++i) {
      if (i == encoded) {
        const std::optional<Encoding> word = encoding(m_program[m_pos + i].body);
        if (!word) break;
        if (m_upcoming.size() == encoded) m_upcoming.emplace_back();
        m_upcoming[encoded++] = *word;
      }
      if (m_upcoming[i] != block.words[i]) break;
    }
    if (i < block.words.size()) continue;
    FetchedBundle& fetched = item.emplace();
    fetched.bundle.emplace(block.bundle);
    fetched.bundle->loc = m_program[m_pos + block.start_offset].loc;
    fetched.bundle->index = m_builder.count_replayed_block();
    fetched.op = fetched.bundle->mnemonic;
    fetched.loc = fetched.bundle->loc;
    fetched.instructions = static_cast<unsigned>(block.words.size());
    m_pos += block.words.size();
    return item;
  }
  return item;
}

void ProgramFrontEnd::remember(std::size_t first, const Bundle& bundle) {
  // Every instruction the block consumed validated, so each encodes.
  DecodedBlock block;
  for (std::size_t i = first; i < m_pos; ++i) {
    const InstructionBody& body = m_program[i].body;
    if (std::holds_alternative<BStartTepl>(body) || std::holds_alternative<BStartCube>(body)) block.start_offset = i - first;
    block.words.push_back(*encoding(body));
  }
  block.bundle = bundle;
  // The oldest block makes room: a loop body's blocks come round again in order.
  if (m_recent.size() < kRecentBlocks)
    m_recent.push_back(std::move(block));
  else
    m_recent[m_oldest] = std::move(block);
  m_oldest = (m_oldest + 1) % kRecentBlocks;
}

}  // namespace ptosim::model
