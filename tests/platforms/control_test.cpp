// SPDX-License-Identifier: BSD-3-Clause
// The host control registers (engines/dispatcher/control_registers.h): a host model of a user's platform launches kernels
// over TLM-2.0, takes the interrupt, reads status, cycles and counts, sets GPRs and flags between
// launches, and gets refusals and TLM errors where the map or the device's state says no. Each test
// case elaborates its own design (one per process).
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "engines/common/address_map.h"
#include "engines/common/control_map.h"
#include "model/bundle/assembler.h"
#include "model/bundle/encoding.h"
#include "model/exec/functional_machine.h"
#include "platforms/config/config_loader.h"
#include "platforms/ptosim/program_file.h"
#include "platforms/run_report.h"
#include "platforms/tile_top.h"
#include "tests/platforms/run_helpers.h"
#include "tests/platforms/waves.h"
#include "traces/vcd_recorder.h"

using namespace ptosim;
namespace cm = engines::control_map;

namespace {

/// A host processor's driver: runs `script` on its thread, accessing the registers as 32-bit words.
struct Driver : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Driver> socket;
  sc_core::sc_in<bool> irq;
  std::function<void(Driver&)> script;
  bool script_done = false;  ///< the script ran to its end (not stuck waiting)
  int irq_rises = 0;

  SC_HAS_PROCESS(Driver);
  explicit Driver(sc_core::sc_module_name n) : sc_core::sc_module(n), socket("socket"), irq("irq") {
    SC_THREAD(run);
    SC_METHOD(count_rise);
    sensitive << irq.pos();
    dont_initialize();
  }
  void run() {
    script(*this);
    script_done = true;
  }
  void count_rise() { ++irq_rises; }

  /// One access of `length` bytes at `offset` from the control block; waits out its delay.
  tlm::tlm_response_status access(tlm::tlm_command command, std::uint64_t offset, std::uint32_t& value,
                                  unsigned length = 4, unsigned char* byte_enables = nullptr) {
    return access_bytes(command, offset, reinterpret_cast<unsigned char*>(&value), length, byte_enables);
  }
  tlm::tlm_response_status access_bytes(tlm::tlm_command command, std::uint64_t offset, unsigned char* data,
                                        unsigned length, unsigned char* byte_enables = nullptr) {
    return transport(command, engines::address_map::kControlBase + offset, data, length, byte_enables);
  }
  /// Moves `bytes` to or from the tile memories at `address` (the router's), as a host's DMA would.
  void move_memory(tlm::tlm_command command, std::uint64_t address, std::vector<std::uint8_t>& bytes) {
    REQUIRE(transport(command, address, bytes.data(), static_cast<unsigned>(bytes.size())) == tlm::TLM_OK_RESPONSE);
  }
  /// One access of `length` bytes at router address `address`; waits out its delay.
  tlm::tlm_response_status transport(tlm::tlm_command command, std::uint64_t address, unsigned char* data,
                                     unsigned length, unsigned char* byte_enables = nullptr) {
    tlm::tlm_generic_payload gp;
    gp.set_command(command);
    gp.set_address(address);
    gp.set_data_ptr(data);
    gp.set_data_length(length);
    gp.set_streaming_width(length);
    gp.set_byte_enable_ptr(byte_enables);
    gp.set_byte_enable_length(byte_enables ? length : 0);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(gp, delay);
    if (delay != sc_core::SC_ZERO_TIME) sc_core::wait(delay);
    return gp.get_response_status();
  }
  /// Fills the tile window's fields with `desc` for register `ref`.
  void describe_window(model::TileRef ref, const model::TileDescriptor& desc) {
    write(cm::kTileSpace, ref.is_shared() ? cm::kTileSpaceShared : cm::kTileSpaceLocal);
    write(cm::kTileIndex, ref.index);
    write(cm::kTileDtype, static_cast<std::uint32_t>(desc.dtype));
    write(cm::kTileLayout, static_cast<std::uint32_t>(desc.layout));
    write(cm::kTileLocation, static_cast<std::uint32_t>(desc.location));
    write(cm::kTileRows, desc.rows);
    write(cm::kTileCols, desc.cols);
    write(cm::kTileValidRows, desc.valid_rows);
    write(cm::kTileValidCols, desc.valid_cols);
    write(cm::kTileCapacity, desc.capacity_bytes);
    std::uint32_t mask = 0;
    for (int pe = 0; pe < model::kPeCount; ++pe)
      if (desc.pe_mask.has(pe)) mask |= 1u << pe;
    write(cm::kTileMask, mask);
  }
  std::uint32_t read(std::uint64_t offset) {
    std::uint32_t value = 0xDEADBEEF;
    REQUIRE(access(tlm::TLM_READ_COMMAND, offset, value) == tlm::TLM_OK_RESPONSE);
    return value;
  }
  void write(std::uint64_t offset, std::uint32_t value) {
    REQUIRE(access(tlm::TLM_WRITE_COMMAND, offset, value) == tlm::TLM_OK_RESPONSE);
  }
  std::uint64_t read64(std::uint64_t lo_offset) { return read(lo_offset) | std::uint64_t{read(lo_offset + 4)} << 32; }
  void set_gpr(unsigned pe, unsigned selector, std::uint64_t value) {
    write(cm::kGprPe, pe);
    write(cm::kGprSelect, selector);
    write(cm::kGprValueLo, static_cast<std::uint32_t>(value));
    write(cm::kGprValueHi, static_cast<std::uint32_t>(value >> 32));
  }
  /// Waits for the interrupt line to be high (it may be already).
  void wait_for_irq() {
    if (!irq.read()) sc_core::wait(irq.posedge_event());
  }
  /// Polls STATUS until no program runs (for a host that runs with the interrupt disabled), for
  /// at most 100 us.
  void poll_idle() {
    for (int i = 0; read(cm::kStatus) & cm::kStatusBusy; ++i) {
      REQUIRE(i < 2000);
      sc_core::wait(sc_core::sc_time(50, sc_core::SC_NS));
    }
  }
};

/// The platform of an example (examples/<name>.pto, its inputs loaded), a driver bound to its router
/// and its interrupt line (elaborated first, so its thread runs first in a delta), and the example's
/// code as kernel 0.
struct Bench {
  platforms::ConfigResult config;
  Driver driver{"driver"};
  platforms::TileTop top;
  std::string text;  ///< the example's program text

  platforms::ProgramFile program;  ///< the example

  /// Without `inputs`, the example's input tiles are not loaded (a host installs them).
  explicit Bench(const std::vector<std::string>& sets = {}, bool timing_only = false,
                 const std::string& example = "rowsum", bool inputs = true)
      : config(platforms::load_config("", sets)),
        top("accelerator", config.params, model::AllocationSpec{model::AllocationPolicy::Queue, 16}, timing_only) {
    REQUIRE(config.errors.empty());
    const std::string path = std::string(PTOSIM_SOURCE_DIR) + "/examples/" + example + ".pto";
    std::string error;
    REQUIRE(platforms::parse_program_file(path, program, error));
    if (inputs)
      for (const platforms::ProgramTile& t : program.tiles) top.load_local(t.ref.index, t.desc, t.data);
    text = program.assembly;
    add_kernel(example, text);
    driver.socket.bind(top.router.target_socket);
    driver.irq.bind(top.control.irq);
  }
  void add_kernel(const std::string& name, const std::string& kernel_text) {
    const model::Assembly assembly = model::assemble(kernel_text, name);
    REQUIRE(assembly.ok());
    top.control.add_kernel(name, assembly.instructions);
  }
  std::uint64_t now_cycles() const { return engines::Clocked(config.params.clock).now_cycles(); }
  /// Simulates until nothing is left to do; the driver's script must have run to its end.
  void run() {
    sc_core::sc_start();
    CHECK(driver.script_done);
  }
};

