// SPDX-License-Identifier: BSD-3-Clause
#include "model/exec/program_front_end.h"

namespace ptosim::model {

namespace {

/// Whether the `n` instructions from `at` have the bodies of the `n` from `first`.
bool repeats(const std::vector<Instruction>& program, std::size_t first, std::size_t at, std::size_t n) {
  if (n > program.size() - at) return false;
  for (std::size_t i = 0; i < n; ++i)
    if (!same_body(program[at + i].body, program[first + i].body)) return false;
  return true;
}

}  // namespace

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
    if (!repeats(m_program, block.first, m_pos, n)) continue;
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
  // As the front end replays a block whose words repeat one it decoded (next), this skips a block
  // that repeats the last one read alone from BSTART to BSTOP: it decodes alike, without a fault.
  std::size_t last_first = 0, last_count = 0;
  std::size_t pos = 0;
  while (pos < program.size()) {
    const bool between_blocks = !builder.active();
    if (between_blocks && last_count != 0 && repeats(program, last_first, pos, last_count)) {
      builder.count_replayed_block();
      pos += last_count;
      continue;
    }
    const std::size_t first = pos;
    bool completed = false;
    while (!completed && pos < program.size()) {
      FeedResult r = builder.feed(program[pos++]);
      if (r.fault) return r.fault;
      completed = r.completed.has_value();
    }
    if (completed && between_blocks && !builder.active()) {
      last_first = first;
      last_count = pos - first;
    }
  }
  return builder.finish();
}

}  // namespace ptosim::model
