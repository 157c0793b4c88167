// SPDX-License-Identifier: BSD-3-Clause
#include "platforms/run_report.h"

#include <map>

#include "model/bundle/instruction.h"
#include "model/cube/cube_timing.h"

namespace ptosim::platforms {

namespace {

using OJson = nlohmann::ordered_json;

double ratio(std::uint64_t part, std::uint64_t whole) { return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole); }

OJson engine_json(const engines::EngineStats& s, const std::uint64_t (&idle_stall)[engines::kIdleReasons], std::uint64_t total) {
  using engines::IdleReason;
  const auto idle = [&idle_stall](IdleReason r) { return idle_stall[static_cast<std::size_t>(r)]; };
  OJson j;
  j["commands"] = s.commands;
  j["busy_cycles"] = s.busy_cycles;
  j["idle_cycles"] = total > s.busy_cycles ? total - s.busy_cycles : 0;
  j["compute_cycles"] = s.compute_cycles;
  j["stall_cycles"] = OJson{{"dependency", idle(IdleReason::Dependency)},
                            {"queue_full", idle(IdleReason::QueueFull)},
                            {"reorder_full", idle(IdleReason::ReorderFull)},
                            {"destination", idle(IdleReason::Destination)},
                            {"front_end", idle(IdleReason::FrontEnd)},
                            {"memory_contention", s.memory_stall_cycles}};
  j["utilisation"] = ratio(s.busy_cycles, total);
  j["bytes_read"] = s.bytes_read;
  j["bytes_written"] = s.bytes_written;
  OJson ops = OJson::object();
  std::map<std::string, engines::EngineStats::PerOp> by_name;  // the report lists opcodes by name
  for (std::size_t op = 0; op < s.per_op.size(); ++op)
    if (s.per_op[op].count != 0) by_name[model::operation_mnemonic(static_cast<model::Operation>(op))] = s.per_op[op];
  for (const auto& [name, op] : by_name) ops[name] = OJson{{"count", op.count}, {"cycles", op.cycles}};
  j["per_opcode"] = ops;
  return j;
}

OJson memory_json(const engines::TileMemory& m, unsigned instance) {
  const auto ports = m.port_counts(instance);
  OJson j;
  j["bytes_read"] = m.bytes_read(instance);
  j["bytes_written"] = m.bytes_written(instance);
  j["accesses"] = ports.accesses;
  j["bank_conflicts"] = ports.bank_conflicts;
  j["wait_cycles"] = ports.wait_cycles;
  OJson p = OJson::array();
  for (std::size_t i = 0; i < ports.port_bytes.size(); ++i)
    p.push_back(OJson{{"bytes", ports.port_bytes[i]}, {"busy_cycles", ports.port_busy_cycles[i]}});
  j["ports"] = p;
  return j;
}

}  // namespace

OJson run_report(TileTop& top, const model::PlatformParams& params, std::uint64_t total_cycles) {
  // Idle and stall time is charged as the run ends: before, the counts would look plausible and
  // be wrong.
  if (!sc_core::sc_start_of_simulation_invoked() || !top.dispatcher.finished()) {
    SC_REPORT_ERROR(top.name(), "run_report: the run has not finished (the statistics are a finished run's)");
    return OJson::object();  // should the report not throw
  }
  OJson r;
  r["simulated_cycles"] = total_cycles;
  r["clock_period_ps"] = params.clock.period_ps;
  const engines::RetiredBundles& retired = top.dispatcher.retired();
  r["bundles"] = OJson{{"total", retired.total}, {"committed", retired.committed}, {"noop", retired.noop},
                       {"faulted", retired.fault ? 1 : 0}};
  // A timing-only run's legality checks that needed values (none in a full run).
  r["skipped_value_checks"] = OJson{{"bundles", retired.skipping_bundles}, {"checks", retired.skipped_checks}};
  // The fault that ended the run, as the summary names it.
  if (const auto& fault = retired.fault)
    r["fault"] = OJson{{"bundle", fault->id},
                       {"op", fault->op},
                       {"class", std::string("Fault_") + model::fault_code_name(fault->fault->code)},
                       {"rule", fault->fault->rule},
                       {"location", model::format_location(fault->loc)}};
  const auto& d = top.dispatcher.stats();
  r["dispatcher"] = OJson{{"instructions", d.instructions},
                          {"decode_cycles", d.decode_cycles},
                          {"preflight_cycles", d.preflight_cycles},
                          {"dependency_stall_cycles", d.dependency_stall_cycles},
                          {"queue_full_stall_cycles", d.queue_full_stall_cycles},
                          {"reorder_full_stall_cycles", d.reorder_full_stall_cycles},
                          {"destination_stall_cycles", d.destination_stall_cycles}};
  OJson engines;
  engines["sfu"] = engine_json(top.sfu.stats(), d.engine_idle_stall[0], total_cycles);
  engines["cube"] = engine_json(top.cube.stats(), d.engine_idle_stall[1], total_cycles);
  engines["cube"]["macs"] = retired.macs;
  const double peak = model::cube_peak_macs_per_cycle(model::DataType::FP16, params.cube);
  engines["cube"]["fp16_peak_macs_per_cycle"] = peak;
  engines["cube"]["mac_utilisation_vs_fp16_peak"] = total_cycles == 0 ? 0.0 : static_cast<double>(retired.macs) / (peak * static_cast<double>(total_cycles));
  r["engines"] = engines;
  OJson memories;
  for (unsigned pe = 0; pe < model::kPeCount; ++pe) memories["local_memory_pe" + std::to_string(pe)] = memory_json(top.local_memory, pe);
  memories["shared_memory"] = memory_json(top.shared_memory, 0);
  r["memories"] = memories;
  r["interconnect"] = OJson{{"transactions", top.router.transactions()}};
  const engines::ControlRegisters::Stats& c = top.control.stats();
  r["control"] = OJson{{"launches", c.launches},
                       {"register_reads", c.register_reads},
                       {"register_writes", c.register_writes},
                       {"refused_writes", c.refused_writes},
                       {"program_memory_accesses", c.program_memory_accesses},
                       {"error_responses", c.error_responses}};
  return r;
}

}  // namespace ptosim::platforms
