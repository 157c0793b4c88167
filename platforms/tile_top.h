// SPDX-License-Identifier: BSD-3-Clause
// TileTop: the default platform netlist — a bundle dispatcher, the SFU and CUBE engines, the Local
// tile memories (one target holding one memory per PE), the Shared tile memory and the host control
// registers, joined by a router. Owns its children and binds them; nothing else.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include <systemc>

#include "engines/dispatcher/control_registers.h"
#include "engines/cube/cube_engine.h"
#include "engines/dispatcher/bundle_dispatcher.h"
#include "engines/memory/tile_memory.h"
#include "engines/sfu/sfu_engine.h"
#include "interconnect/adapters/debug_port.h"
#include "interconnect/router/router.h"
#include "model/exec/functional_machine.h"
#include "model/params/platform_params.h"

namespace ptosim::platforms {

class TileTop : public sc_core::sc_module {
 public:
  /// Parameters outside their ranges (model::PlatformParams::validate) are an error
  /// (SC_REPORT_ERROR), as load_config would report them.
  TileTop(sc_core::sc_module_name name, const model::PlatformParams& params, model::AllocationSpec allocation,
          bool timing_only);

  engines::BundleDispatcher dispatcher;
  engines::SfuEngine sfu;
  engines::CubeEngine cube;
  engines::TileMemory local_memory;  ///< instance pe is PE pe's Local memory
  engines::TileMemory shared_memory;
  interconnect::Router router;
  interconnect::DebugPort debug_port;
  engines::ControlRegisters control;  ///< host control: kernels launched over TLM, interrupt line

  /// Installs an input tile: descriptor into the dispatcher's state now, payload into tile memory
  /// when simulation starts (sockets can carry debug transport only once elaboration is complete).
  /// Inputs are loaded before the simulation starts; later is an error, as is a tile that cannot
  /// be stored (model::TileState::install_problem: no such register, capacity, shape).
  void load_local(unsigned index, const model::TileDescriptor& desc,
                  const std::array<model::FragmentData, model::kPeCount>& data);
  void load_shared(unsigned index, const model::TileDescriptor& desc, model::PeMask allocation,
                   const model::FragmentData& data);
  /// Sets a PE's GPR (selector 1..kGprCount-1) and the sticky numeric status flags the program
  /// starts with; before the simulation starts, like the inputs (an error after, or for a PE or
  /// selector that does not exist).
  void set_gpr(int pe, unsigned selector, std::uint64_t value);
  void set_status(model::NumericFlags flags);
  /// A Local fragment as the platform holds it (logical row-major, undefined elements as nullopt),
  /// before the simulation (the inputs loaded), during it or after; empty for a register that
  /// holds no tile. A register or PE that does not exist is an error.
  model::FragmentData read_local(unsigned index, int pe);
  model::FragmentData read_shared(unsigned index);

  /// The modules whose signals can be traced, by their names in the trace.
  static const std::vector<std::string>& traceable_modules();
  /// Reads a comma-separated list of those names (at least one) into `modules`; false with
  /// `error` naming the unknown one.
  static bool parse_modules(const std::string& list, std::vector<std::string>& modules, std::string& error);
  /// Declares the traced signals of `modules` (names from traceable_modules()): once, before `rec`
  /// is opened (an error otherwise).
  void trace_to(traces::VcdRecorder& rec, const std::vector<std::string>& modules = traceable_modules());

 private:
  void start_of_simulation() override;
  /// SC_REPORT_ERROR "what after the simulation started" if it has; whether it has (should the
  /// report not throw, the caller returns: inputs change nothing once simulating).
  bool report_started(const char* what) const;
  /// SC_REPORT_ERROR "what: problem" if there is a problem; whether there was one (should the
  /// report not throw, the caller returns).
  bool report_problem(const char* what, const std::optional<std::string>& problem) const;

  struct PendingPayload {
    std::uint64_t address;
    std::vector<std::uint8_t> bytes;
  };
  std::vector<PendingPayload> m_pending;
  bool m_payloads_placed = false;  ///< the pending payloads are in the tile memories
  bool m_traced = false;
  /// `length` bytes at `address` in the tile memories, or, before the payloads are placed there,
  /// in the one pending for that address (zeros elsewhere).
  std::vector<std::uint8_t> read_bytes(std::uint64_t address, std::uint64_t length);
};

}  // namespace ptosim::platforms
