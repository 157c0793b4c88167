// SPDX-License-Identifier: BSD-3-Clause
// A virtual platform's host processor driving the accelerator the way driver software would: over
// TLM-2.0 and an interrupt line only. It installs an input tile through the control block's tile
// window and writes its payload into the tile memory, writes a kernel binary (`ptosim asm` output)
// into the program memory, launches it, takes the interrupt, then finds the result tile through the
// window and reads it back. Usage: ptosim_host_example KERNEL.bin (see examples/host/README.md).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "engines/common/address_map.h"
#include "engines/common/control_map.h"
#include "platforms/config/config_loader.h"
#include "platforms/tile_top.h"

namespace cm = ptosim::engines::control_map;

namespace {

/// The host: one thread running the driver below, a socket into the accelerator's router.
struct HostCpu : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<HostCpu> socket{"socket"};
  sc_core::sc_in<bool> irq{"irq"};
  std::vector<std::uint8_t> kernel;  ///< the program to launch, as `ptosim asm` encodes it
  bool ok = false;

  SC_HAS_PROCESS(HostCpu);
  explicit HostCpu(sc_core::sc_module_name name) : sc_core::sc_module(name) { SC_THREAD(run); }

  /// One blocking access at a router address; the host's clock moves by the delay it took.
  bool access(tlm::tlm_command command, std::uint64_t address, void* data, unsigned length) {
    tlm::tlm_generic_payload gp;
    gp.set_command(command);
    gp.set_address(address);
    gp.set_data_ptr(static_cast<unsigned char*>(data));
    gp.set_data_length(length);
    gp.set_streaming_width(length);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(gp, delay);
    wait(delay);
    if (gp.is_response_ok()) return true;
    std::printf("host: access at 0x%llx answered %s\n", static_cast<unsigned long long>(address),
                gp.get_response_string().c_str());
    return false;
  }
  std::uint32_t reg(std::uint64_t offset) {
    std::uint32_t value = 0;
    access(tlm::TLM_READ_COMMAND, ptosim::engines::address_map::kControlBase + offset, &value, 4);
    return value;
  }
  void set(std::uint64_t offset, std::uint32_t value) {
    access(tlm::TLM_WRITE_COMMAND, ptosim::engines::address_map::kControlBase + offset, &value, 4);
  }
  /// A refused write says why in ERROR (and a warning): the driver checks after each step.
  bool no_error(const char* step) {
    const std::uint32_t error = reg(cm::kError);
    if (error != 0) std::printf("host: %s refused, ERROR %u\n", step, error);
    return error == 0;
  }

