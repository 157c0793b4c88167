// SPDX-License-Identifier: BSD-3-Clause
// BundleDispatcher: decodes bundles from its front end, waits on a scoreboard of tile-register
// dependencies, runs legality preflight and destination allocation (model/exec), issues each bundle
// to its engine's queue over a TLM command socket, and retires bundles in program order, publishing
// flags and outcomes. A preflight fault is precise: older bundles complete, nothing younger issues.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "engines/common/clocked.h"
#include "engines/common/engine_command.h"
#include "engines/common/scoped_extension.h"
#include "engines/dispatcher/ring_queue.h"
#include "model/exec/program_front_end.h"
#include "model/params/platform_params.h"
#include "model/plan/payload_reader.h"
#include "model/state/tile_state.h"
#include "traces/vcd_recorder.h"

namespace ptosim::engines {

/// One bundle's outcome, built as the bundle goes through the dispatcher (in an in-flight entry
/// that is reused: a field added here must be reset in InFlight::reset or set on every dispatch).
struct BundleRecord {
  std::uint64_t id = 0;
  std::string op;
  enum class Outcome { Committed, Noop, Faulted } outcome = Outcome::Committed;
  std::optional<model::Fault> fault;
  model::SourceLoc loc;
  model::NumericFlags flags = 0;
  std::uint64_t macs = 0;
  std::vector<std::string> skipped_checks;
};

/// What the retired bundles add up to, counted as they retire: the dispatcher keeps no record per
/// bundle, so a run's memory does not grow with its length.
struct RetiredBundles {
  std::uint64_t total = 0;
  std::uint64_t committed = 0;
  std::uint64_t noop = 0;
  std::optional<BundleRecord> fault;  ///< the faulting bundle's record: a fault ends the run
  std::uint64_t macs = 0;             ///< CUBE multiply-accumulates
  /// The value checks timing-only preflight skipped, each once in program order, and how many
  /// bundles skipped any.
  std::vector<std::string> skipped_checks;
  std::uint64_t skipping_bundles = 0;
};

/// Why an engine sat idle while it had work to come (DispatcherStats::engine_idle_stall).
enum class IdleReason : std::uint8_t {
  Dependency,   ///< the dispatcher waited for a source still being produced
  QueueFull,    ///< ... for room in the other engine's queue
  ReorderFull,  ///< ... for room in the reorder buffer
  Destination,  ///< ... for a destination slot older bundles still read or write
  FrontEnd,     ///< the dispatcher decoded or preflighted a bundle
};
constexpr std::size_t kIdleReasons = 5;

struct DispatcherStats {
  std::uint64_t bundles = 0;
  std::uint64_t instructions = 0;
  std::uint64_t decode_cycles = 0;
  std::uint64_t preflight_cycles = 0;  ///< legality checks and allocation, per bundle preflighted
  std::uint64_t dependency_stall_cycles = 0;   ///< waiting for a source still being produced
  std::uint64_t queue_full_stall_cycles = 0;   ///< waiting for room in an engine queue
  std::uint64_t reorder_full_stall_cycles = 0; ///< waiting for in-order retirement
  /// Waiting for a destination's physical slot, which older bundles still read or write (a slot
  /// the queue allocation policy released and gave again).
  std::uint64_t destination_stall_cycles = 0;
  /// Per engine (0 SFU, 1 CUBE) and IdleReason: cycles it sat idle with an empty queue while the
  /// dispatcher was stalled or busy, counted once the engine is given a command after them: an
  /// engine that has no more work to do was not held back.
  std::uint64_t engine_idle_stall[2][kIdleReasons] = {};
};

class BundleDispatcher : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<BundleDispatcher> sfu_cmd_initiator_socket;
  tlm_utils::simple_initiator_socket<BundleDispatcher> cube_cmd_initiator_socket;
  tlm_utils::simple_initiator_socket<BundleDispatcher> dbg_initiator_socket;  ///< payload reads for preflight

  SC_HAS_PROCESS(BundleDispatcher);
  BundleDispatcher(sc_core::sc_module_name name, const model::DispatchParams& params, const model::ClockParams& clock,
                   model::AllocationSpec allocation, bool timing_only);
  ~BundleDispatcher() override;

