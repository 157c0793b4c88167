// SPDX-License-Identifier: BSD-3-Clause
#include "engines/common/tile_engine.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "engines/common/address_map.h"
#include "engines/common/scoped_extension.h"
#include "engines/common/burst_train.h"
#include "model/bundle/operation.h"
#include "model/plan/preflight_support.h"

namespace ptosim::engines {

TileEngine::TileEngine(sc_core::sc_module_name name, const model::ClockParams& clock, const StreamParams& stream)
    : sc_core::sc_module(name), cmd_target_socket("cmd_target_socket"), mem_initiator_socket("mem_initiator_socket"),
      m_clock(clock), m_stream(stream) {
  cmd_target_socket.register_b_transport(this, &TileEngine::b_transport);
  mem_initiator_socket.register_invalidate_direct_mem_ptr(this, &TileEngine::invalidate_direct_mem_ptr);
}

std::uint8_t* TileEngine::direct(std::uint64_t address, std::uint64_t bytes) {
  const std::uint64_t last = address + (bytes == 0 ? 0 : bytes - 1);
  for (const tlm::tlm_dmi& d : m_dmi)
    if (d.get_start_address() <= address && last <= d.get_end_address())
      return d.get_dmi_ptr() + (address - d.get_start_address());
  tlm::tlm_generic_payload gp;
  gp.set_command(tlm::TLM_READ_COMMAND);
  gp.set_address(address);
  gp.set_data_length(static_cast<unsigned int>(bytes));  // how much of the region the operand spans
  tlm::tlm_dmi dmi;
  if (!mem_initiator_socket->get_direct_mem_ptr(gp, dmi) || !dmi.is_read_write_allowed() ||
      dmi.get_start_address() > address || last > dmi.get_end_address())
    SC_REPORT_FATAL(name(), "tile memory refused direct access to an operand");
  m_dmi.push_back(dmi);
  return dmi.get_dmi_ptr() + (address - dmi.get_start_address());
}

void TileEngine::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  m_dmi.erase(std::remove_if(m_dmi.begin(), m_dmi.end(),
                             [&](const tlm::tlm_dmi& d) { return d.get_start_address() <= end && start <= d.get_end_address(); }),
              m_dmi.end());
}

namespace {

std::uint64_t traced_opcode(model::Operation op) { return static_cast<std::uint64_t>(op) + 1; }

}  // namespace

std::vector<std::pair<unsigned, std::string>> TileEngine::traced_opcode_names() {
  std::vector<std::pair<unsigned, std::string>> names{{0, "none"}};
  for (int i = 0; i < model::kOperationCount; ++i) {
    const auto op = static_cast<model::Operation>(i);
    names.emplace_back(static_cast<unsigned>(traced_opcode(op)), model::operation_mnemonic(op));
  }
  return names;
}

void TileEngine::trace_to(traces::VcdRecorder& rec, const std::string& scope) {
  m_busy.attach(rec, rec.declare(scope, "busy", 1));
  m_opcode.attach(rec, rec.declare(scope, "opcode", 8));
  m_bundle.attach(rec, rec.declare(scope, "bundle_id", 32, traces::VcdRecorder::Start::Unknown));
}

