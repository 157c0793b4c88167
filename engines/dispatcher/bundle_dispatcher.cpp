// SPDX-License-Identifier: BSD-3-Clause
#include "engines/dispatcher/bundle_dispatcher.h"

#include <algorithm>
#include <utility>

#include "engines/common/address_map.h"
#include "model/cube/cube_timing.h"
#include "model/exec/preflight.h"
#include "model/plan/preflight_support.h"

namespace ptosim::engines {

namespace {

constexpr unsigned kSharedSlotBase = model::kLocalTileCount;

unsigned slot_key(model::TileRef::Space space, unsigned slot) {
  return space == model::TileRef::Space::Shared ? kSharedSlotBase + slot : slot;
}

int engine_index(model::Engine e) { return e == model::Engine::Sfu ? 0 : 1; }

}  // namespace

/// A dispatched bundle on its way to retirement.
struct BundleDispatcher::InFlight {
  BundleRecord record;
  model::ExecPlan plan;  ///< engines share it through an aliasing pointer to the entry
  bool done = false;

  /// Back to a fresh entry, keeping the storage of the plan's operand lists: a reused entry costs
  /// a bundle no allocation at all.
  void reset() {
    model::ExecPlan fresh;
    fresh.sources = std::move(plan.sources);
    fresh.dests = std::move(plan.dests);
    fresh.sources.clear();
    fresh.dests.clear();
    plan = std::move(fresh);
    // Id, op and location are set as every bundle is dispatched; the rest starts over.
    record.outcome = BundleRecord::Outcome::Committed;
    record.fault.reset();
    record.flags = 0;
    record.macs = 0;
    record.skipped_checks.clear();
    done = false;
  }
};

/// Preflight's view of source payloads: debug reads through the interconnect (no simulated time)
/// of the allocated tile's bytes.
class BundleDispatcher::DebugReader : public model::IPayloadReader {
 public:
  DebugReader(tlm_utils::simple_initiator_socket<BundleDispatcher>& socket, const model::TileState& state)
      : m_socket(socket), m_state(state) {}

  const std::uint8_t* fragment(model::TileRef::Space space, unsigned slot, int pe) const override {
    const std::uint64_t key = (std::uint64_t{slot_key(space, slot)} << 2) | static_cast<unsigned>(pe);
    for (const auto& c : m_cache)
      if (c.key == key) return c.bytes.data();
    const std::uint32_t size = space == model::TileRef::Space::Shared ? m_state.shared(slot).desc.capacity_bytes
                                                                      : m_state.slot(slot).desc.capacity_bytes;
    Entry e{key, std::vector<std::uint8_t>(size, 0)};
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(address_map::fragment_address(space, slot, pe));
    gp.set_data_ptr(e.bytes.data());
    gp.set_data_length(size);
    gp.set_streaming_width(size);
    if (m_socket->transport_dbg(gp) != size) SC_REPORT_ERROR("ptosim", "tile memory refused a debug read of a source");
    m_cache.push_back(std::move(e));
    return m_cache.back().bytes.data();
  }
  /// Payloads change between bundles: forget what was read.
  void clear() { m_cache.clear(); }

