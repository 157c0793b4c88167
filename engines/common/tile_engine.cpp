// SPDX-License-Identifier: BSD-3-Clause
#include "engines/common/tile_engine.h"

#include <algorithm>

#include "engines/common/address_map.h"
#include "engines/common/timing_only_access.h"
#include "model/plan/preflight_support.h"

namespace ptosim::engines {

TileEngine::TileEngine(sc_core::sc_module_name name, const model::ClockParams& clock, const StreamParams& stream)
    : sc_core::sc_module(name), cmd_target_socket("cmd_target_socket"), mem_initiator_socket("mem_initiator_socket"),
      m_clock(clock), m_stream(stream) {
  cmd_target_socket.register_b_transport(this, &TileEngine::b_transport);
}

void TileEngine::trace_to(traces::VcdRecorder& rec, const std::string& scope) {
  m_busy.attach(&rec, rec.declare(scope, "busy", 1));
  m_opcode.attach(&rec, rec.declare(scope, "opcode", 8));
  m_bundle.attach(&rec, rec.declare(scope, "bundle_id", 32));
}

void TileEngine::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  auto* cmd = gp.get_extension<EngineCommand>();
  if (!cmd || !cmd->plan) {
    gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  sc_core::wait(delay);
  delay = sc_core::SC_ZERO_TIME;
  execute(*cmd);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

std::optional<sc_core::sc_time> TileEngine::issue(tlm::tlm_command command, const std::vector<Stream>& streams,
                                                  std::uint64_t bytes_per_cycle, bool timing_only) {
  tlm::tlm_generic_payload gp;
  TimingOnlyAccess no_data;
  if (timing_only) gp.set_extension(&no_data);
  std::uint8_t scratch = 0;
  const sc_core::sc_time lookahead = m_clock.to_time(model::Cycles(m_stream.lookahead_cycles));
  // Cursor per stream: transfer index, offset in it, arrival time of its next burst, and the
  // completion times of its requests in flight (a ring of outstanding_requests entries).
  struct Cursor {
    std::size_t transfer = 0;
    std::uint64_t offset = 0;
    sc_core::sc_time at;
    std::vector<sc_core::sc_time> in_flight;
    std::size_t issued = 0;
  };
  std::vector<Cursor> cursors;
  for (const Stream& s : streams)
    cursors.push_back(Cursor{0, 0, std::max(s.start, sc_core::sc_time_stamp()),
                             std::vector<sc_core::sc_time>(m_stream.outstanding_requests, sc_core::SC_ZERO_TIME), 0});
  sc_core::sc_time last_done = sc_core::sc_time_stamp();
  bool ok = true;
  for (;;) {
    // The stream whose next burst arrives first.
    std::size_t next = streams.size();
    for (std::size_t i = 0; i < streams.size(); ++i)
      if (cursors[i].transfer < streams[i].transfers.size() && (next == streams.size() || cursors[i].at < cursors[next].at))
        next = i;
    if (next == streams.size() || !ok) break;
    Cursor& c = cursors[next];
    const Transfer& t = streams[next].transfers[c.transfer];
    if (c.at > sc_core::sc_time_stamp() + lookahead) sc_core::wait(c.at - lookahead - sc_core::sc_time_stamp());
    const std::uint64_t len = std::min(m_stream.burst_bytes, t.bytes - c.offset);
    gp.set_command(command);
    gp.set_address(t.address + c.offset);
    gp.set_data_ptr(timing_only ? &scratch : t.data + c.offset);
    gp.set_data_length(static_cast<unsigned int>(len));
    gp.set_streaming_width(static_cast<unsigned int>(len));
    gp.set_byte_enable_ptr(nullptr);
    gp.set_dmi_allowed(false);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = c.at - sc_core::sc_time_stamp();
    mem_initiator_socket->b_transport(gp, delay);
    ok = gp.get_response_status() == tlm::TLM_OK_RESPONSE;
    const sc_core::sc_time completes = sc_core::sc_time_stamp() + delay;
    last_done = std::max(last_done, completes);
    (command == tlm::TLM_READ_COMMAND ? m_stats.bytes_read : m_stats.bytes_written) += len;
    // The engine's own stream rate paces its requests, and a request may leave only when the one
    // outstanding_requests back has completed.
    c.in_flight[c.issued++ % c.in_flight.size()] = completes;
    c.at = std::max(c.at + m_clock.period() * (static_cast<double>(len) / static_cast<double>(bytes_per_cycle)),
                    c.in_flight[c.issued % c.in_flight.size()]);
    c.offset += len;
    if (c.offset >= t.bytes) {
      ++c.transfer;
      c.offset = 0;
    }
  }
  if (timing_only) gp.clear_extension(&no_data);
  if (!ok) return std::nullopt;
  return last_done;
}

void TileEngine::execute(EngineCommand& cmd) {
  const model::ExecPlan& plan = *cmd.plan;
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  const bool from_idle = m_stats.commands == 0 || start > m_last_done;
  m_busy.set(1, now_ps());
  m_opcode.set(static_cast<std::uint64_t>(plan.op), now_ps());
  m_bundle.set(cmd.bundle_id, now_ps());

  std::vector<int> pes;
  for (int pe = 0; pe < model::kPeCount; ++pe)
    if (plan.mask.has(pe)) pes.push_back(pe);

  // Operands stream in per PE (each PE's Local memory is its own) and once per Shared operand.
  std::vector<std::vector<std::vector<std::uint8_t>>> src(plan.sources.size());
  std::vector<Stream> reads(pes.size() + 1, Stream{{}, start});  // one per PE, then the Shared one
  for (std::size_t i = 0; i < plan.sources.size(); ++i) {
    const model::SourceOperand& s = plan.sources[i];
    const std::uint64_t bytes = s.desc.storage_bytes();
    const bool shared = s.ref.is_shared();
    for (std::size_t k = 0; k < (shared ? 1 : pes.size()); ++k) {
      src[i].emplace_back(cmd.timing_only ? 0 : bytes, 0);
      reads[shared ? pes.size() : k].transfers.push_back(
          Transfer{address_map::fragment_address(s.ref.space, s.slot, shared ? 0 : pes[k]), src[i].back().data(), bytes});
    }
  }
  const model::Cycles compute = compute_cycles(plan, from_idle);
  sc_core::sc_time done = start + m_clock.to_time(compute);
  const auto reads_done = issue(tlm::TLM_READ_COMMAND, reads, m_stream.read_bytes_per_cycle, cmd.timing_only);

  // Results of each PE stream out as the datapath produces them, from the command's start.
  std::vector<std::vector<std::vector<std::uint8_t>>> results(pes.size());
  std::vector<Stream> writes(pes.size(), Stream{{}, start});
  for (std::size_t k = 0; k < pes.size(); ++k) {
    model::PePayloads io;
    io.pe = pes[k];
    for (std::size_t i = 0; i < plan.sources.size(); ++i)
      io.sources.push_back(src[i][plan.sources[i].ref.is_shared() ? 0 : k].data());
    for (const model::DestOperand& d : plan.dests) {
      results[k].emplace_back(cmd.timing_only ? 0 : d.desc.storage_bytes(), 0);
      io.dests.push_back(results[k].back().data());
      writes[k].transfers.push_back(Transfer{address_map::fragment_address(model::TileRef::Space::Local, d.slot, pes[k]),
                                             results[k].back().data(), d.desc.storage_bytes()});
    }
    if (!cmd.timing_only) {
      cmd.flags |= run_core(plan, io);
      for (std::size_t i = 0; i < plan.dests.size(); ++i) model::write_padding(plan.dests[i], io.dests[i]);
    }
  }
  const auto writes_done = issue(tlm::TLM_WRITE_COMMAND, writes, m_stream.write_bytes_per_cycle, cmd.timing_only);
  if (!reads_done || !writes_done) SC_REPORT_ERROR(name(), "tile memory rejected an operand access (address map error)");
  done = std::max({done, reads_done.value_or(done), writes_done.value_or(done)});

  if (done > sc_core::sc_time_stamp()) sc_core::wait(done - sc_core::sc_time_stamp());
  const std::uint64_t busy = m_clock.to_cycles(sc_core::sc_time_stamp() - start);
  cmd.compute_cycles = compute.count;
  cmd.stall_cycles = busy > compute.count ? busy - compute.count : 0;
  ++m_stats.commands;
  m_stats.busy_cycles += busy;
  m_stats.compute_cycles += compute.count;
  m_stats.memory_stall_cycles += cmd.stall_cycles;
  auto& op = m_stats.per_op[model::operation_mnemonic(plan.op)];
  ++op.count;
  op.cycles += busy;
  m_last_done = sc_core::sc_time_stamp();
  m_busy.set(0, now_ps());
}

}  // namespace ptosim::engines