  void run() {
    std::printf("host: accelerator id 0x%08x, register map version %u\n", reg(cm::kId), reg(cm::kVersion));

    // The input: T#1, a 4x8 FP32 tile in 8 physical rows of 8 columns (256 bytes per PE), the same
    // values on every PE. Row-major, so the payload is the elements row by row, little-endian.
    const float rows[4][8] = {{1, 2, 3, 4, 5, 6, 7, 8},
                              {0.5f, 0.25f, 0.125f, 0.0625f, 0.03125f, 0.015625f, 0.0078125f, 0.00390625f},
                              {1e8f, 1, -1e8f, 1, 0, 0, 0, 0},
                              {-1.5f, -2.5f, 3, 4, -0.0f, 0, 1e-3f, -1e-3f}};
    set(cm::kTileSpace, cm::kTileSpaceLocal);
    set(cm::kTileIndex, 0);   // T#1
    set(cm::kTileDtype, 1);   // FP32
    set(cm::kTileLayout, 0);  // RowMajor
    set(cm::kTileLocation, 3);  // Any
    set(cm::kTileRows, 8);
    set(cm::kTileCols, 8);
    set(cm::kTileValidRows, 4);
    set(cm::kTileValidCols, 8);
    set(cm::kTileCapacity, 256);
    set(cm::kTileMask, 0xF);
    set(cm::kTileCommand, cm::kTileInstall);
    if (!no_error("installing T#1")) return;
    std::vector<std::uint8_t> payload(256, 0);
    std::memcpy(payload.data(), rows, sizeof rows);
    for (std::uint32_t pe = 0; pe < 4; ++pe) {
      set(cm::kTilePe, pe);
      const std::uint32_t address = reg(cm::kTileAddress);
      if (!access(tlm::TLM_WRITE_COMMAND, address, payload.data(), static_cast<unsigned>(payload.size()))) return;
    }
    std::printf("host: installed T#1 (FP32, valid 4x8 of 8x8) and wrote its 256 bytes on each PE\n");

    // The kernel, into the program memory, and its launch.
    if (!access(tlm::TLM_WRITE_COMMAND, ptosim::engines::address_map::kControlBase + cm::kProgramMemory, kernel.data(),
                static_cast<unsigned>(kernel.size())))
      return;
    set(cm::kProgramBytes, static_cast<std::uint32_t>(kernel.size()));
    set(cm::kIrqEnable, cm::kIrqDone);
    const sc_core::sc_time launched = sc_core::sc_time_stamp();
    set(cm::kControl, cm::kControlStartProgram);
    if (!no_error("START_PROGRAM")) return;
    if (!irq.read()) wait(irq.posedge_event());
    const std::uint32_t status = reg(cm::kStatus);
    set(cm::kIrqStatus, cm::kIrqDone);
    std::printf("host: interrupt after %s: %u bundle(s) in %u cycles, %s, flags 0x%x\n",
                (sc_core::sc_time_stamp() - launched).to_string().c_str(), reg(cm::kBundlesLo), reg(cm::kCyclesLo),
                status & cm::kStatusFault ? "faulted" : "done", reg(cm::kFlags));
    if (status & cm::kStatusFault) return;

    // The result: U#1 (index 16). Its descriptor says its shape; TILE_ADDRESS where each PE's
    // fragment lies now (the allocation policy chose its slot).
    set(cm::kTileIndex, 16);
    set(cm::kTileCommand, cm::kTileDescribe);
    if (!no_error("describing U#1")) return;
    const std::uint32_t valid_rows = reg(cm::kTileValidRows), cols = reg(cm::kTileCols), capacity = reg(cm::kTileCapacity);
    std::printf("host: U#1 holds DataType %u, valid %ux%u of %ux%u, %u bytes per PE, PE mask 0x%x\n", reg(cm::kTileDtype),
                valid_rows, reg(cm::kTileValidCols), reg(cm::kTileRows), cols, capacity, reg(cm::kTileMask));
    for (std::uint32_t pe = 0; pe < 4; ++pe) {
      set(cm::kTilePe, pe);
      std::vector<float> fragment(capacity / 4);
      if (!access(tlm::TLM_READ_COMMAND, reg(cm::kTileAddress), fragment.data(), capacity)) return;
      std::printf("host: PE%u row sums", pe);
      for (std::uint32_t r = 0; r < valid_rows; ++r) std::printf(" %.9g", static_cast<double>(fragment[r * cols]));
      std::printf("\n");
    }
    ok = true;
  }
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  using namespace ptosim;
  if (argc != 2) {
    std::fprintf(stderr, "usage: ptosim_host_example KERNEL.bin (ptosim asm examples/host/rowsum.s -o KERNEL.bin)\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "ptosim_host_example: cannot read '%s'\n", argv[1]);
    return 2;
  }
  HostCpu host("host");
  host.kernel.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());

  const platforms::ConfigResult config = platforms::load_config("", {});  // the embedded default platform
  platforms::TileTop accelerator("accelerator", config.params, model::AllocationSpec{}, false);
  host.socket.bind(accelerator.router.target_socket);
  host.irq.bind(accelerator.control.irq);
  sc_core::sc_start();
  return host.ok ? 0 : 1;
}