  /// The program: set before the simulation starts, it runs from cycle 0; set while simulating,
  /// once the last program has retired (finished()), it runs from then on, on the tile registers,
  /// GPRs and flags the last one left. Set while a program runs is an error, as is a front end
  /// another dispatcher reads.
  void set_program(model::ProgramFrontEnd* program);
  model::TileState& state() { return m_state; }
  const model::TileState& state() const { return m_state; }

  /// The bundles of every program run so far; `fault` is the one that ended the latest program.
  const RetiredBundles& retired() const { return m_retired_bundles; }
  const DispatcherStats& stats() const { return m_stats; }
  /// Whether the latest program has fully retired (or stopped at a fault), or none was set: the
  /// dispatcher is idle.
  bool finished() const { return m_finished; }
  /// Cycle at which the latest program fully retired (valid once finished()).
  std::uint64_t finish_cycle() const { return m_finish_cycle; }
  /// Notified each time a program has fully retired (or stopped at a fault), a delta cycle later.
  const sc_core::sc_event& finished_event() const { return m_finished_event; }
  /// Calls `listener` with each program as it ends, on the dispatcher's thread, once finished():
  /// the figures above are that program's then, which by finished_event() another program set
  /// meanwhile may have begun to change.
  void add_program_end_listener(std::function<void(const model::ProgramFrontEnd&)> listener);
  void trace_to(traces::VcdRecorder& rec, const std::string& scope);
  /// The traced `state` signal's values and their names (for a viewer's translate filter).
  static std::vector<std::pair<unsigned, std::string>> traced_state_names();

 private:
  enum class State : std::uint8_t {
    Idle,
    Decode,
    WaitDependency,
    Preflight,
    WaitQueue,
    WaitReorder,
    Drain,
    Done,
    WaitDestination
  };
  struct InFlight;

  void dispatch_thread();
  /// Runs m_program (set) to its end or its fault, then lets it go.
  void run_program();
  void sfu_issue_thread();
  void cube_issue_thread();
  void issue_loop(int engine);
  /// Sends `f` to its engine, then completes it (see complete) as of when the engine is done: the
  /// engine may return earlier, with the time left (loosely timed); `wait_done` waits that out first.
  void run_command(int engine, std::shared_ptr<InFlight> f, bool wait_done);
  /// Puts `f` into its engine's issue queue, or holds it (see m_held).
  void issue(int engine, std::shared_ptr<InFlight> f);
  /// Puts the held command, if any, into its engine's issue queue.
  void release_held();
  /// Puts `f` into its engine's issue queue and wakes the issue thread.
  void enqueue(int engine, std::shared_ptr<InFlight> f);
  /// Publishes `f`'s results and retires what can retire, as of `until_done` from now: an earlier
  /// call (the dispatcher running a held command) is exact because nothing else runs meanwhile.
  void complete(InFlight& f, const sc_core::sc_time& until_done);
  /// Retires what can retire, as of cycle `cycle` (now, or ahead: see complete).
  void retire(std::uint64_t cycle);
  void record_immediate(std::shared_ptr<InFlight> f);
  /// Counts a retiring bundle's record into m_retired_bundles (it may take the record's contents).
  void count_retired(BundleRecord& rec);
  /// A fresh in-flight entry: a retired one nothing holds any more, reset, else a new one.
  std::shared_ptr<InFlight> new_in_flight();
  bool sources_ready(const model::Bundle& b) const;
  void set_state(State s);
  /// The dispatcher waits for, and an issue thread signals, a command completing or retiring.
  void await_progress();
  void signal_progress();
  /// Waits on m_progress until `ready()`, charging the wait to `counter` and to idle engines.
  template <typename Pred>
  void stall_until(Pred ready, std::uint64_t& counter, IdleReason reason);
  /// Charges a stall over cycles [from, to) to `counter` and charge_idle's engines.
  void charge_stall(std::uint64_t from, std::uint64_t to, std::uint64_t& counter, IdleReason reason);
  /// Charges cycles [from, to), over by now, to each engine idle at their end, for the part since
  /// it ran out of work.
  void charge_idle(std::uint64_t from, std::uint64_t to, IdleReason reason);
  /// Waits for `b`'s sources, decode ending at cycle `decode_end`, then for preflight, in one
  /// wait: the completion that makes the sources ready wakes the dispatcher when its preflight
  /// would end.
  /// A held command, which `b` waits for, runs on the dispatcher's thread meanwhile: the wait for
  /// it to finish and for b's preflight are then one.
  void await_sources_then_preflight(const model::Bundle& b, std::uint64_t decode_end);
  std::uint64_t now_cycles() const { return m_clock.now_cycles(); }

