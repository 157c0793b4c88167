// SPDX-License-Identifier: BSD-3-Clause
// ControlRegisters: the accelerator's host control registers (engines/common/control_map.h), the
// dispatcher's TLM-2.0 face to a host, mapped at address_map::control_range(). A host model launches
// the kernels the platform was given, or a program it wrote into the block's program memory, reads
// status, cycles and counts, sets GPRs and flags between launches, and takes a level interrupt when
// a launch ends. Accesses the map does not allow get a
// TLM error response; writes it allows but the device's state refuses change nothing and set ERROR.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "engines/common/clocked.h"
#include "engines/common/control_map.h"
#include "engines/dispatcher/bundle_dispatcher.h"
#include "model/bundle/instruction.h"
#include "model/exec/program_front_end.h"
#include "traces/vcd_recorder.h"

namespace ptosim::engines {

class ControlRegisters : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<ControlRegisters> target_socket;
  /// The interrupt line: high while IRQ_STATUS & IRQ_ENABLE (a host binds an sc_in<bool> to it).
  sc_core::sc_signal<bool> irq;

  SC_HAS_PROCESS(ControlRegisters);
  ControlRegisters(sc_core::sc_module_name name, BundleDispatcher& dispatcher, const model::ClockParams& clock);

  /// Gives START a kernel to launch, as number kernels() - 1; its name is for messages ("START
  /// while kernel 1 ('softmax') runs"). Before the simulation starts; after, it is an error and
  /// adds nothing.
  void add_kernel(std::string name, std::vector<model::Instruction> instructions);
  unsigned kernels() const { return static_cast<unsigned>(m_kernels.size()); }

  /// What hosts have done with the block so far (run_report's "control" section).
  struct Stats {
    std::uint64_t launches = 0;                 ///< START and START_PROGRAM writes that launched
    std::uint64_t register_reads = 0;           ///< register reads answered
    std::uint64_t register_writes = 0;          ///< register writes the map allows, refused or not
    std::uint64_t refused_writes = 0;           ///< of those, writes the device's state refused (ERROR)
    std::uint64_t program_memory_accesses = 0;  ///< reads and writes of the program memory
    std::uint64_t error_responses = 0;          ///< accesses answered with a TLM error
  };
  const Stats& stats() const { return m_stats; }

  /// Declares the block's traced signals under `scope` ("top.control"): `launch` (a launch of
  /// the block runs), `irq` (the interrupt line) and `error` (the ERROR register).
  void trace_to(traces::VcdRecorder& rec, const std::string& scope);

 private:
  struct Kernel {
    std::string name;
    std::vector<model::Instruction> instructions;
  };

  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& gp);
  /// Why the map does not allow `gp` (a TLM error response and its reason), or TLM_OK_RESPONSE.
  tlm::tlm_response_status check_access(const tlm::tlm_generic_payload& gp, std::string& why) const;
  /// Reads or writes `gp`'s bytes of the program memory (an access it allows).
  void move_program_bytes(tlm::tlm_generic_payload& gp);
  /// The register at `offset`; nullopt where none is.
  std::optional<std::uint32_t> read(std::uint64_t offset) const;
  /// Writes the register at `offset`, a writable one (check_access).
  void write(std::uint64_t offset, std::uint32_t value);
  /// Refuses `what` (ERROR Busy) if a program runs; whether it did.
  bool refused_while_busy(const char* what);
  void start_kernel();
  void start_program();
  /// Runs `instructions` on the dispatcher as the latest launch (`name` for messages).
  void launch(std::vector<model::Instruction> instructions, std::string name);
  void write_gpr_half(bool high_half, std::uint32_t value);
  /// TILE_COMMAND: installs the window's tile, or describes the register's.
  void tile_command(std::uint32_t command);
  void install_tile();
  void describe_tile();
  /// The descriptor the window's fields give, or why they give none (codes out of range).
  std::optional<std::string> window_descriptor(model::TileDescriptor& desc) const;
  /// The register the window names, or why it names none.
  std::optional<std::string> window_register(model::TileRef& ref) const;
  /// TILE_ADDRESS: where fragment TILE_PE of the window's register lies now.
  std::uint32_t tile_address() const;
  /// Keeps the first refusal since ERROR was cleared, and says why.
  void refuse(control_map::ErrorCause cause, const std::string& why);
  void set_error(control_map::ErrorCause cause);
  /// Whether a program runs, launched here or set directly.
  bool busy() const;
  /// The dispatcher's program end listener: a launch of ours may have ended.
  void on_program_end(const model::ProgramFrontEnd& ended);
  void drive_irq();

  BundleDispatcher& m_dispatcher;
  Clocked m_clock;
  std::vector<Kernel> m_kernels;
  std::optional<model::ProgramFrontEnd> m_front_end;  ///< the latest launch's (the dispatcher reads it)
  std::vector<std::uint8_t> m_program_memory;  ///< up to the furthest byte written
  std::uint32_t m_program_bytes = 0;            ///< PROGRAM_BYTES
  Stats m_stats;
  bool m_write_refused = false;  ///< the register write being handled was refused

  std::uint32_t m_kernel = 0;
  std::uint32_t m_irq_enable = 0;
  std::uint32_t m_irq_status = 0;
  std::uint32_t m_gpr_pe = 0;
  std::uint32_t m_gpr_select = 1;
  /// The tile window's fields, as written (TILE_SPACE .. TILE_MASK, TILE_PE).
  struct TileWindow {
    std::uint32_t space = 0, index = 0, dtype = 0, layout = 0, location = 0, rows = 0, cols = 0, valid_rows = 0,
                  valid_cols = 0, capacity = 0, mask = 0, pe = 0;
  };
  TileWindow m_tile;
  control_map::ErrorCause m_error = control_map::ErrorCause::None;
  sc_core::sc_event m_irq_changed;

  /// The latest launch: running until the dispatcher has finished it, then its figures.
  bool m_running = false;
  std::string m_launched_name;  ///< "kernel 0 ('rowsum')", for messages
  bool m_done = false;
  std::uint64_t m_launch_cycle = 0;
  std::uint64_t m_launch_bundles = 0;  ///< the dispatcher's retired count at the launch
  std::uint64_t m_cycles = 0;
  std::uint64_t m_bundles = 0;
  std::uint32_t m_fault = 0;  ///< FaultCode + 1, or 0
  std::uint32_t m_fault_bundle = 0;

  traces::TracedValue m_trace_launch;
  traces::TracedValue m_trace_irq;
  traces::TracedValue m_trace_error;
};

}  // namespace ptosim::engines
