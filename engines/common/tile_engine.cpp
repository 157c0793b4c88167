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

std::optional<sc_core::sc_time> TileEngine::stream(tlm::tlm_command command, const std::vector<Transfer>& transfers,
                                                   std::uint64_t bytes_per_cycle, const sc_core::sc_time& start,
                                                   bool timing_only) {
  tlm::tlm_generic_payload gp;
  TimingOnlyAccess no_data;
  if (timing_only) gp.set_extension(&no_data);
  std::uint8_t scratch = 0;
  sc_core::sc_time issue_at = start, last_done = start;
  bool ok = true;
  for (const Transfer& t : transfers) {
    for (std::uint64_t offset = 0; offset < t.bytes && ok; offset += m_stream.burst_bytes) {
      const std::uint64_t len = std::min(m_stream.burst_bytes, t.bytes - offset);
      gp.set_command(command);
      gp.set_address(t.address + offset);
      gp.set_data_ptr(timing_only ? &scratch : t.data + offset);
      gp.set_data_length(static_cast<unsigned int>(len));
      gp.set_streaming_width(static_cast<unsigned int>(len));
      gp.set_byte_enable_ptr(nullptr);
      gp.set_dmi_allowed(false);
      gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      sc_core::sc_time delay = issue_at - sc_core::sc_time_stamp();
      mem_initiator_socket->b_transport(gp, delay);
      ok = gp.get_response_status() == tlm::TLM_OK_RESPONSE;
      last_done = std::max(last_done, sc_core::sc_time_stamp() + delay);
      (command == tlm::TLM_READ_COMMAND ? m_stats.bytes_read : m_stats.bytes_written) += len;
      // The engine's own stream rate paces its requests.
      issue_at += m_clock.period() * (static_cast<double>(len) / static_cast<double>(bytes_per_cycle));
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

  // Operands stream in per PE (each PE's Local memory is its own) and once per Shared operand;
  // engines run ahead of simulated time and wait once, for the later of data and compute.
  std::vector<std::vector<std::vector<std::uint8_t>>> src(plan.sources.size());
  std::vector<std::vector<Transfer>> local_reads(pes.size());
  std::vector<Transfer> shared_reads;
  for (std::size_t i = 0; i < plan.sources.size(); ++i) {
    const model::SourceOperand& s = plan.sources[i];
    const std::uint64_t bytes = s.desc.storage_bytes();
    const bool shared = s.ref.is_shared();
    for (std::size_t k = 0; k < (shared ? 1 : pes.size()); ++k) {
      src[i].emplace_back(cmd.timing_only ? 0 : bytes, 0);
      const Transfer t{address_map::fragment_address(s.ref.space, s.slot, shared ? 0 : pes[k]), src[i].back().data(), bytes};
      (shared ? shared_reads : local_reads[k]).push_back(t);
    }
  }
  bool ok = true;
  sc_core::sc_time done = start + m_clock.to_time(compute_cycles(plan, from_idle));
  const model::Cycles compute = model::Cycles(m_clock.to_cycles(done - start));
  auto issue = [&](tlm::tlm_command command, const std::vector<Transfer>& transfers, std::uint64_t rate) {
    if (transfers.empty() || !ok) return;
    const auto end = stream(command, transfers, rate, start, cmd.timing_only);
    ok = end.has_value();
    if (ok) done = std::max(done, *end);
  };
  for (const auto& reads : local_reads) issue(tlm::TLM_READ_COMMAND, reads, m_stream.read_bytes_per_cycle);
  issue(tlm::TLM_READ_COMMAND, shared_reads, m_stream.read_bytes_per_cycle);

  // Results of each PE, written back as the datapath produces them.
  for (std::size_t k = 0; k < pes.size() && ok; ++k) {
    model::PePayloads io;
    io.pe = pes[k];
    for (std::size_t i = 0; i < plan.sources.size(); ++i)
      io.sources.push_back(src[i][plan.sources[i].ref.is_shared() ? 0 : k].data());
    std::vector<std::vector<std::uint8_t>> results;
    std::vector<Transfer> writes;
    for (const model::DestOperand& d : plan.dests) {
      results.emplace_back(cmd.timing_only ? 0 : d.desc.storage_bytes(), 0);
      io.dests.push_back(results.back().data());
      writes.push_back(Transfer{address_map::fragment_address(model::TileRef::Space::Local, d.slot, pes[k]),
                                results.back().data(), d.desc.storage_bytes()});
    }
    if (!cmd.timing_only) {
      cmd.flags |= run_core(plan, io);
      for (std::size_t i = 0; i < plan.dests.size(); ++i) model::write_padding(plan.dests[i], io.dests[i]);
    }
    issue(tlm::TLM_WRITE_COMMAND, writes, m_stream.write_bytes_per_cycle);
  }
  if (!ok) SC_REPORT_ERROR(name(), "tile memory rejected an operand access (address map error)");

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