void TileEngine::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  auto* cmd = gp.get_extension<EngineCommand>();
  if (!cmd || !cmd->plan) {  // the engine takes commands only, not reads or writes
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  if (delay != sc_core::SC_ZERO_TIME) sc_core::wait(delay);  // a zero wait would only cost a context switch
  delay = execute(*cmd);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

std::optional<sc_core::sc_time> TileEngine::issue() {
  using sc_core::sc_time;
  tlm::tlm_generic_payload& gp = m_train_payload;  // kept: a payload allocates its extension array
  BurstTrain train;
  train.burst_bytes = m_stream.burst_bytes;
  const ScopedExtension<BurstTrain> attach(gp, train);
  gp.set_command(tlm::TLM_IGNORE_COMMAND);
  gp.set_byte_enable_ptr(nullptr);
  gp.set_dmi_allowed(false);
  std::uint8_t scratch = 0;
  gp.set_data_ptr(&scratch);
  // Times are SystemC time values (integer multiples of the time resolution): integer arithmetic
  // keeps the pacing cheap.
  const std::uint64_t lookahead = m_stream.lookahead_cycles * m_clock.period().value();
  const std::uint64_t never = ~std::uint64_t{0};
  std::uint64_t now = sc_core::sc_time_stamp().value();
  std::uint64_t last_done = now;
  for (;;) {
    std::uint64_t first = never;
    for (const MemoryStreams& m : m_memories)
      for (std::size_t i = 0; i < m.live(); ++i)
        if (!m.streams[i]->finished()) first = std::min(first, m.streams[i]->pacer.next_issue());
    if (first == never) break;
    if (first > now + lookahead) {
      sc_core::wait(sc_time::from_value(first - lookahead - now));
      now = sc_core::sc_time_stamp().value();
    }
    // Each memory with a burst due within the lookahead books its streams' bursts up to there.
    train.horizon = now + lookahead;
    for (MemoryStreams& m : m_memories) {
      const model::BurstStream* lead = nullptr;
      bool due = false;
      for (std::size_t i = 0; i < m.live(); ++i) {
        const model::BurstStream& s = *m.streams[i];
        if (s.finished()) continue;
        if (!lead) lead = &s;
        due = due || s.pacer.next_issue() <= train.horizon;
      }
      if (!due) continue;
      const model::StreamTransfer& t = lead->transfers[lead->next];
      const auto len = static_cast<unsigned int>(t.bytes - lead->offset);
      gp.set_address(t.address + lead->offset);
      gp.set_data_length(len);
      gp.set_streaming_width(len);
      gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      train.streams = m.streams.data();
      train.stream_count = m.streams.size();
      train.group_size = m.group_size;
      train.copies = m.copies;
      train.origin = gp.get_address();
      train.booked_bytes = 0;
      sc_time delay = sc_core::SC_ZERO_TIME;
      mem_initiator_socket->b_transport(gp, delay);
      if (gp.get_response_status() != tlm::TLM_OK_RESPONSE) return std::nullopt;
      m.copies = train.copies;
      if (train.booked_bytes == 0) {
        // A target that ignores the extension would leave the streams where they were, forever.
        SC_REPORT_ERROR(name(), "a memory target answered a burst train without booking it (BurstTrain unsupported)");
        return std::nullopt;
      }
      last_done = std::max<std::uint64_t>(last_done, now + delay.value());
    }
  }
  return sc_time::from_value(last_done);
}

model::NumericFlags TileEngine::run_pe(const model::ExecPlan& plan, int pe) {
  model::PePayloads io;
  io.pe = pe;
  std::vector<std::vector<std::uint8_t>> copies;
  for (const model::SourceOperand& s : plan.sources) {
    const std::uint8_t* in = direct(address_map::fragment_address(s.ref.space, s.slot, s.ref.is_shared() ? 0 : pe), s.desc.storage_bytes());
    // A source whose register this bundle's own result takes over (queue policy) is read old.
    if (!s.ref.is_shared() &&
        std::any_of(plan.dests.begin(), plan.dests.end(), [&](const model::DestOperand& d) { return d.slot == s.slot; })) {
      copies.emplace_back(in, in + s.desc.storage_bytes());
      in = copies.back().data();
    }
    io.sources.push_back(in);
  }
  for (const model::DestOperand& d : plan.dests) {
    std::uint8_t* out = direct(address_map::fragment_address(model::TileRef::Space::Local, d.slot, pe), d.desc.capacity_bytes);
    std::memset(out, 0, d.desc.capacity_bytes);  // a new tile's payload starts as zero bits
    io.dests.push_back(out);
  }
  const model::NumericFlags flags = run_core(plan, io);
  for (std::size_t i = 0; i < plan.dests.size(); ++i) model::write_padding(plan.dests[i], io.dests[i]);
  return flags;
}

sc_core::sc_time TileEngine::execute(EngineCommand& cmd) {
  const model::ExecPlan& plan = *cmd.plan;
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  const bool from_idle = m_stats.commands == 0 || start > m_last_done;
  m_busy.set(1, Clocked::now_ps);
  m_opcode.set(traced_opcode(plan.op), Clocked::now_ps);
  m_bundle.set(cmd.bundle_id, Clocked::now_ps);

  std::array<int, model::kPeCount> pes{};
  std::size_t n_pes = 0;
  for (int pe = 0; pe < model::kPeCount; ++pe)
    if (plan.mask.has(pe)) pes[n_pes++] = pe;

  // The datapath works on the operands in place; their traffic is timed per PE (each PE's Local
  // memory is its own) and once per Shared operand, all streams starting with the command (the
  // layout of m_streams is in the header).
  // A PE's reads and writes go to its Local memory, the Shared reads to the Shared memory; the
  // layout depends only on how many PEs take part.
  const std::size_t n_streams = 2 * n_pes + 1;
  MemoryStreams& local = m_memories[0];
  if (m_streams.size() != n_streams) {
    m_streams.assign(n_streams, model::BurstStream(model::BurstPacer(m_clock.period().value(), m_stream.outstanding_requests)));
    local.streams.clear();
    for (std::size_t k = 0; k < n_pes; ++k) {
      local.streams.push_back(&m_streams[k]);
      local.streams.push_back(&m_streams[n_pes + 1 + k]);
    }
    m_memories[1].streams.assign(1, &m_streams[n_pes]);
  }
  // When every PE takes part, their Local streams are alike: only the first PE's are built, the
  // others are placeholders for copies of them.
  local.copies = n_pes == model::kPeCount && n_pes > 1;
  const std::size_t built = local.copies ? 1 : n_pes;
  const std::uint64_t now = start.value();
  const auto start_stream = [&](model::BurstStream& s, bool write) {
    s.write = write;
    s.transfers.clear();
    s.restart(now, write ? m_stream.write_bytes_per_cycle : m_stream.read_bytes_per_cycle);
  };
  start_stream(m_streams[n_pes], false);
  for (std::size_t k = 0; k < built; ++k) {
    start_stream(m_streams[k], false);
    start_stream(m_streams[n_pes + 1 + k], true);
  }
  // Each PE reads its fragment of every Local source and writes its result fragments; a Shared
  // source is read once.
  for (const model::SourceOperand& s : plan.sources) {
    const std::uint64_t bytes = s.desc.storage_bytes();
    if (s.ref.is_shared()) {
      m_streams[n_pes].transfers.push_back({address_map::fragment_address(s.ref.space, s.slot, 0), bytes});
      m_stats.bytes_read += bytes;
      continue;
    }
    m_stats.bytes_read += bytes * n_pes;
    for (std::size_t k = 0; k < built; ++k)
      m_streams[k].transfers.push_back({address_map::fragment_address(s.ref.space, s.slot, pes[k]), bytes});
  }
  for (const model::DestOperand& d : plan.dests) {
    const std::uint64_t bytes = d.desc.storage_bytes();
    m_stats.bytes_written += bytes * n_pes;
    for (std::size_t k = 0; k < built; ++k)
      m_streams[n_pes + 1 + k].transfers.push_back({address_map::fragment_address(model::TileRef::Space::Local, d.slot, pes[k]), bytes});
  }
  if (!cmd.timing_only)
    for (std::size_t k = 0; k < n_pes; ++k) cmd.flags |= run_pe(plan, pes[k]);
  const model::Cycles compute = compute_cycles(plan, from_idle);
  const auto streams_done = issue();
  if (!streams_done) SC_REPORT_ERROR(name(), "tile memory rejected an operand access (address map error)");
  const sc_core::sc_time booked = sc_core::sc_time_stamp();
  const sc_core::sc_time done = std::max({start + m_clock.to_time(compute), streams_done.value_or(start), booked});
  // Every booking is made: the caller waits out the rest, which it may fold into a wait of its
  // own. Nothing can change the engine's busy signal meanwhile, so its fall is known now.
  const std::uint64_t busy = m_clock.to_cycles(done - start);
  ++m_stats.commands;
  m_stats.busy_cycles += busy;
  m_stats.compute_cycles += compute.count;
  m_stats.memory_stall_cycles += busy > compute.count ? busy - compute.count : 0;  // waiting for memory
  auto& op = m_stats.per_op[static_cast<std::size_t>(plan.op)];
  ++op.count;
  op.cycles += busy;
  m_last_done = done;
  m_busy.set_at(0, Clocked::ps_of(done));
  return done - booked;
}

}  // namespace ptosim::engines