  class DebugReader;

  /// An engine's command socket and the one payload it carries: a command at a time per engine.
  struct CommandPort {
    explicit CommandPort(tlm_utils::simple_initiator_socket<BundleDispatcher>& s) : socket(s) {}
    tlm_utils::simple_initiator_socket<BundleDispatcher>& socket;
    tlm::tlm_generic_payload gp;
    EngineCommand cmd;
    ScopedExtension<EngineCommand> attach{gp, cmd};
  };

  model::DispatchParams m_params;
  Clocked m_clock;
  bool m_timing_only;
  model::TileState m_state;
  model::ProgramFrontEnd* m_program = nullptr;
  std::unique_ptr<DebugReader> m_reader;

  /// Writers and readers in flight per Local physical slot (0..63) and Shared slot (64..319).
  std::vector<unsigned> m_pending_writes;
  std::vector<unsigned> m_pending_reads;
  std::vector<model::DestinationRequest> m_requests;  ///< the current bundle's; kept to reuse its storage
  std::vector<model::TileRef> m_names;                ///< their names once placed; likewise
  RingQueue<std::shared_ptr<InFlight>> m_reorder;         ///< dispatched, not yet retired, program order
  RingQueue<std::shared_ptr<InFlight>> m_queues[2];       ///< per engine issue queue
  CommandPort m_ports[2];
  /// A command issued while both engines are idle with empty queues is held back until
  /// the next bundle is fetched. If that bundle waits for it, nothing else can happen until the
  /// command completes, so the dispatcher runs it itself (one context switch fewer per bundle of a
  /// dependent chain); otherwise it goes to its queue at the same instant as it would have.
  std::shared_ptr<InFlight> m_held;
  std::vector<std::shared_ptr<InFlight>> m_retired;       ///< retired entries, for reuse (new_in_flight)
  bool m_engine_busy[2] = {false, false};
  /// Per engine: the cycle it last ran out of work (idle, queue empty). Nothing gives an engine
  /// work while the dispatcher stalls, so an engine idle at a stall's end was idle since then.
  std::uint64_t m_idle_since[2] = {0, 0};
  /// Idle stalls not yet counted in m_stats.engine_idle_stall: the engine has had no command since.
  std::uint64_t m_idle_stall_pending[2][kIdleReasons] = {};
  // A bundle awaiting its sources (await_sources_then_preflight); complete() wakes it.
  const model::Bundle* m_awaited = nullptr;
  std::uint64_t m_awaited_decode_end = 0;
  std::uint64_t m_sources_ready_cycle = 0;
  sc_core::sc_event m_preflight_due;
  sc_core::sc_event m_queue_event[2];
  sc_core::sc_event m_progress;  ///< a command completed or retired
  bool m_awaiting_progress = false;
  RetiredBundles m_retired_bundles;
  std::set<std::string> m_skipped_seen;  ///< m_retired_bundles.skipped_checks, to find the new ones
  DispatcherStats m_stats;
  std::uint64_t m_next_id = 0;
  bool m_finished = true;  ///< no program runs (none set yet, or the latest has retired)
  std::uint64_t m_finish_cycle = 0;
  sc_core::sc_event m_finished_event;
  std::vector<std::function<void(const model::ProgramFrontEnd&)>> m_end_listeners;
  sc_core::sc_event m_launched;  ///< a program was set while simulating

  bool m_traced = false;  ///< signals declared: the dispatcher's state is observed
  traces::TracedValue m_trace_state;
  traces::TracedValue m_trace_queue[2];
  traces::TracedValue m_trace_reorder;
  traces::TracedValue m_trace_bundle;
};

}  // namespace ptosim::engines
