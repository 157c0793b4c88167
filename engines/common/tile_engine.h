// SPDX-License-Identifier: BSD-3-Clause
// TileEngine: the SystemC shell every tile engine shares. A command arrives on cmd_target_socket.
// The engine reaches each participating PE's operand fragments in tile memory through
// mem_initiator_socket: it runs its model core on them in place through DMI, and times their
// movement with timing-only transactions that the memories book on their ports (the PEs' Local
// memories are one target, an instance per PE: one transaction carries every PE's streams). It is
// done after the longer of that traffic and the compute time its timing model gives. The call is
// loosely timed: it returns as soon as the traffic is booked, with the time left as the annotated
// delay (the traced busy signal's fall is scheduled then). Derived engines supply only the core
// and the compute-time formula.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "engines/common/clocked.h"
#include "engines/common/engine_command.h"
#include "model/memory/burst_streams.h"
#include "traces/vcd_recorder.h"

namespace ptosim::engines {

/// Per-engine counters (cycles of this engine's clock).
struct EngineStats {
  std::uint64_t commands = 0;
  std::uint64_t busy_cycles = 0;          ///< from command start to done
  std::uint64_t compute_cycles = 0;       ///< timing-model compute time of all commands
  std::uint64_t memory_stall_cycles = 0;  ///< busy time beyond compute: waiting for memory (contention, bandwidth)
  std::uint64_t bytes_read = 0;
  std::uint64_t bytes_written = 0;
  struct PerOp {
    std::uint64_t count = 0;
    std::uint64_t cycles = 0;
  };
  /// By operation (index: model::Operation); those never run have count 0.
  std::array<PerOp, model::kOperationCount> per_op{};
};

class TileEngine : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<TileEngine> cmd_target_socket;
  tlm_utils::simple_initiator_socket<TileEngine> mem_initiator_socket;

  /// How an engine streams operands: request size, per-PE read/write rates (bytes per cycle), and
  /// how far ahead of simulated time it may book requests (smaller: fairer arbitration between
  /// engines, more context switches).
  struct StreamParams {
    std::uint64_t burst_bytes;
    std::uint64_t read_bytes_per_cycle;
    std::uint64_t write_bytes_per_cycle;
    std::uint64_t outstanding_requests;  ///< a stream's next request waits for the one this many back
    std::uint64_t lookahead_cycles;
  };

  TileEngine(sc_core::sc_module_name name, const model::ClockParams& clock, const StreamParams& stream);

  const EngineStats& stats() const { return m_stats; }
  /// Declares this engine's traced signals (busy, opcode, bundle id) under `scope`.
  void trace_to(traces::VcdRecorder& rec, const std::string& scope);
  /// The traced `opcode` signal's values and their names (for a viewer's translate filter): 0 is
  /// "none", before the engine's first command, so an operation's value is its code plus one.
  static std::vector<std::pair<unsigned, std::string>> traced_opcode_names();

 protected:
  /// Compute time of a command; `from_idle` when the engine had nothing to do just before it.
  virtual model::Cycles compute_cycles(const model::ExecPlan& plan, bool from_idle) const = 0;
  /// Runs the model core for one PE.
  virtual model::NumericFlags run_core(const model::ExecPlan& plan, const model::PePayloads& io) const = 0;

 private:
  /// The streams of a command that go to one memory target, in groups of `group_size` per
  /// instance: each PE's sources and results to the Local memories, the Shared sources to the
  /// Shared memory. When every PE takes part, the groups after the first start as placeholders for
  /// copies of it (see BurstTrain), until the memory fills them in.
  struct MemoryStreams {
    std::vector<model::BurstStream*> streams;
    std::size_t group_size;
    bool copies;
    /// The streams that carry the traffic: the first group while the others are copies of it.
    std::size_t live() const { return copies ? group_size : streams.size(); }
  };

  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  /// Runs a command; returns the time left until it is done.
  sc_core::sc_time execute(EngineCommand& cmd);
  /// Runs the model core on PE `pe`'s operands in place.
  model::NumericFlags run_pe(const model::ExecPlan& plan, int pe);
  /// Books the bursts of the command's streams (which run in parallel from its start, each at its
  /// own rate) with one burst train per memory target and lookahead window, never booking beyond the
  /// lookahead ahead of simulated time; returns when the last burst completes, or nothing on a
  /// memory error.
  std::optional<sc_core::sc_time> issue();

  /// Direct access to `bytes` of tile memory at `address` (DMI, cached per granted region).
  std::uint8_t* direct(std::uint64_t address, std::uint64_t bytes);
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);

  Clocked m_clock;
  StreamParams m_stream;
  EngineStats m_stats;
  std::vector<tlm::tlm_dmi> m_dmi;
  // Per-command scratch, kept to avoid reallocating on every command: streams [0, P) read each
  // PE's sources, P reads the Shared ones, [P + 1, 2P] write the results.
  std::vector<model::BurstStream> m_streams;
  std::array<MemoryStreams, 2> m_memories{{{{}, 2, false}, {{}, 1, false}}};  ///< the Local, then the Shared memory
  tlm::tlm_generic_payload m_train_payload;
  sc_core::sc_time m_last_done;
  traces::TracedValue m_busy;
  traces::TracedValue m_opcode;
  traces::TracedValue m_bundle;
};

}  // namespace ptosim::engines
