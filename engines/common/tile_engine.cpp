// SPDX-License-Identifier: BSD-3-Clause
#include "engines/common/tile_engine.h"

#include <algorithm>

#include "engines/common/address_map.h"
#include "model/plan/preflight_support.h"

namespace ptosim::engines {

namespace {

// How far an engine runs ahead of SystemC time while issuing bursts (temporal decoupling).
constexpr std::uint64_t kQuantumCycles = 32;

}  // namespace

TileEngine::TileEngine(sc_core::sc_module_name name, const model::ClockParams& clock, std::uint64_t burst_bytes)
    : sc_core::sc_module(name), cmd_target_socket("cmd_target_socket"), mem_initiator_socket("mem_initiator_socket"),
      m_clock(clock), m_burst_bytes(burst_bytes) {
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

bool TileEngine::stream(tlm::tlm_command command, const std::vector<std::uint64_t>& addresses,
                        const std::vector<std::uint8_t*>& buffers, const std::vector<std::uint64_t>& sizes) {
  tlm::tlm_generic_payload gp;
  const sc_core::sc_time quantum = m_clock.to_time(model::Cycles(kQuantumCycles));
  sc_core::sc_time issue_at = sc_core::sc_time_stamp();
  sc_core::sc_time last_done = issue_at;
  const std::uint64_t longest = sizes.empty() ? 0 : *std::max_element(sizes.begin(), sizes.end());
  for (std::uint64_t offset = 0; offset < longest; offset += m_burst_bytes) {
    for (std::size_t i = 0; i < addresses.size(); ++i) {
      if (offset >= sizes[i]) continue;
      const std::uint64_t len = std::min(m_burst_bytes, sizes[i] - offset);
      gp.set_command(command);
      gp.set_address(addresses[i] + offset);
      gp.set_data_ptr(buffers[i] + offset);
      gp.set_data_length(static_cast<unsigned int>(len));
      gp.set_streaming_width(static_cast<unsigned int>(len));
      gp.set_byte_enable_ptr(nullptr);
      gp.set_dmi_allowed(false);
      gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      sc_core::sc_time delay = issue_at - sc_core::sc_time_stamp();
      mem_initiator_socket->b_transport(gp, delay);
      if (gp.get_response_status() != tlm::TLM_OK_RESPONSE) return false;
      last_done = std::max(last_done, sc_core::sc_time_stamp() + delay);
      (command == tlm::TLM_READ_COMMAND ? m_stats.bytes_read : m_stats.bytes_written) += len;
    }
    // One burst per stream per cycle; the memories' port models add queueing and latency.
    issue_at += m_clock.period();
    if (issue_at - sc_core::sc_time_stamp() >= quantum) sc_core::wait(issue_at - sc_core::sc_time_stamp());
  }
  if (last_done > sc_core::sc_time_stamp()) sc_core::wait(last_done - sc_core::sc_time_stamp());
  return true;
}

void TileEngine::execute(EngineCommand& cmd) {
  const model::ExecPlan& plan = *cmd.plan;
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  const bool from_idle = m_stats.commands == 0 || start > m_last_done;
  m_busy.set(1, now_ps());
  m_opcode.set(static_cast<std::uint64_t>(plan.op), now_ps());
  m_bundle.set(cmd.bundle_id, now_ps());

  // Source snapshots: one per participating PE for Local operands, one per Shared operand.
  std::vector<int> pes;
  for (int pe = 0; pe < model::kPeCount; ++pe)
    if (plan.mask.has(pe)) pes.push_back(pe);
  std::vector<std::vector<std::vector<std::uint8_t>>> src(plan.sources.size());
  std::vector<std::uint64_t> addresses, sizes;
  std::vector<std::uint8_t*> buffers;
  for (std::size_t i = 0; i < plan.sources.size(); ++i) {
    const model::SourceOperand& s = plan.sources[i];
    const std::uint64_t bytes = s.desc.storage_bytes();
    const bool shared = s.ref.is_shared();
    for (std::size_t k = 0; k < (shared ? 1 : pes.size()); ++k) {
      src[i].emplace_back(bytes, 0);
      addresses.push_back(address_map::fragment_address(s.ref.space, s.slot, shared ? 0 : pes[k]));
      buffers.push_back(src[i].back().data());
      sizes.push_back(bytes);
    }
  }
  bool ok = stream(tlm::TLM_READ_COMMAND, addresses, buffers, sizes);

  // Results, per PE.
  std::vector<std::vector<std::vector<std::uint8_t>>> dst(pes.size());
  addresses.clear();
  buffers.clear();
  sizes.clear();
  for (std::size_t k = 0; k < pes.size(); ++k) {
    model::PePayloads io;
    io.pe = pes[k];
    for (std::size_t i = 0; i < plan.sources.size(); ++i)
      io.sources.push_back(src[i][plan.sources[i].ref.is_shared() ? 0 : k].data());
    for (const model::DestOperand& d : plan.dests) {
      dst[k].emplace_back(d.desc.storage_bytes(), 0);
      io.dests.push_back(dst[k].back().data());
      addresses.push_back(address_map::fragment_address(model::TileRef::Space::Local, d.slot, pes[k]));
      buffers.push_back(dst[k].back().data());
      sizes.push_back(d.desc.storage_bytes());
    }
    if (!cmd.timing_only) {
      cmd.flags |= run_core(plan, io);
      for (std::size_t i = 0; i < plan.dests.size(); ++i) model::write_padding(plan.dests[i], io.dests[i]);
    }
  }
  ok = ok && stream(tlm::TLM_WRITE_COMMAND, addresses, buffers, sizes);
  if (!ok) SC_REPORT_ERROR(name(), "tile memory rejected an operand access (address map error)");

  // The datapath computes while operands stream; the command ends when both are done.
  const model::Cycles compute = compute_cycles(plan, from_idle);
  const sc_core::sc_time compute_end = start + m_clock.to_time(compute);
  if (compute_end > sc_core::sc_time_stamp()) sc_core::wait(compute_end - sc_core::sc_time_stamp());
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