 private:
  struct Entry {
    std::uint64_t key;
    std::vector<std::uint8_t> bytes;
  };
  tlm_utils::simple_initiator_socket<BundleDispatcher>& m_socket;
  const model::TileState& m_state;
  /// A vector: a move of an entry leaves its bytes where they are, so fragments handed out stay
  /// valid, and clearing an empty one (every timing-only bundle) costs nothing.
  mutable std::vector<Entry> m_cache;
};

BundleDispatcher::BundleDispatcher(sc_core::sc_module_name name, const model::DispatchParams& params,
                                   const model::ClockParams& clock, model::AllocationSpec allocation, bool timing_only)
    : sc_core::sc_module(name),
      sfu_cmd_initiator_socket("sfu_cmd_initiator_socket"),
      cube_cmd_initiator_socket("cube_cmd_initiator_socket"),
      dbg_initiator_socket("dbg_initiator_socket"),
      m_params(params),
      m_clock(clock),
      m_timing_only(timing_only),
      m_state(allocation.policy, allocation.queue_depth),
      m_reader(std::make_unique<DebugReader>(dbg_initiator_socket, m_state)),
      m_pending_writes(model::kLocalTileCount + model::kSharedTileCount, 0),
      m_pending_reads(model::kLocalTileCount + model::kSharedTileCount, 0),
      m_ports{CommandPort(sfu_cmd_initiator_socket), CommandPort(cube_cmd_initiator_socket)} {
  SC_THREAD(dispatch_thread);
  SC_THREAD(sfu_issue_thread);
  SC_THREAD(cube_issue_thread);
}

BundleDispatcher::~BundleDispatcher() = default;

std::vector<std::pair<unsigned, std::string>> BundleDispatcher::traced_state_names() {
  return {{static_cast<unsigned>(State::Idle), "Idle"},
          {static_cast<unsigned>(State::Decode), "Decode"},
          {static_cast<unsigned>(State::WaitDependency), "WaitDependency"},
          {static_cast<unsigned>(State::Preflight), "Preflight"},
          {static_cast<unsigned>(State::WaitQueue), "WaitQueue"},
          {static_cast<unsigned>(State::WaitReorder), "WaitReorder"},
          {static_cast<unsigned>(State::Drain), "Drain"},
          {static_cast<unsigned>(State::Done), "Done"},
          {static_cast<unsigned>(State::WaitDestination), "WaitDestination"}};
}

void BundleDispatcher::trace_to(traces::VcdRecorder& rec, const std::string& scope) {
  m_traced = true;
  m_trace_state.attach(rec, rec.declare(scope, "state", traces::VcdRecorder::width_for(static_cast<unsigned>(State::WaitDestination))));
  m_trace_bundle.attach(rec, rec.declare(scope, "bundle_id", 32, traces::VcdRecorder::Start::Unknown));
  const unsigned queue_bits = traces::VcdRecorder::width_for(m_params.issue_queue_depth);
  m_trace_queue[0].attach(rec, rec.declare(scope, "sfu_queue", queue_bits));
  m_trace_queue[1].attach(rec, rec.declare(scope, "cube_queue", queue_bits));
  // A faulting bundle takes one entry beyond a full reorder buffer before dispatch stops.
  m_trace_reorder.attach(rec, rec.declare(scope, "in_flight", traces::VcdRecorder::width_for(m_params.reorder_depth + 1)));
}

void BundleDispatcher::set_state(State s) { m_trace_state.set(static_cast<std::uint64_t>(s), Clocked::now_ps); }

void BundleDispatcher::await_progress() {
  m_awaiting_progress = true;
  sc_core::wait(m_progress);
  m_awaiting_progress = false;
}

void BundleDispatcher::signal_progress() {
  // Every waiter re-checks its condition before it waits, so a notification nobody awaits can go.
  if (m_awaiting_progress) m_progress.notify();
}

// Called three times or more per bundle: inline.
inline void BundleDispatcher::charge_idle(std::uint64_t from, std::uint64_t to, IdleReason reason) {
  // Only the dispatcher gives an engine work: one idle now was idle at `to`, since m_idle_since.
  for (int e = 0; e < 2; ++e)
    if (const std::uint64_t idle_from = std::max(from, m_idle_since[e]);
        !m_engine_busy[e] && m_queues[e].empty() && idle_from < to)
      m_idle_stall_pending[e][static_cast<std::size_t>(reason)] += to - idle_from;
}

template <typename Pred>
void BundleDispatcher::stall_until(Pred ready, std::uint64_t& counter, IdleReason reason) {
  if (ready()) return;
  const std::uint64_t start = now_cycles();
  while (!ready()) await_progress();
  charge_stall(start, now_cycles(), counter, reason);
}

void BundleDispatcher::charge_stall(std::uint64_t from, std::uint64_t to, std::uint64_t& counter, IdleReason reason) {
  if (to <= from) return;
  counter += to - from;
  charge_idle(from, to, reason);
}

void BundleDispatcher::await_sources_then_preflight(const model::Bundle& b, std::uint64_t decode_end) {
  m_awaited = &b;
  m_awaited_decode_end = decode_end;
  if (m_held) {
    const int engine = engine_index(m_held->plan.engine());
    run_command(engine, std::move(m_held), false);  // its completion readies b
  }
  sc_core::wait(m_preflight_due);
  charge_stall(decode_end, m_sources_ready_cycle, m_stats.dependency_stall_cycles, IdleReason::Dependency);
}

bool BundleDispatcher::sources_ready(const model::Bundle& b) const {
  for (const model::IotBinding& io : b.iot)
    for (unsigned i = 0; i < io.source_count; ++i)
      if (m_pending_writes[slot_key(model::TileRef::Space::Local, m_state.physical_index(io.sources[i]))]) return false;
  for (const model::IosBinding& io : b.ios)
    if (m_pending_writes[slot_key(model::TileRef::Space::Shared, io.shared_id)]) return false;
  return true;
}

void BundleDispatcher::record_immediate(std::shared_ptr<InFlight> f) {
  f->done = true;
  m_reorder.push_back(std::move(f));
  retire(now_cycles());
}

void BundleDispatcher::set_program(model::ProgramFrontEnd* program) {
  // Each refusal returns, should the report not throw: the program set stays as it was.
  const bool simulating = sc_core::sc_start_of_simulation_invoked();
  if (simulating && !m_finished) {
    SC_REPORT_ERROR(name(), "set_program while a program runs: the next one is set once finished_event() says it has retired");
    return;
  }
  if (program == m_program) return;
  if (program && !program->claim()) {
    SC_REPORT_ERROR(name(), "set_program: this ProgramFrontEnd already feeds a dispatcher (it is consumed as it runs: one per accelerator)");
    return;
  }
  if (m_program) m_program->release();  // replaced before it ran
  m_program = program;
  m_finished = !program;  // until it has retired
  if (simulating && program) m_launched.notify(sc_core::SC_ZERO_TIME);
}

void BundleDispatcher::dispatch_thread() {
  for (;;) {
    // A program set before this thread first ran finds no waiter for its launch: m_program says.
    while (!m_program) sc_core::wait(m_launched);
    run_program();
  }
}

void BundleDispatcher::add_program_end_listener(std::function<void(const model::ProgramFrontEnd&)> listener) {
  m_end_listeners.push_back(std::move(listener));
}

void BundleDispatcher::run_program() {
  m_retired_bundles.fault.reset();  // the fault that ended this program, if one does
  set_state(State::Idle);
  for (;;) {
    set_state(State::Decode);
    auto fetched = m_program->next();
    // A bundle takes decode, the wait for its sources and preflight in one wait: straight on when
    // its sources are ready (only this thread makes a source pending, so they stay ready), else
    // until the completion that readies them says its preflight is over. Traced, the states of
    // that wait are scheduled once known: at once when straight or waiting for the held command
    // (its end is known as it starts), else only at the completion, too late for a VCD written
    // in time order, so such a wait is taken stage by stage.
    const bool plain = fetched && !fetched->fault && !fetched->bundle->is_strict_noop();
    const bool straight = plain && sources_ready(*fetched->bundle);
    const bool merged = plain && (straight || !m_traced || m_held);
    if (!merged || straight) release_held();
    if (!fetched) break;
    const std::uint64_t decode = m_params.decode_cycles * fetched->instructions;
    const std::uint64_t decode_end = now_cycles() + decode;
    m_trace_bundle.set_at(m_next_id, m_clock.cycle_ps(decode_end));  // its id, once decoded
    if (merged && !straight) {
      await_sources_then_preflight(*fetched->bundle, decode_end);
    } else {
      if (straight) m_trace_state.set_at(static_cast<std::uint64_t>(State::Preflight), m_clock.cycle_ps(decode_end));
      sc_core::wait(m_clock.to_time(model::Cycles(decode + (straight ? m_params.preflight_cycles : 0))));
    }
    m_stats.decode_cycles += decode;
    m_stats.instructions += fetched->instructions;
    charge_idle(decode_end - decode, decode_end, IdleReason::FrontEnd);

    // The record is built in its in-flight entry and counted once it retires.
    std::shared_ptr<InFlight> f = new_in_flight();
    BundleRecord& rec = f->record;
    rec.id = m_next_id++;
    rec.op = fetched->op();
    rec.loc = fetched->loc();
    ++m_stats.bundles;
    if (fetched->fault) {
      rec.outcome = BundleRecord::Outcome::Faulted;
      rec.fault = std::move(fetched->fault->fault);
      record_immediate(std::move(f));
      break;
    }
    const model::Bundle& b = *fetched->bundle;
    if (b.is_strict_noop()) {
      // A no-op retires in order like any bundle, so it too needs a reorder-buffer entry.
      set_state(State::WaitReorder);
      stall_until([&] { return m_reorder.size() < m_params.reorder_depth; }, m_stats.reorder_full_stall_cycles, IdleReason::ReorderFull);
      rec.outcome = BundleRecord::Outcome::Noop;
      record_immediate(std::move(f));
      continue;
    }

    if (!merged) {
      set_state(State::WaitDependency);
      stall_until([&] { return sources_ready(b); }, m_stats.dependency_stall_cycles, IdleReason::Dependency);
      set_state(State::Preflight);
      sc_core::wait(m_clock.to_time(model::Cycles(m_params.preflight_cycles)));
    }
    m_stats.preflight_cycles += m_params.preflight_cycles;
    const std::uint64_t preflight_end = now_cycles();
    charge_idle(preflight_end - m_params.preflight_cycles, preflight_end, IdleReason::FrontEnd);
    m_reader->clear();
    model::ExecPlan& plan = f->plan;
    if (model::Status problem = model::preflight(b, m_state, m_timing_only ? nullptr : m_reader.get(), plan, fetched->memo)) {
      rec.outcome = BundleRecord::Outcome::Faulted;
      rec.fault = std::move(problem);
      record_immediate(std::move(f));
      break;
    }
    m_requests.clear();
    for (const model::DestOperand& d : plan.dests) m_requests.push_back({d.hand, d.desc, d.desc_checked});
    if (auto problem = m_state.check_allocation(m_requests)) {
      rec.outcome = BundleRecord::Outcome::Faulted;
      rec.fault = *problem;
      record_immediate(std::move(f));
      break;
    }
    set_state(State::WaitReorder);
    stall_until([&] { return m_reorder.size() < m_params.reorder_depth; }, m_stats.reorder_full_stall_cycles, IdleReason::ReorderFull);
    // Checked above; only this thread allocates, and completions change no descriptor meanwhile.
    m_state.allocate_checked(m_requests, m_names);
    for (std::size_t i = 0; i < plan.dests.size(); ++i) {
      plan.dests[i].ref = m_names[i];
      plan.dests[i].slot = m_state.physical_index(m_names[i].index);
    }
    // A destination may reuse a slot an older bundle still reads (queue policy) or writes: wait.
    set_state(State::WaitDestination);
    stall_until(
        [&] {
          for (const model::DestOperand& d : plan.dests) {
            const unsigned k = slot_key(model::TileRef::Space::Local, d.slot);
            if (m_pending_reads[k] || m_pending_writes[k]) return false;
          }
          return true;
        },
        m_stats.destination_stall_cycles, IdleReason::Destination);

    for (const model::SourceOperand& s : plan.sources) ++m_pending_reads[slot_key(s.ref.space, s.slot)];
    for (const model::DestOperand& d : plan.dests) ++m_pending_writes[slot_key(model::TileRef::Space::Local, d.slot)];

    rec.skipped_checks = std::move(plan.skipped_checks);  // the engines never read them
    if (plan.engine() == model::Engine::Cube) rec.macs = model::cube_macs(plan);
    const int e = engine_index(plan.engine());
    set_state(State::WaitQueue);
    stall_until([&] { return m_queues[e].size() < m_params.issue_queue_depth; }, m_stats.queue_full_stall_cycles, IdleReason::QueueFull);
    m_reorder.push_back(f);
    m_trace_reorder.set(m_reorder.size(), Clocked::now_ps);
    issue(e, std::move(f));
  }
  set_state(State::Drain);
  while (!m_reorder.empty()) await_progress();
  set_state(State::Done);
  m_finished = true;
  m_finish_cycle = now_cycles();
  model::ProgramFrontEnd& ended = *std::exchange(m_program, nullptr);
  ended.release();  // consumed
  for (const auto& listener : m_end_listeners) listener(ended);
  m_finished_event.notify(sc_core::SC_ZERO_TIME);
}

void BundleDispatcher::issue(int engine, std::shared_ptr<InFlight> f) {
  for (std::size_t reason = 0; reason < kIdleReasons; ++reason) {  // the engine was held back from this command
    m_stats.engine_idle_stall[engine][reason] += m_idle_stall_pending[engine][reason];
    m_idle_stall_pending[engine][reason] = 0;
  }
  if (m_queues[0].empty() && m_queues[1].empty() && !m_engine_busy[0] && !m_engine_busy[1]) {
    m_held = std::move(f);
    return;
  }
  enqueue(engine, std::move(f));
}

void BundleDispatcher::release_held() {
  if (!m_held) return;
  const int engine = engine_index(m_held->plan.engine());
  enqueue(engine, std::move(m_held));
}

void BundleDispatcher::enqueue(int engine, std::shared_ptr<InFlight> f) {
  m_queues[engine].push_back(std::move(f));
  m_trace_queue[engine].set(m_queues[engine].size(), Clocked::now_ps);
  m_queue_event[engine].notify();  // immediate: the issue thread checks its queue before it waits
}

void BundleDispatcher::sfu_issue_thread() { issue_loop(0); }
void BundleDispatcher::cube_issue_thread() { issue_loop(1); }

void BundleDispatcher::issue_loop(int engine) {
  for (;;) {
    while (m_queues[engine].empty()) sc_core::wait(m_queue_event[engine]);
    std::shared_ptr<InFlight> f = std::move(m_queues[engine].front());
    m_queues[engine].pop_front();
    m_trace_queue[engine].set(m_queues[engine].size(), Clocked::now_ps);
    signal_progress();
    run_command(engine, std::move(f), true);
  }
}

void BundleDispatcher::run_command(int engine, std::shared_ptr<InFlight> f, bool wait_done) {
  CommandPort& port = m_ports[engine];
  m_engine_busy[engine] = true;
  port.cmd.plan = std::shared_ptr<const model::ExecPlan>(f, &f->plan);
  port.cmd.bundle_id = f->record.id;
  port.cmd.timing_only = m_timing_only;
  port.cmd.flags = 0;
  port.gp.set_command(tlm::TLM_IGNORE_COMMAND);
  port.gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  port.socket->b_transport(port.gp, delay);
  if (port.gp.get_response_status() != tlm::TLM_OK_RESPONSE) SC_REPORT_ERROR(name(), "engine rejected a command");
  if (wait_done && delay != sc_core::SC_ZERO_TIME) {
    sc_core::wait(delay);
    delay = sc_core::SC_ZERO_TIME;
  }
  f->record.flags = port.cmd.flags;
  m_engine_busy[engine] = false;
  if (m_queues[engine].empty()) m_idle_since[engine] = m_clock.cycle_of(sc_core::sc_time_stamp() + delay);
  complete(*f, delay);
}

void BundleDispatcher::complete(InFlight& f, const sc_core::sc_time& until_done) {
  const std::uint64_t done = m_clock.cycle_of(sc_core::sc_time_stamp() + until_done);
  const model::ExecPlan& plan = f.plan;
  // Definedness is known from the plan; it becomes visible with the data.
  for (const model::DestOperand& d : plan.dests) {
    model::publish_result_definedness(d, plan.mask, m_state.slot(d.slot));
    --m_pending_writes[slot_key(model::TileRef::Space::Local, d.slot)];
  }
  for (const model::SourceOperand& s : plan.sources) --m_pending_reads[slot_key(s.ref.space, s.slot)];
  f.done = true;
  retire(done);
  signal_progress();
  if (m_awaited && sources_ready(*m_awaited)) {
    m_awaited = nullptr;
    m_sources_ready_cycle = done;
    const std::uint64_t preflight_start = std::max(done, m_awaited_decode_end);
    // Traced, this is the held command's completion, made as it starts: the wait's states lie ahead.
    if (done > m_awaited_decode_end)
      m_trace_state.set_at(static_cast<std::uint64_t>(State::WaitDependency), m_clock.cycle_ps(m_awaited_decode_end));
    m_trace_state.set_at(static_cast<std::uint64_t>(State::Preflight), m_clock.cycle_ps(preflight_start));
    m_preflight_due.notify(until_done + m_clock.to_time(model::Cycles(preflight_start + m_params.preflight_cycles - done)));
  }
}

std::shared_ptr<BundleDispatcher::InFlight> BundleDispatcher::new_in_flight() {
  // The oldest retired entries come first; the newest may still be held by an engine's last
  // command or an issue thread.
  for (auto it = m_retired.begin(); it != m_retired.end(); ++it)
    if (it->use_count() == 1) {
      std::shared_ptr<InFlight> f = std::move(*it);
      m_retired.erase(it);
      f->reset();
      return f;
    }
  return std::make_shared<InFlight>();
}

void BundleDispatcher::retire(std::uint64_t cycle) {
  while (!m_reorder.empty() && m_reorder.front()->done) {
    m_state.raise_status(m_reorder.front()->record.flags);
    count_retired(m_reorder.front()->record);
    m_retired.push_back(std::move(m_reorder.front()));
    m_reorder.pop_front();
  }
  m_trace_reorder.set_at(m_reorder.size(), m_clock.cycle_ps(cycle));
}

void BundleDispatcher::count_retired(BundleRecord& rec) {
  RetiredBundles& r = m_retired_bundles;
  ++r.total;
  r.committed += rec.outcome == BundleRecord::Outcome::Committed ? 1 : 0;
  r.noop += rec.outcome == BundleRecord::Outcome::Noop ? 1 : 0;
  r.macs += rec.macs;
  if (!rec.skipped_checks.empty()) {
    ++r.skipping_bundles;
    for (const std::string& check : rec.skipped_checks)
      if (m_skipped_seen.insert(check).second) r.skipped_checks.push_back(check);
  }
  if (rec.outcome == BundleRecord::Outcome::Faulted) r.fault = std::move(rec);
}

}  // namespace ptosim::engines