const std::vector<std::uint64_t> kRowSums{0x42100000, 0x3f7f0000, 0x3f800000, 0x40400000};  // 36, 0.99609375, 1, 3

/// The column sum of the row sums, its row count LB1 from r5 (the rows U#2 holds once the sum is U#1).
const char* const kColumnSum =
    "BSTART.SFU TCOLSUM, FP32\nB.DIM zero, 1, ->LB0\nB.DIM r5, 0, ->LB1\nB.IOT U#1, mask=1111, last, ->U<1>\nBSTOP\n";

/// Records the last warning's text (refusals and TLM errors are reported as warnings).
struct WarningLog {
  WarningLog() {
    sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DISPLAY | sc_core::SC_CACHE_REPORT);
  }
  ~WarningLog() { sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DEFAULT_WARNING_ACTIONS); }
  static std::string last() {
    const sc_core::sc_report* r = sc_core::sc_report_handler::get_cached_report();
    return r ? r->get_msg() : "";
  }
};

}  // namespace

TEST_CASE("Host control: a driver launches kernels over TLM, takes the interrupt, reads their figures and sets GPRs "
          "and flags between them",
          "[control]") {
  Bench b;
  b.add_kernel("colsum", kColumnSum);
  std::uint64_t first_launch = 0, first_end = 0, second_launch = 0;
  bool irq_low_after_ack = false;
  b.driver.script = [&](Driver& d) {
    CHECK(d.read(cm::kId) == cm::kIdValue);
    CHECK(d.read(cm::kVersion) == cm::kMapVersion);
    CHECK(d.read(cm::kKernels) == 2);
    CHECK(d.read(cm::kStatus) == 0);  // nothing has run: idle, not done
    d.write(cm::kIrqEnable, cm::kIrqDone);
    d.write(cm::kKernel, 0);
    d.write(cm::kControl, cm::kControlStart);
    first_launch = b.now_cycles();  // the write took effect at the driver's time
    CHECK(d.read(cm::kStatus) == cm::kStatusBusy);
    d.wait_for_irq();
    first_end = b.top.dispatcher.finish_cycle();
    CHECK(d.read(cm::kStatus) == cm::kStatusDone);
    CHECK(d.read64(cm::kCyclesLo) == first_end - first_launch);
    CHECK(d.read64(cm::kBundlesLo) == 1);
    CHECK(d.read(cm::kFault) == 0);
    CHECK(d.read(cm::kFlags) == model::kFlagNX);  // the row sums round
    CHECK(d.read(cm::kIrqStatus) == cm::kIrqDone);
    d.write(cm::kIrqStatus, cm::kIrqDone);  // write one to clear
    sc_core::wait(sc_core::SC_ZERO_TIME);
    sc_core::wait(sc_core::SC_ZERO_TIME);
    irq_low_after_ack = !d.irq.read();
    CHECK(d.read(cm::kIrqStatus) == 0);

    // Between launches: r5 = 4 rows on every PE, a 64-bit value in PE 1's r6, the flags cleared.
    for (unsigned pe = 0; pe < model::kPeCount; ++pe) d.set_gpr(pe, 5, 4);
    d.set_gpr(1, 6, 0x1234'5678'9ABC'DEF0);
    CHECK(d.read(cm::kGprValueLo) == 0x9ABC'DEF0);
    CHECK(d.read(cm::kGprValueHi) == 0x1234'5678);
    d.write(cm::kGprPe, 2);
    d.write(cm::kGprSelect, 5);
    CHECK(d.read(cm::kGprValueLo) == 4);
    d.write(cm::kFlags, 0xFF);  // the bits past the five flags are not kept
    CHECK(d.read(cm::kFlags) == model::kAllFlags);
    d.write(cm::kFlags, 0);

    sc_core::wait(sc_core::sc_time(100, sc_core::SC_NS));  // the accelerator idles meanwhile
    d.write(cm::kKernel, 1);
    d.write(cm::kControl, cm::kControlStart);
    second_launch = b.now_cycles();
    d.wait_for_irq();
    CHECK(d.read(cm::kStatus) == cm::kStatusDone);
    CHECK(d.read64(cm::kCyclesLo) == b.top.dispatcher.finish_cycle() - second_launch);
    CHECK(d.read64(cm::kBundlesLo) == 1);
    CHECK(d.read(cm::kFlags) == 0);  // the column sum is exact
    CHECK(d.read(cm::kError) == 0);
  };

  b.run();

  CHECK(irq_low_after_ack);
  CHECK(b.driver.irq_rises == 2);
  CHECK(b.top.control.stats().launches == 2);
  CHECK(second_launch > first_end + 100'000 / b.config.params.clock.period_ps);
  CHECK(b.top.dispatcher.retired().total == 2);
  CHECK(b.top.dispatcher.state().gpr(1, 6) == 0x1234'5678'9ABC'DEF0);
  const model::TileRef sum = *model::TileRef::parse("U#1"), rows = *model::TileRef::parse("U#2");
  for (int pe = 0; pe < model::kPeCount; ++pe) {
    const model::FragmentData total = b.top.read_local(sum.index, pe), by_row = b.top.read_local(rows.index, pe);
    REQUIRE(total.size() >= 1);
    REQUIRE(by_row.size() >= 4);
    CHECK(total[0] == std::uint64_t{0x4223fc00});  // 40.99609375, the four rows LB1 = r5 named
    for (unsigned r = 0; r < 4; ++r) CHECK(by_row[r] == kRowSums[r]);
  }
}

TEST_CASE("Host control: a write the device's state refuses changes nothing and sets ERROR, an access the map does "
          "not allow gets a TLM error",
          "[control]") {
  Bench b;
  WarningLog warnings;
  b.driver.script = [&](Driver& d) {
    // No such kernel.
    d.write(cm::kKernel, 5);
    d.write(cm::kControl, cm::kControlStart);
    CHECK(d.read(cm::kStatus) == cm::kStatusError);
    CHECK(d.read(cm::kError) == static_cast<std::uint32_t>(cm::ErrorCause::NoSuchKernel));
    CHECK(warnings.last().find("START of kernel 5: the platform was given 1 (KERNELS)") != std::string::npos);
    d.write(cm::kControl, cm::kControlClearError);
    CHECK(d.read(cm::kStatus) == 0);

    // No such PE or GPR: the window stays where it was.
    d.write(cm::kGprPe, 4);
    CHECK(d.read(cm::kError) == static_cast<std::uint32_t>(cm::ErrorCause::NoSuchGpr));
    CHECK(warnings.last().find("GPR_PE 4: the PEs are 0..3") != std::string::npos);
    CHECK(d.read(cm::kGprPe) == 0);
    for (std::uint32_t selector : {0u, 24u}) {
      d.write(cm::kGprSelect, selector);
      CHECK(d.read(cm::kGprSelect) == 1);
    }
    CHECK(warnings.last().find("GPR_SELECT 24: the GPRs are 1..23") != std::string::npos);
    d.write(cm::kControl, cm::kControlClearError);

    // While a kernel runs: a second START, a GPR and the flags are refused, and the first refusal
    // is the one ERROR keeps.
    d.write(cm::kKernel, 0);
    d.write(cm::kControl, cm::kControlStart);
    d.write(cm::kControl, cm::kControlStart);
    CHECK(d.read(cm::kStatus) == (cm::kStatusBusy | cm::kStatusError));
    CHECK(warnings.last().find("START while kernel 0 ('rowsum') runs") != std::string::npos);
    d.write(cm::kGprValueLo, 77);
    CHECK(warnings.last().find("a GPR written while a program runs") != std::string::npos);
    d.write(cm::kFlags, model::kFlagDZ);
    CHECK(warnings.last().find("FLAGS written while a program runs") != std::string::npos);
    d.write(cm::kKernel, 3);  // only START checks it
    CHECK(d.read(cm::kError) == static_cast<std::uint32_t>(cm::ErrorCause::Busy));

    // What the map does not allow, each with its TLM response.
    std::uint32_t value = 0;
    CHECK(d.access(tlm::TLM_READ_COMMAND, 0x98, value) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(warnings.last().find("read of 4 bytes at offset 0x98 refused: no register there") != std::string::npos);
    CHECK(d.access(tlm::TLM_READ_COMMAND, engines::address_map::kControlSize, value) ==
          tlm::TLM_ADDRESS_ERROR_RESPONSE);  // past the block: the router's answer
    CHECK(d.access(tlm::TLM_WRITE_COMMAND, cm::kStatus, value) == tlm::TLM_COMMAND_ERROR_RESPONSE);
    CHECK(warnings.last().find("write of 4 bytes at offset 0x14 refused: the register is read-only") != std::string::npos);
    CHECK(d.access(tlm::TLM_WRITE_COMMAND, cm::kId, value) == tlm::TLM_COMMAND_ERROR_RESPONSE);
    CHECK(d.access(tlm::TLM_READ_COMMAND, cm::kStatus, value, 2) == tlm::TLM_BURST_ERROR_RESPONSE);
    CHECK(d.access(tlm::TLM_READ_COMMAND, cm::kStatus + 2, value, 4) == tlm::TLM_BURST_ERROR_RESPONSE);
    std::uint32_t pair[2] = {};
    CHECK(d.access(tlm::TLM_READ_COMMAND, cm::kCyclesLo, pair[0], 8) == tlm::TLM_BURST_ERROR_RESPONSE);
    unsigned char enables[4] = {0xFF, 0xFF, 0, 0};
    CHECK(d.access(tlm::TLM_WRITE_COMMAND, cm::kKernel, value, 4, enables) == tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    CHECK(d.read(cm::kKernel) == 3);

    // Debug transport reads words (0 where no register is) and writes nothing.
    std::uint32_t words[4] = {};
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(engines::address_map::kControlBase + 0x4C);
    gp.set_data_ptr(reinterpret_cast<unsigned char*>(words));
    gp.set_data_length(sizeof words);
    CHECK(d.socket->transport_dbg(gp) == sizeof words);
    CHECK(words[0] == 0);  // r1 of PE 0, the GPR window's high half
    CHECK(words[1] == 0);
    gp.set_address(engines::address_map::kControlBase);
    gp.set_data_length(8);
    CHECK(d.socket->transport_dbg(gp) == 8);
    CHECK(words[0] == cm::kIdValue);
    CHECK(words[1] == cm::kMapVersion);
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_address(engines::address_map::kControlBase + cm::kControl);
    gp.set_data_length(4);
    words[0] = cm::kControlStart;
    CHECK(d.socket->transport_dbg(gp) == 0);

    // With the interrupt disabled the line stays low; the launch's end is pending all the same,
    // and enabling it then raises the line.
    d.poll_idle();
    CHECK(d.read(cm::kStatus) == (cm::kStatusDone | cm::kStatusError));
    CHECK(d.read(cm::kIrqStatus) == cm::kIrqDone);
    CHECK_FALSE(d.irq.read());
    d.write(cm::kIrqEnable, cm::kIrqDone);
    sc_core::wait(sc_core::SC_ZERO_TIME);
    sc_core::wait(sc_core::SC_ZERO_TIME);
    CHECK(d.irq.read());
    d.write(cm::kControl, cm::kControlClearError);
    CHECK(d.read(cm::kStatus) == cm::kStatusDone);
  };

  b.run();

  CHECK(b.top.control.stats().launches == 1);
  CHECK(b.top.dispatcher.retired().total == 1);
  CHECK(b.driver.irq_rises == 1);
  CHECK(b.top.dispatcher.state().gpr(0, 1) == 0);
  CHECK(b.top.dispatcher.state().status() == model::kFlagNX);  // the kernel's, not the refused write's
  for (unsigned r = 0; r < 4; ++r) CHECK(b.top.read_local(model::TileRef::parse("U#1")->index, 1)[r] == kRowSums[r]);
}

TEST_CASE("Host control: a kernel that faults reports its fault class and bundle, and the next launch clears them",
          "[control]") {
  Bench b;
  // The row sum, then a bundle whose source holds no tile.
  b.add_kernel("faulting", std::string("BSTART.SFU TROWSUM, FP32\nB.DIM zero, 8, ->LB0\nB.DIM zero, 4, ->LB1\n"
                                       "B.IOT T#1, mask=1111, last, ->U<1>\nBSTOP\n") +
                               "BSTART.SFU TROWSUM, FP32\nB.DIM zero, 8, ->LB0\nB.DIM zero, 4, ->LB1\n"
                               "B.IOT T#9, mask=1111, last, ->U<1>\nBSTOP\n");
  b.driver.script = [&](Driver& d) {
    d.write(cm::kIrqEnable, cm::kIrqDone);
    d.write(cm::kKernel, 1);
    d.write(cm::kControl, cm::kControlStart);
    d.wait_for_irq();
    CHECK(d.read(cm::kStatus) == (cm::kStatusDone | cm::kStatusFault));
    CHECK(d.read(cm::kFault) == static_cast<std::uint32_t>(model::FaultCode::TileLegality) + 1);
    CHECK(d.read(cm::kFaultBundle) == 1);
    CHECK(d.read64(cm::kBundlesLo) == 2);  // the faulting bundle counts
    d.write(cm::kIrqStatus, cm::kIrqDone);
    d.write(cm::kKernel, 0);
    d.write(cm::kControl, cm::kControlStart);
    CHECK(d.read(cm::kStatus) == cm::kStatusBusy);
    CHECK(d.read(cm::kFault) == 0);
    d.wait_for_irq();
    CHECK(d.read(cm::kStatus) == cm::kStatusDone);
  };

  b.run();

  CHECK(b.top.control.stats().launches == 2);
  REQUIRE(b.top.dispatcher.retired().total == 3);
  CHECK_FALSE(b.top.dispatcher.retired().fault);  // the latest program's
}

TEST_CASE("Host control: a kernel given after the simulation started is an error, and a program set directly keeps "
          "the block busy",
          "[control]") {
  Bench b;
  const model::Assembly assembly = model::assemble(b.text, "rowsum");
  REQUIRE(assembly.ok());
  model::ProgramFrontEnd direct(assembly.instructions);
  b.top.dispatcher.set_program(&direct);  // not launched through the registers
  WarningLog warnings;
  std::uint32_t status_while_direct = 0;
  b.driver.script = [&](Driver& d) {
    status_while_direct = d.read(cm::kStatus);
    d.write(cm::kControl, cm::kControlStart);
    CHECK(d.read(cm::kError) == static_cast<std::uint32_t>(cm::ErrorCause::Busy));
    CHECK(warnings.last().find("START while a program set directly runs") != std::string::npos);
    d.poll_idle();
    CHECK(d.read(cm::kStatus) == cm::kStatusError);  // not done: nothing was launched here
    CHECK(d.read(cm::kIrqStatus) == 0);
  };
  b.run();
  CHECK(status_while_direct == cm::kStatusBusy);
  CHECK(b.top.control.stats().launches == 0);
  REQUIRE_THROWS_WITH(b.top.control.add_kernel("late", assembly.instructions),
                      Catch::Contains("add_kernel 'late' after the simulation started"));
  CHECK(b.top.control.kernels() == 1);
}

TEST_CASE("Host control: a START in the first delta at time 0 launches", "[control]") {
  Bench b({"interconnect.hop_cycles=0"});  // no hop: the write arrives before the dispatcher has run
  std::uint32_t error = 0, status = 0;
  std::uint64_t start_delta = 0;
  b.driver.script = [&](Driver& d) {
    std::uint32_t start = cm::kControlStart;
    start_delta = sc_core::sc_delta_count();
    REQUIRE(d.access(tlm::TLM_WRITE_COMMAND, cm::kControl, start) == tlm::TLM_OK_RESPONSE);
    error = d.read(cm::kError);
    d.poll_idle();
    status = d.read(cm::kStatus);
  };
  b.run();
  CHECK(start_delta == 0);
  CHECK(error == 0);
  CHECK(status == cm::kStatusDone);
  CHECK(b.top.control.stats().launches == 1);
  CHECK(b.top.dispatcher.retired().total == 1);
}

TEST_CASE("Host control: an empty kernel ends at once, CLEAR_ERROR with START clears then launches, an ignored "
          "access does nothing",
          "[control]") {
  Bench b;
  b.top.control.add_kernel("empty", {});
  WarningLog warnings;
  b.driver.script = [&](Driver& d) {
    d.write(cm::kIrqEnable, cm::kIrqDone);
    d.write(cm::kKernel, 7);
    d.write(cm::kControl, cm::kControlStart);  // refused: no kernel 7
    REQUIRE(d.read(cm::kError) == static_cast<std::uint32_t>(cm::ErrorCause::NoSuchKernel));
    d.write(cm::kKernel, 1);
    d.write(cm::kControl, cm::kControlClearError | cm::kControlStart);
    d.wait_for_irq();
    CHECK(d.read(cm::kStatus) == cm::kStatusDone);
    CHECK(d.read64(cm::kCyclesLo) == 0);
    CHECK(d.read64(cm::kBundlesLo) == 0);
    d.write(cm::kIrqStatus, cm::kIrqDone);

    // TLM_IGNORE_COMMAND: checked as an access, and nothing happens.
    std::uint32_t value = cm::kControlStart;
    d.write(cm::kKernel, 0);
    CHECK(d.access(tlm::TLM_IGNORE_COMMAND, cm::kControl, value) == tlm::TLM_OK_RESPONSE);
    CHECK(d.read(cm::kStatus) == cm::kStatusDone);  // not launched
    CHECK(d.access(tlm::TLM_IGNORE_COMMAND, 0x98, value) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(warnings.last().find("ignored access of 4 bytes at offset 0x98 refused: no register there") != std::string::npos);
    CHECK(d.access(tlm::TLM_IGNORE_COMMAND, cm::kStatus, value, 2) == tlm::TLM_BURST_ERROR_RESPONSE);
  };
  b.run();
  CHECK(b.top.control.stats().launches == 1);
  CHECK(b.top.dispatcher.retired().total == 0);
  CHECK(b.driver.irq_rises == 1);
}

TEST_CASE("Host control: after a program set directly, a kernel counts its own bundles and faults", "[control]") {
  Bench b;
  b.add_kernel("first faults", "BSTART.SFU TROWSUM, FP32\nB.DIM zero, 8, ->LB0\nB.DIM zero, 4, ->LB1\n"
                               "B.IOT T#9, mask=1111, last, ->U<1>\nBSTOP\n");
  const model::Assembly assembly = model::assemble(b.text, "rowsum");
  REQUIRE(assembly.ok());
  model::ProgramFrontEnd direct(assembly.instructions);
  b.top.dispatcher.set_program(&direct);
  b.driver.script = [&](Driver& d) {
    d.poll_idle();
    CHECK(d.read(cm::kStatus) == 0);  // the direct program is no launch: not done
    d.write(cm::kKernel, 1);
    d.write(cm::kControl, cm::kControlStart);
    d.poll_idle();
    CHECK(d.read(cm::kStatus) == (cm::kStatusDone | cm::kStatusFault));
    CHECK(d.read(cm::kFault) == static_cast<std::uint32_t>(model::FaultCode::TileLegality) + 1);
    CHECK(d.read(cm::kFaultBundle) == 0);  // the kernel's first, the run's second
    CHECK(d.read64(cm::kBundlesLo) == 1);
  };
  b.run();
  CHECK(b.top.dispatcher.retired().total == 2);
}

TEST_CASE("Host control: in timing-only mode a launch counts and times as in a full run, running figures grow",
          "[control]") {
  Bench b({}, true);
  std::uint64_t launch = 0, cycles = 0;
  std::vector<std::uint64_t> running;
  b.driver.script = [&](Driver& d) {
    d.write(cm::kIrqEnable, cm::kIrqDone);
    d.write(cm::kControl, cm::kControlStart);
    launch = b.now_cycles();
    for (int i = 0; i < 3; ++i) {
      sc_core::wait(sc_core::sc_time(3, sc_core::SC_NS));
      REQUIRE(d.read(cm::kStatus) == cm::kStatusBusy);
      const std::uint64_t asked = b.now_cycles();
      running.push_back(d.read64(cm::kCyclesLo));  // LO is read as the access arrives, a hop later
      CHECK(running.back() == asked + b.config.params.interconnect_hop_cycles - launch);
      CHECK(d.read64(cm::kBundlesLo) == 0);  // the one bundle has not retired
    }
    d.wait_for_irq();
    cycles = d.read64(cm::kCyclesLo);
    CHECK(d.read64(cm::kBundlesLo) == 1);
  };
  b.run();
  CHECK(cycles == b.top.dispatcher.finish_cycle() - launch);
  REQUIRE(running.size() == 3);
  CHECK(running[0] < running[1]);
  CHECK(running[1] < running[2]);
  CHECK(running[2] < cycles);
}

namespace {

/// A module of the platform that sets a program of its own in the delta the dispatcher reports the
/// launch's end (an SC_METHOD elaborated after the platform, so it runs before the block would).
struct EagerLauncher : sc_core::sc_module {
  platforms::TileTop& top;
  model::ProgramFrontEnd& program;
  bool launched = false;

  SC_HAS_PROCESS(EagerLauncher);
  EagerLauncher(sc_core::sc_module_name n, platforms::TileTop& t, model::ProgramFrontEnd& p)
      : sc_core::sc_module(n), top(t), program(p) {
    SC_METHOD(on_finished);
    sensitive << top.dispatcher.finished_event();
    dont_initialize();
  }
  void on_finished() {
    if (launched || !top.dispatcher.finished()) return;
    launched = true;
    top.dispatcher.set_program(&program);
  }
};

}  // namespace

TEST_CASE("Host control: a program set directly as a launch ends does not take over the launch's end", "[control]") {
  Bench b;
  const model::Assembly assembly = model::assemble(
      "BSTART.SFU TROWSUM, FP32\nB.DIM zero, 8, ->LB0\nB.DIM zero, 4, ->LB1\nB.IOT T#1, mask=1111, last, ->U<2>\nBSTOP\n"
      "BSTART.SFU TROWSUM, FP32\nB.DIM zero, 8, ->LB0\nB.DIM zero, 4, ->LB1\nB.IOT T#1, mask=1111, last, ->U<3>\nBSTOP\n",
      "direct");
  REQUIRE(assembly.ok());
  model::ProgramFrontEnd direct(assembly.instructions);
  EagerLauncher eager("eager", b.top, direct);
  std::uint64_t launch = 0, cycles = 0, bundles = 0, irq_cycle = 0;
  b.driver.script = [&](Driver& d) {
    d.write(cm::kIrqEnable, cm::kIrqDone);
    d.write(cm::kControl, cm::kControlStart);
    launch = b.now_cycles();
    d.wait_for_irq();
    irq_cycle = b.now_cycles();
    cycles = d.read64(cm::kCyclesLo);
    bundles = d.read64(cm::kBundlesLo);
  };
  b.run();
  REQUIRE(eager.launched);
  CHECK(bundles == 1);  // the kernel's only
  CHECK(irq_cycle == launch + cycles);
  CHECK(b.top.dispatcher.finish_cycle() > irq_cycle);  // the interrupt came before the direct program's end
  CHECK(b.top.dispatcher.retired().total == 3);
}

namespace {

/// `text` assembled and encoded, as `ptosim asm` writes it.
std::vector<std::uint8_t> image_of(const std::string& text) {
  const model::Assembly assembly = model::assemble(text, "image");
  REQUIRE(assembly.ok());
  std::vector<std::uint8_t> bytes;
  for (const model::Instruction& inst : assembly.instructions) model::append_bytes(*model::encode(inst.body), bytes);
  return bytes;
}

}  // namespace

TEST_CASE("Host control: a driver writes programs into the program memory and launches them, and one that ends "
          "inside an instruction is refused",
          "[control]") {
  Bench b;
  std::vector<std::uint8_t> rowsum = image_of(b.text), colsum = image_of(kColumnSum);
  std::vector<std::uint8_t> faulting = [&] {
    std::vector<std::uint8_t> bytes = rowsum;
    for (std::uint8_t byte : {0x43, 0x00, 0x3c, 0x00}) bytes.push_back(byte);  // B.DIM r24, 3, ->LB0: r24 is reserved
    return bytes;
  }();
  const auto size = [](const std::vector<std::uint8_t>& v) { return static_cast<std::uint32_t>(v.size()); };
  WarningLog warnings;
  b.driver.script = [&](Driver& d) {
    d.write(cm::kIrqEnable, cm::kIrqDone);
    REQUIRE(d.access_bytes(tlm::TLM_WRITE_COMMAND, cm::kProgramMemory, rowsum.data(), size(rowsum)) ==
            tlm::TLM_OK_RESPONSE);
    std::uint8_t three[3] = {};
    REQUIRE(d.access_bytes(tlm::TLM_READ_COMMAND, cm::kProgramMemory + 1, three, 3) == tlm::TLM_OK_RESPONSE);
    CHECK(std::vector<std::uint8_t>(three, three + 3) == std::vector<std::uint8_t>(rowsum.begin() + 1, rowsum.begin() + 4));

    // Ends inside its last instruction: refused, nothing launched.
    d.write(cm::kProgramBytes, size(rowsum) - 2);
    d.write(cm::kControl, cm::kControlStartProgram);
    CHECK(d.read(cm::kError) == static_cast<std::uint32_t>(cm::ErrorCause::BadProgram));
    CHECK(warnings.last().find("START_PROGRAM: truncated") != std::string::npos);
    CHECK(d.read(cm::kStatus) == cm::kStatusError);
    // Longer than the memory: refused, the length kept.
    d.write(cm::kProgramBytes, static_cast<std::uint32_t>(cm::kProgramMemorySize) + 1);
    CHECK(warnings.last().find("PROGRAM_BYTES 1048577: the program memory holds 1048576 bytes") != std::string::npos);
    CHECK(d.read(cm::kProgramBytes) == size(rowsum) - 2);

    d.write(cm::kProgramBytes, size(rowsum));
    d.write(cm::kControl, cm::kControlClearError | cm::kControlStartProgram);
    CHECK(d.read(cm::kStatus) == cm::kStatusBusy);
    // The next program is written while this one runs (it was decoded at START).
    REQUIRE(d.access_bytes(tlm::TLM_WRITE_COMMAND, cm::kProgramMemory, colsum.data(), size(colsum)) ==
            tlm::TLM_OK_RESPONSE);
    d.write(cm::kProgramBytes, size(colsum));
    d.write(cm::kControl, cm::kControlStartProgram);
    CHECK(warnings.last().find("START_PROGRAM while the program in program memory runs") != std::string::npos);
    d.wait_for_irq();
    CHECK(d.read(cm::kStatus) == (cm::kStatusDone | cm::kStatusError));
    CHECK(d.read64(cm::kBundlesLo) == 1);
    d.write(cm::kIrqStatus, cm::kIrqDone);
    d.write(cm::kControl, cm::kControlClearError);

    for (unsigned pe = 0; pe < model::kPeCount; ++pe) d.set_gpr(pe, 5, 4);
    d.write(cm::kControl, cm::kControlStartProgram);
    d.wait_for_irq();
    CHECK(d.read(cm::kStatus) == cm::kStatusDone);
    d.write(cm::kIrqStatus, cm::kIrqDone);

    // A word that decodes to an illegal instruction faults when the dispatcher reaches it.
    REQUIRE(d.access_bytes(tlm::TLM_WRITE_COMMAND, cm::kProgramMemory, faulting.data(), size(faulting)) ==
            tlm::TLM_OK_RESPONSE);
    d.write(cm::kProgramBytes, size(faulting));
    d.write(cm::kControl, cm::kControlStartProgram);
    d.wait_for_irq();
    CHECK(d.read(cm::kStatus) == (cm::kStatusDone | cm::kStatusFault));
    CHECK(d.read(cm::kFault) == static_cast<std::uint32_t>(model::FaultCode::IllegalInstruction) + 1);
    CHECK(d.read(cm::kFaultBundle) == 1);

    // The memory's bounds and rules.
    std::uint32_t word = 0;
    CHECK(d.access(tlm::TLM_WRITE_COMMAND, cm::kProgramMemory + cm::kProgramMemorySize - 2, word) ==
          tlm::TLM_ADDRESS_ERROR_RESPONSE);
    unsigned char enables[4] = {0xFF, 0, 0, 0};
    CHECK(d.access(tlm::TLM_WRITE_COMMAND, cm::kProgramMemory, word, 4, enables) == tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    CHECK(d.access(tlm::TLM_READ_COMMAND, cm::kProgramMemory + cm::kProgramMemorySize - 4, word) == tlm::TLM_OK_RESPONSE);
    CHECK(word == 0);  // never written
    // Debug transport reads and writes it.
    std::uint8_t loaded[4] = {1, 2, 3, 4};
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_address(engines::address_map::kControlBase + cm::kProgramMemory + 0x100);
    gp.set_data_ptr(loaded);
    gp.set_data_length(4);
    CHECK(d.socket->transport_dbg(gp) == 4);
    CHECK(d.access(tlm::TLM_READ_COMMAND, cm::kProgramMemory + 0x100, word) == tlm::TLM_OK_RESPONSE);
    CHECK(word == 0x04030201);
  };

  b.run();

  CHECK(b.top.control.stats().launches == 3);
  CHECK(b.top.dispatcher.retired().total == 4);  // the row sum, the column sum, the row sum and the faulting word
  REQUIRE(b.top.dispatcher.retired().fault);
  char where[64];
  std::snprintf(where, sizeof where, "program memory:+0x%zx", rowsum.size());  // the word's byte offset
  CHECK(model::format_location(b.top.dispatcher.retired().fault->loc) == where);
  const model::TileRef sum = *model::TileRef::parse("U#2");  // the column sum, before the last row sum
  CHECK(b.top.read_local(sum.index, 0).at(0) == std::uint64_t{0x4223fc00});
}

TEST_CASE("Host control: a program ptosim asm wrote runs from the program memory, computing and taking as long as "
          "the same code as a kernel",
          "[control]") {
  Bench b({}, false, "softmax");
  const std::string source = test::write_file("softmax.s", b.text), binary = test::scratch("softmax.bin");
  REQUIRE(std::system((std::string(PTOSIM_EXE) + " asm " + source + " -o " + binary).c_str()) == 0);
  std::ifstream in(binary, std::ios::binary);
  std::vector<std::uint8_t> image{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  REQUIRE(image.size() > 16);
  const model::TileRef result = *model::TileRef::parse("M#1");
  std::vector<model::FragmentData> program_result;
  std::uint64_t program_cycles = 0, kernel_cycles = 0;
  b.driver.script = [&](Driver& d) {
    d.write(cm::kIrqEnable, cm::kIrqDone);
    REQUIRE(d.access_bytes(tlm::TLM_WRITE_COMMAND, cm::kProgramMemory, image.data(),
                           static_cast<unsigned>(image.size())) == tlm::TLM_OK_RESPONSE);
    d.write(cm::kProgramBytes, static_cast<std::uint32_t>(image.size()));
    d.write(cm::kControl, cm::kControlStartProgram);
    d.wait_for_irq();
    CHECK(d.read(cm::kStatus) == cm::kStatusDone);
    CHECK(d.read64(cm::kBundlesLo) == 4);
    program_cycles = d.read64(cm::kCyclesLo);
    for (int pe = 0; pe < model::kPeCount; ++pe) program_result.push_back(b.top.read_local(result.index, pe));
    d.write(cm::kIrqStatus, cm::kIrqDone);
    // The kernel runs on what the program left (a softmax of its exponentials): other values, the
    // same timing.
    d.write(cm::kControl, cm::kControlStart);
    d.wait_for_irq();
    CHECK(d.read64(cm::kBundlesLo) == 4);
    kernel_cycles = d.read64(cm::kCyclesLo);
  };
  b.run();
  CHECK(program_cycles == kernel_cycles);
  // The program's softmax is the example's expected one on every PE.
  const auto expected = test::dumped_encodings(test::slurp(std::string(PTOSIM_SOURCE_DIR) + "/examples/softmax.expected"), "M#1");
  REQUIRE(expected.size() == 8);
  REQUIRE(program_result.size() == model::kPeCount);
  for (const model::FragmentData& fragment : program_result) {
    REQUIRE(fragment.size() == 128);
    for (std::size_t i = 0; i < fragment.size(); ++i) CHECK(fragment[i] == std::uint64_t{expected[i / 16].at(i % 16)});
  }
}

TEST_CASE("Host control: a program is decoded as it launches, an empty one ends at once, and the program memory's "
          "access rules",
          "[control]") {
  Bench b;
  std::vector<std::uint8_t> two = image_of(b.text + b.text);  // two row sums
  std::vector<std::uint8_t> zeros(two.size(), 0);
  const auto size = [](const std::vector<std::uint8_t>& v) { return static_cast<unsigned>(v.size()); };
  b.driver.script = [&](Driver& d) {
    d.write(cm::kIrqEnable, cm::kIrqDone);
    REQUIRE(d.access_bytes(tlm::TLM_WRITE_COMMAND, cm::kProgramMemory, two.data(), size(two)) == tlm::TLM_OK_RESPONSE);
    d.write(cm::kProgramBytes, size(two));
    d.write(cm::kControl, cm::kControlStartProgram);
    // Overwritten as the first bundle runs: the launch runs what START_PROGRAM decoded.
    REQUIRE(d.access_bytes(tlm::TLM_WRITE_COMMAND, cm::kProgramMemory, zeros.data(), size(zeros)) == tlm::TLM_OK_RESPONSE);
    d.wait_for_irq();
    CHECK(d.read(cm::kStatus) == cm::kStatusDone);
    CHECK(d.read64(cm::kBundlesLo) == 2);
    d.write(cm::kIrqStatus, cm::kIrqDone);

    d.write(cm::kProgramBytes, 0);
    d.write(cm::kControl, cm::kControlStartProgram);
    d.wait_for_irq();
    CHECK(d.read(cm::kStatus) == cm::kStatusDone);
    CHECK(d.read64(cm::kBundlesLo) == 0);
    CHECK(d.read64(cm::kCyclesLo) == 0);

    std::uint8_t bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    CHECK(d.access_bytes(tlm::TLM_WRITE_COMMAND, cm::kProgramMemory, bytes, 0) == tlm::TLM_BURST_ERROR_RESPONSE);
    CHECK(d.access_bytes(tlm::TLM_WRITE_COMMAND, cm::kProgramMemory - 4, bytes, 8) == tlm::TLM_BURST_ERROR_RESPONSE);
    CHECK(d.access_bytes(tlm::TLM_IGNORE_COMMAND, cm::kProgramMemory, bytes, 8) == tlm::TLM_OK_RESPONSE);
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_address(engines::address_map::kControlBase + cm::kProgramMemory);
    gp.set_data_ptr(bytes);
    gp.set_data_length(8);
    gp.set_streaming_width(4);
    gp.set_byte_enable_ptr(nullptr);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    d.socket->b_transport(gp, delay);
    CHECK(gp.get_response_status() == tlm::TLM_BURST_ERROR_RESPONSE);
    std::uint8_t seen[8] = {9, 9, 9, 9, 9, 9, 9, 9};
    REQUIRE(d.access_bytes(tlm::TLM_READ_COMMAND, cm::kProgramMemory, seen, 8) == tlm::TLM_OK_RESPONSE);
    CHECK(std::vector<std::uint8_t>(seen, seen + 8) == std::vector<std::uint8_t>(8, 0));  // nothing was written

    // Debug transport writes and reads it, within it only.
    gp.set_address(engines::address_map::kControlBase + cm::kProgramMemory + 0x200);
    gp.set_streaming_width(8);
    CHECK(d.socket->transport_dbg(gp) == 8);
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_data_ptr(seen);
    CHECK(d.socket->transport_dbg(gp) == 8);
    CHECK(std::vector<std::uint8_t>(seen, seen + 8) == std::vector<std::uint8_t>(bytes, bytes + 8));
    gp.set_address(engines::address_map::kControlBase + cm::kProgramMemory - 4);
    CHECK(d.socket->transport_dbg(gp) == 0);  // from the registers into the memory
  };
  b.run();
  CHECK(b.top.control.stats().launches == 2);
}

TEST_CASE("Host control: the trace shows each launch, the interrupt line and ERROR as they change, and the "
          "statistics count the block's accesses",
          "[control]") {
  Bench b;
  // A program set directly runs first: the block is busy, but no launch of its own runs.
  const model::Assembly assembly = model::assemble(b.text, "rowsum");
  REQUIRE(assembly.ok());
  model::ProgramFrontEnd direct(assembly.instructions);
  b.top.dispatcher.set_program(&direct);
  traces::VcdRecorder rec;
  b.top.trace_to(rec, {"control"});
  const std::string path = test::scratch("control_trace.vcd");
  REQUIRE(rec.open(path, "test", 0, ~std::uint64_t{0}));
  std::uint64_t busy_refused = 0, busy_cleared = 0, launched = 0, launch_refused = 0, ended = 0, acknowledged = 0,
                launch_cleared = 0, refused = 0, cleared = 0;
  WarningLog warnings;
  b.driver.script = [&](Driver& d) {
    d.write(cm::kControl, cm::kControlStart);  // refused: the program set directly runs
    busy_refused = engines::Clocked::now_ps();
    d.write(cm::kControl, cm::kControlClearError);
    busy_cleared = engines::Clocked::now_ps();
    d.write(cm::kControl, cm::kControlClearError);  // nothing to clear: no change
    d.poll_idle();
    d.write(cm::kIrqEnable, cm::kIrqDone);
    d.write(cm::kKernel, 0);
    d.write(cm::kControl, cm::kControlStart);
    launched = engines::Clocked::now_ps();
    d.write(cm::kControl, cm::kControlStart);  // refused: the launch runs on
    launch_refused = engines::Clocked::now_ps();
    d.wait_for_irq();
    ended = engines::Clocked::now_ps();
    CHECK(d.read(cm::kStatus) == (cm::kStatusDone | cm::kStatusError));
    sc_core::wait(sc_core::sc_time(20, sc_core::SC_NS));
    d.write(cm::kIrqStatus, cm::kIrqDone);
    acknowledged = engines::Clocked::now_ps();
    d.write(cm::kControl, cm::kControlClearError);
    launch_cleared = engines::Clocked::now_ps();
    d.write(cm::kKernel, 5);
    d.write(cm::kProgramBytes, 1);  // ends inside an instruction
    d.write(cm::kControl, cm::kControlStart | cm::kControlStartProgram);  // two refusals, one write
    refused = engines::Clocked::now_ps();
    CHECK(d.read(cm::kError) == static_cast<std::uint32_t>(cm::ErrorCause::NoSuchKernel));
    sc_core::wait(sc_core::sc_time(20, sc_core::SC_NS));
    d.write(cm::kControl, cm::kControlClearError);
    cleared = engines::Clocked::now_ps();
    std::uint32_t value = 0;
    CHECK(d.access(tlm::TLM_READ_COMMAND, 0x54, value) == tlm::TLM_ADDRESS_ERROR_RESPONSE);  // no register
    std::uint8_t bytes[4] = {1, 2, 3, 4};
    CHECK(d.access_bytes(tlm::TLM_WRITE_COMMAND, cm::kProgramMemory, bytes, 4) == tlm::TLM_OK_RESPONSE);
  };
  b.run();
  REQUIRE(rec.close(engines::Clocked::now_ps()));

  // The launch ends in the cycle of its last retirement (the host's times need not fall on clock
  // edges), and the interrupt rises then.
  const std::uint64_t period = b.config.params.clock.period_ps;
  CHECK(ended / period == b.top.dispatcher.finish_cycle());
  CHECK(launched < launch_refused);
  CHECK(launch_refused < ended);
  using Changes = std::vector<std::pair<std::uint64_t, std::uint64_t>>;
  const test::Waves waves(path);
  CHECK(waves.changes.size() == 3);  // the block's signals only
  CHECK(waves.changes.at("accelerator.control.launch") == Changes{{0, 0}, {launched, 1}, {ended, 0}});
  CHECK(waves.changes.at("accelerator.control.irq") == Changes{{0, 0}, {ended, 1}, {acknowledged, 0}});
  const auto busy = static_cast<std::uint64_t>(cm::ErrorCause::Busy);
  CHECK(waves.changes.at("accelerator.control.error") ==
        Changes{{0, 0}, {busy_refused, busy}, {busy_cleared, 0}, {launch_refused, busy}, {launch_cleared, 0},
                {refused, static_cast<std::uint64_t>(cm::ErrorCause::NoSuchKernel)}, {cleared, 0}});

  const auto report = platforms::run_report(b.top, b.config.params, b.top.dispatcher.finish_cycle());
  const auto& control = report.at("control");
  CHECK(control.at("launches") == 1);
  CHECK(control.at("register_reads") == 2 + 2);  // and poll_idle's STATUS reads
  CHECK(control.at("register_writes") == 13);
  CHECK(control.at("refused_writes") == 3);
  CHECK(control.at("program_memory_accesses") == 1);
  CHECK(control.at("error_responses") == 1);
}

TEST_CASE("Host control: a host installs an input tile through the tile window, writes its payload over TLM, "
          "launches, and finds and reads the result through the window",
          "[control]") {
  Bench b({}, false, "rowsum", false);  // T#1 is not loaded: the host installs it
  const platforms::ProgramTile& input = b.program.tiles.at(0);
  REQUIRE(input.ref == *model::TileRef::parse("T#1"));
  const model::TileRef result = *model::TileRef::parse("U#1");
  model::TileDescriptor described;
  std::array<std::uint32_t, model::kPeCount> result_address{};
  b.driver.script = [&](Driver& d) {
    CHECK(d.read(cm::kVersion) == 2);
    d.describe_window(input.ref, input.desc);
    d.write(cm::kTileCommand, cm::kTileInstall);
    CHECK(d.read(cm::kError) == 0);
    for (int pe = 0; pe < model::kPeCount; ++pe) {
      d.write(cm::kTilePe, static_cast<std::uint32_t>(pe));
      const std::uint32_t address = d.read(cm::kTileAddress);
      CHECK(address == engines::address_map::fragment_address(model::TileRef::Space::Local, b.top.dispatcher.state().physical_index(input.ref.index), pe));
      std::vector<std::uint8_t> bytes(input.desc.capacity_bytes);
      model::Definedness defined;
      model::store_fragment(input.desc, bytes.data(), defined, input.data[pe]);
      d.move_memory(tlm::TLM_WRITE_COMMAND, address, bytes);
    }
    d.write(cm::kIrqEnable, cm::kIrqDone);
    d.write(cm::kControl, cm::kControlStart);
    d.wait_for_irq();
    CHECK(d.read(cm::kStatus) == cm::kStatusDone);

    // The result's descriptor and where each fragment lies now (the queue policy placed it).
    d.write(cm::kTileIndex, result.index);
    d.write(cm::kTileCommand, cm::kTileDescribe);
    CHECK(d.read(cm::kError) == 0);
    described.dtype = static_cast<model::DataType>(d.read(cm::kTileDtype));
    described.layout = static_cast<model::Layout>(d.read(cm::kTileLayout));
    described.location = static_cast<model::Location>(d.read(cm::kTileLocation));
    described.rows = d.read(cm::kTileRows);
    described.cols = d.read(cm::kTileCols);
    described.valid_rows = d.read(cm::kTileValidRows);
    described.valid_cols = d.read(cm::kTileValidCols);
    described.capacity_bytes = d.read(cm::kTileCapacity);
    CHECK(d.read(cm::kTileMask) == 0xF);
    described.pe_mask = model::PeMask::all();
    for (int pe = 0; pe < model::kPeCount; ++pe) {
      d.write(cm::kTilePe, static_cast<std::uint32_t>(pe));
      result_address[static_cast<std::size_t>(pe)] = d.read(cm::kTileAddress);
      std::vector<std::uint8_t> bytes(described.capacity_bytes);
      d.move_memory(tlm::tlm_command::TLM_READ_COMMAND, result_address[static_cast<std::size_t>(pe)], bytes);
      const model::FragmentData values =
          model::fetch_fragment(described, bytes.data(), model::Definedness(described.element_count(), true));
      REQUIRE(values.size() >= 4);
      for (unsigned r = 0; r < 4; ++r) CHECK(values[r * described.cols] == kRowSums[r]);
    }
  };
  b.run();

  // The host's tile is the program file's (every physical element defined), the result the dispatcher's.
  const model::LocalTile& installed = b.top.dispatcher.state().local(input.ref.index);
  CHECK(installed.desc == input.desc);
  CHECK(installed.defined[3].test(input.desc.element_count() - 1));
  CHECK(described == b.top.dispatcher.state().local(result.index).desc);
  CHECK(described.dtype == model::DataType::FP32);
  CHECK(described.valid_rows == 4);
  CHECK(described.valid_cols == 1);
  for (int pe = 0; pe < model::kPeCount; ++pe)
    CHECK(result_address[static_cast<std::size_t>(pe)] ==
          engines::address_map::fragment_address(model::TileRef::Space::Local, b.top.dispatcher.state().physical_index(result.index), pe));
  CHECK(b.top.control.stats().refused_writes == 0);
}

TEST_CASE("Host control: the tile window refuses what it cannot install or describe, and changes nothing then",
          "[control]") {
  Bench b;  // T#1 loaded, as the example gives it
  WarningLog warnings;
  const model::TileRef t1 = *model::TileRef::parse("T#1"), t2 = *model::TileRef::parse("T#2"),
                      s3 = *model::TileRef::parse("S3");
  const model::TileDescriptor good = b.program.tiles.at(0).desc;
  b.driver.script = [&](Driver& d) {
    // Each refusal: ERROR says why, the warning names the rule, nothing is installed.
    const auto refused = [&](cm::ErrorCause cause, const std::string& rule) {
      INFO(WarningLog::last());
      CHECK(d.read(cm::kError) == static_cast<std::uint32_t>(cause));
      CHECK(WarningLog::last().find(rule) != std::string::npos);
      CHECK_FALSE(b.top.dispatcher.state().local(t2.index).allocated);
      d.write(cm::kControl, cm::kControlClearError);
    };
    const auto install = [&](const std::function<void()>& change) {
      d.describe_window(t2, good);
      change();
      d.write(cm::kTileCommand, cm::kTileInstall);
    };
    install([&] { d.write(cm::kTileSpace, 2); });
    refused(cm::ErrorCause::BadTile, "tile install: TILE_SPACE 2 is neither 0 (Local) nor 1 (Shared)");
    install([&] { d.write(cm::kTileIndex, 64); });
    refused(cm::ErrorCause::BadTile, "tile install: TILE_INDEX: Local register index 64 is past the 64 registers");
    install([&] { d.write(cm::kTileDtype, 15); });
    refused(cm::ErrorCause::BadTile, "TILE_DTYPE 15 is no DataType code");
    install([&] { d.write(cm::kTileLayout, 7); });
    refused(cm::ErrorCause::BadTile, "TILE_LAYOUT 7: the layouts are 0..6");
    install([&] { d.write(cm::kTileLocation, 4); });
    refused(cm::ErrorCause::BadTile, "TILE_LOCATION 4: the locations are 0..3");
    install([&] { d.write(cm::kTileMask, 0); });
    refused(cm::ErrorCause::BadTile, "TILE_MASK 0x0: one or more PEs, bits 0..3");
    install([&] { d.write(cm::kTileMask, 0x10); });
    refused(cm::ErrorCause::BadTile, "TILE_MASK 0x10");
    install([&] { d.write(cm::kTileValidRows, 70000); });
    refused(cm::ErrorCause::BadTile, "TILE_VALID_ROWS 70000: dimensions are 16-bit");
    install([&] { d.write(cm::kTileCapacity, 2 * model::kMaxTileBytes); });
    refused(cm::ErrorCause::BadTile, "tile install at T#2: capacity 524288 B exceeds the largest tile");
    install([&] { d.write(cm::kTileValidCols, good.cols + 1); });
    refused(cm::ErrorCause::BadTile, "tile install at T#2: valid rectangle exceeds the physical shape");
    install([&] { d.write(cm::kTileRows, good.rows / 2); });  // 256 B of 8 FP32 columns are 8 rows
    refused(cm::ErrorCause::BadTile, "tile install at T#2: 4 rows are not the 8 the capacity holds");
    install([&] { d.write(cm::kTileCapacity, 300); });
    refused(cm::ErrorCause::BadTile, "tile install at T#2: capacity 300 B does not divide into 1..65535 rows of 8 FP32 elements");
    install([&] {
      d.write(cm::kTileSpace, cm::kTileSpaceShared);
      d.write(cm::kTileLayout, static_cast<std::uint32_t>(model::Layout::CubeM16));
    });
    refused(cm::ErrorCause::BadTile, "tile install at S1: Shared tiles never use CUBE layouts");
    CHECK_FALSE(b.top.dispatcher.state().shared(1).allocated);
    d.write(cm::kTileCommand, 3);
    refused(cm::ErrorCause::BadTile, "TILE_COMMAND 3: 1 installs a tile, 2 describes one");
    d.write(cm::kTilePe, 4);
    refused(cm::ErrorCause::NoSuchGpr, "TILE_PE 4: the PEs are 0..3");
    CHECK(d.read(cm::kTilePe) == 0);
    // Describing: a register with no tile leaves the fields as they were.
    d.describe_window(t2, good);
    d.write(cm::kTileCommand, cm::kTileDescribe);
    refused(cm::ErrorCause::BadTile, "tile description: T#2 holds no tile");
    CHECK(d.read(cm::kTileCapacity) == good.capacity_bytes);
    // TILE_ADDRESS names no fragment for no register; a Shared register's fragment is every PE's.
    d.write(cm::kTileSpace, 2);
    CHECK(d.read(cm::kTileAddress) == cm::kNoTileAddress);
    d.write(cm::kTileSpace, cm::kTileSpaceShared);
    d.write(cm::kTileIndex, 5);
    d.write(cm::kTilePe, 2);
    CHECK(d.read(cm::kTileAddress) == engines::address_map::kSharedBase + 5 * engines::address_map::kSharedSlotStride);
    // While a launch runs, the window neither installs nor describes.
    d.write(cm::kControl, cm::kControlStart);
    install([] {});
    refused(cm::ErrorCause::Busy, "a tile install while kernel 0 ('rowsum') runs");
    d.write(cm::kTileCommand, cm::kTileDescribe);
    refused(cm::ErrorCause::Busy, "a tile description while kernel 0 ('rowsum') runs");
    d.poll_idle();
    // Over T#1, on PE0 only (bit 0), 128 KiB; beside it, T#2's 128 KiB and the kernel's 128-byte
    // result U#1 would pass PE0's tile capacity.
    constexpr std::uint32_t kHalf = 131072;
    d.describe_window(t1, good);
    d.write(cm::kTileCapacity, kHalf);
    d.write(cm::kTileRows, kHalf / (good.cols * 4));
    d.write(cm::kTileMask, 0x1);
    d.write(cm::kTileCommand, cm::kTileInstall);
    CHECK(d.read(cm::kError) == 0);
    install([&] {
      d.write(cm::kTileCapacity, kHalf);
      d.write(cm::kTileRows, kHalf / (good.cols * 4));
    });
    refused(cm::ErrorCause::BadTile, "tile install at T#2: the tiles would hold 262272 bytes on PE0, beyond its tile "
                                     "capacity (262144)");
    // Over T#1 again, its own 128 KiB count as replaced: 192 KiB fit there.
    d.describe_window(t1, good);
    d.write(cm::kTileCapacity, model::kMaxTileBytes - kHalf / 2);
    d.write(cm::kTileRows, (model::kMaxTileBytes - kHalf / 2) / (good.cols * 4));
    d.write(cm::kTileMask, 0x1);
    d.write(cm::kTileCommand, cm::kTileInstall);
    CHECK(d.read(cm::kError) == 0);
    // A Shared tile allocated to PE2 (bit 2) installs and describes; its one fragment is every PE's.
    d.describe_window(s3, good);
    d.write(cm::kTileMask, 0x4);
    d.write(cm::kTileCommand, cm::kTileInstall);
    CHECK(d.read(cm::kError) == 0);
    d.write(cm::kTileMask, 0);
    d.write(cm::kTileCapacity, 0);
    d.write(cm::kTileCommand, cm::kTileDescribe);
    CHECK(d.read(cm::kError) == 0);
    CHECK(d.read(cm::kTileMask) == 0x4);
    CHECK(d.read(cm::kTileCapacity) == good.capacity_bytes);
    const std::uint32_t s3_address = engines::address_map::kSharedBase + 3 * engines::address_map::kSharedSlotStride;
    for (const std::uint32_t pe : {0u, 2u}) {
      d.write(cm::kTilePe, pe);
      CHECK(d.read(cm::kTileAddress) == s3_address);
    }
  };
  b.run();
  const model::TileState& state = b.top.dispatcher.state();
  CHECK_FALSE(state.local(t2.index).allocated);
  CHECK(state.local(t1.index).desc.pe_mask == *model::PeMask::parse("1000"));
  CHECK(state.local(t1.index).desc.capacity_bytes == model::kMaxTileBytes - 65536);
  CHECK(state.shared(s3.index).allocation_mask == *model::PeMask::parse("0010"));
  CHECK(state.shared(s3.index).desc.pe_mask == *model::PeMask::parse("0010"));
  CHECK(state.shared(s3.index).valid_region_defined());
  CHECK(state.capacity_in_use(0) == state.capacity_in_use(1) + model::kMaxTileBytes - 65536);  // PE1: U#1 alone
  CHECK(state.capacity_in_use(2) == state.capacity_in_use(1) + good.capacity_bytes);
  CHECK(b.top.control.stats().refused_writes == 19);
}
