// SPDX-License-Identifier: BSD-3-Clause
// TileMemory as a TLM target: data, debug transport, address errors, and contention between two
// streaming initiators; the Router's decoding, DMI forwarding and invalidation. Each test case
// elaborates its own design (one per process).
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

#include <unistd.h>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "engines/common/burst_train.h"
#include "engines/common/scoped_extension.h"
#include "engines/memory/tile_memory.h"
#include "interconnect/router/router.h"
#include "tests/engines/plain_target.h"

using namespace ptosim;

namespace {

// Streams `bursts` reads of `burst` bytes back to back, waiting for each, and records when done.
struct Streamer : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Streamer> socket;
  std::uint64_t base;
  unsigned bursts;
  unsigned burst;
  sc_core::sc_time finished;
  SC_HAS_PROCESS(Streamer);
  Streamer(sc_core::sc_module_name n, std::uint64_t b, unsigned count, unsigned size)
      : sc_core::sc_module(n), socket("socket"), base(b), bursts(count), burst(size) {
    SC_THREAD(run);
  }
  void run() {
    std::vector<std::uint8_t> data(burst);
    tlm::tlm_generic_payload gp;
    for (unsigned i = 0; i < bursts; ++i) {
      gp.set_command(tlm::TLM_READ_COMMAND);
      gp.set_address(base + std::uint64_t{i} * burst);
      gp.set_data_ptr(data.data());
      gp.set_data_length(burst);
      gp.set_streaming_width(burst);
      gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      socket->b_transport(gp, delay);
      REQUIRE(gp.get_response_status() == tlm::TLM_OK_RESPONSE);
      sc_core::wait(delay);
    }
    finished = sc_core::sc_time_stamp();
  }
};

// An initiator for direct calls from a test; it records the DMI invalidations it receives.
struct Probe : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Probe> socket{"socket"};
  std::vector<std::pair<std::uint64_t, std::uint64_t>> invalidated;
  explicit Probe(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    socket.register_invalidate_direct_mem_ptr(this, &Probe::invalidate);
  }
  void invalidate(sc_dt::uint64 start, sc_dt::uint64 end) { invalidated.emplace_back(start, end); }
};

// Makes `gp` a plain write of `len` bytes from `data` to `address`.
void prepare_write(tlm::tlm_generic_payload& gp, std::uint64_t address, std::uint8_t* data, unsigned len) {
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_address(address);
  gp.set_data_ptr(data);
  gp.set_data_length(len);
  gp.set_streaming_width(len);
}

const model::ClockParams kClock{1000};
const model::MemoryParams kOnePort{16, 64, 1, 64, 2};

}  // namespace

TEST_CASE("TileMemory: data round trip with debug transport and address errors", "[engines]") {
  engines::TileMemory mem("mem", 1, 4, 1024, kOnePort, kClock);
  Probe probe("probe");
  probe.socket.bind(mem.target_socket);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);

  std::uint8_t out[4] = {1, 2, 3, 4}, in[4] = {};
  tlm::tlm_generic_payload gp;
  prepare_write(gp, 1024 + 8, out, 4);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  probe.socket->b_transport(gp, delay);
  CHECK(gp.get_response_status() == tlm::TLM_OK_RESPONSE);
  CHECK(delay == sc_core::sc_time(3000, sc_core::SC_PS));  // 1 cycle on the port + 2 cycles latency
  gp.set_command(tlm::TLM_READ_COMMAND);
  gp.set_data_ptr(in);
  CHECK(probe.socket->transport_dbg(gp) == 4);
  CHECK(in[3] == 4);
  CHECK(mem.bytes_written(0) == 4);

  gp.set_address(1024 - 2);  // straddles two slots
  delay = sc_core::SC_ZERO_TIME;
  probe.socket->b_transport(gp, delay);
  CHECK(gp.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  gp.set_address(4 * 1024);  // past the last slot
  CHECK(probe.socket->transport_dbg(gp) == 0);
  gp.set_address(1024 + 8);
  gp.set_streaming_width(2);  // streaming is not supported
  probe.socket->b_transport(gp, delay);
  CHECK(gp.get_response_status() == tlm::TLM_BURST_ERROR_RESPONSE);
  std::uint8_t enables[4] = {0xFF, 0, 0xFF, 0};
  gp.set_streaming_width(4);
  gp.set_byte_enable_ptr(enables);
  gp.set_byte_enable_length(4);
  probe.socket->b_transport(gp, delay);
  CHECK(gp.get_response_status() == tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
  gp.set_byte_enable_ptr(nullptr);

  // A burst train is timed but moves nothing; it rides on TLM_IGNORE_COMMAND only.
  model::BurstStream write(model::BurstPacer(1000, 1));
  write.write = true;
  write.transfers = {{1024 + 8, 4}};
  write.restart(0, 4);
  model::BurstStream* const streams[] = {&write};
  engines::BurstTrain no_data;
  no_data.streams = streams;
  no_data.stream_count = 1;
  no_data.group_size = 1;
  no_data.origin = 1024 + 8;
  no_data.burst_bytes = 4;
  std::uint8_t other[4] = {9, 9, 9, 9};
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_address(1024 + 8);
  gp.set_data_ptr(other);
  gp.set_extension(&no_data);
  delay = sc_core::SC_ZERO_TIME;
  probe.socket->b_transport(gp, delay);
  CHECK(gp.get_response_status() == tlm::TLM_COMMAND_ERROR_RESPONSE);
  CHECK(no_data.booked_bytes == 0);
  gp.set_command(tlm::TLM_IGNORE_COMMAND);
  probe.socket->b_transport(gp, delay);
  CHECK(gp.get_response_status() == tlm::TLM_OK_RESPONSE);
  CHECK(no_data.booked_bytes == 4);
  CHECK(write.finished());
  CHECK(mem.bytes_written(0) == 8);
  // A train with a transfer outside every slot books nothing.
  write.transfers = {{1024 - 2, 4}};
  write.restart(0, 4);
  no_data.booked_bytes = 0;
  probe.socket->b_transport(gp, delay);
  gp.clear_extension(&no_data);
  CHECK(gp.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  CHECK(no_data.booked_bytes == 0);
  // Nor does a train whose streams do not split into groups of its group size.
  write.transfers = {{1024 + 8, 4}};
  no_data.group_size = 0;
  gp.set_extension(&no_data);
  probe.socket->b_transport(gp, delay);
  gp.clear_extension(&no_data);
  CHECK(gp.get_response_status() == tlm::TLM_GENERIC_ERROR_RESPONSE);
  CHECK(no_data.booked_bytes == 0);
  CHECK(mem.port_counts(0).accesses == 2);
  gp.set_command(tlm::TLM_READ_COMMAND);
  gp.set_address(1024 + 8);
  gp.set_data_ptr(in);
  probe.socket->transport_dbg(gp);
  CHECK(in[0] == 1);
}

TEST_CASE("TileMemory: an ignored command is answered as its access would be, and it, a refused access of no bytes "
          "and a refused debug access move and book nothing",
          "[engines]") {
  engines::TileMemory mem("mem", 1, 4, 1024, kOnePort, kClock);
  Probe probe("probe");
  probe.socket.bind(mem.target_socket);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);

  std::uint8_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  tlm::tlm_generic_payload gp;
  prepare_write(gp, 1024 - 4, data, 8);  // straddles two slots
  gp.set_command(tlm::TLM_IGNORE_COMMAND);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  probe.socket->b_transport(gp, delay);
  CHECK(gp.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  gp.set_address(8);
  gp.set_streaming_width(4);
  probe.socket->b_transport(gp, delay);
  CHECK(gp.get_response_status() == tlm::TLM_BURST_ERROR_RESPONSE);
  std::uint8_t enables[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  gp.set_streaming_width(8);
  gp.set_byte_enable_ptr(enables);
  gp.set_byte_enable_length(8);
  probe.socket->b_transport(gp, delay);
  CHECK(gp.get_response_status() == tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
  gp.set_byte_enable_ptr(nullptr);
  gp.set_byte_enable_length(0);
  probe.socket->b_transport(gp, delay);
  CHECK(gp.get_response_status() == tlm::TLM_OK_RESPONSE);
  // Debug transport: an ignored command, byte enables or a short streaming width move nothing.
  CHECK(probe.socket->transport_dbg(gp) == 0);
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_streaming_width(4);
  CHECK(probe.socket->transport_dbg(gp) == 0);
  gp.set_streaming_width(8);
  gp.set_byte_enable_ptr(enables);
  gp.set_byte_enable_length(8);
  CHECK(probe.socket->transport_dbg(gp) == 0);
  gp.set_byte_enable_ptr(nullptr);
  gp.set_byte_enable_length(0);
  // An access of no bytes, which IEEE 1666 does not allow, is an error.
  gp.set_data_length(0);
  probe.socket->b_transport(gp, delay);
  CHECK(gp.get_response_status() == tlm::TLM_GENERIC_ERROR_RESPONSE);
  CHECK(probe.socket->transport_dbg(gp) == 0);
  CHECK(delay == sc_core::SC_ZERO_TIME);
  CHECK(mem.port_counts(0).accesses == 0);
  CHECK(mem.bytes_written(0) == 0);
  std::uint8_t seen[8] = {};
  gp.set_command(tlm::TLM_READ_COMMAND);
  gp.set_data_ptr(seen);
  gp.set_data_length(8);
  CHECK(probe.socket->transport_dbg(gp) == 8);
  CHECK(seen[0] == 0);  // nothing was written
}

TEST_CASE("TileMemory: a single stream runs at the port bandwidth", "[engines]") {
  engines::TileMemory mem("mem", 1, 4, 65536, kOnePort, kClock);
  Streamer a("a", 0, 32, 256);
  a.socket.bind(mem.target_socket);
  sc_core::sc_start();
  // 32 bursts x (4 cycles on the port + 2 latency), each waited for.
  CHECK(a.finished == sc_core::sc_time(32 * 6 * 1000, sc_core::SC_PS));
  CHECK(mem.port_counts(0).wait_cycles == 0);
}

namespace {

// Sends `train` (addressed at `address`) with zero delay and returns the delay it comes back with.
sc_core::sc_time send_train(Probe& probe, engines::BurstTrain& train, std::uint64_t address) {
  std::uint8_t scratch = 0;
  tlm::tlm_generic_payload gp;
  gp.set_command(tlm::TLM_IGNORE_COMMAND);
  gp.set_address(address);
  gp.set_data_ptr(&scratch);
  gp.set_data_length(1);
  gp.set_streaming_width(1);
  train.origin = address;
  train.booked_bytes = 0;
  const engines::ScopedExtension<engines::BurstTrain> attach(gp, train);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  probe.socket->b_transport(gp, delay);
  REQUIRE(gp.get_response_status() == tlm::TLM_OK_RESPONSE);
  return delay;
}

}  // namespace

TEST_CASE("TileMemory: a burst train books the bursts its pacer issues, up to the horizon", "[engines]") {
  engines::TileMemory mem("mem", 1, 4, 65536, kOnePort, kClock);
  Probe probe("probe");
  probe.socket.bind(mem.target_socket);
  // Bursts of 256 bytes (4 cycles on the port, then 2 of latency) leaving every 8 cycles.
  model::BurstStream read(model::BurstPacer(1000, 4));
  read.transfers = {{0, 1024}};
  read.restart(0, 32);
  model::BurstStream* const streams[] = {&read};
  engines::BurstTrain train;
  train.streams = streams;
  train.stream_count = 1;
  train.group_size = 1;
  train.burst_bytes = 256;
  train.horizon = 10 * 1000;
  // The bursts leaving at cycles 0 and 8 are within the horizon, the one at 16 is not. The memory
  // is done with the second at 14, but the stream moves its 256 bytes in 8 cycles: done at 16.
  CHECK(send_train(probe, train, 0) == sc_core::sc_time(16 * 1000, sc_core::SC_PS));
  CHECK(train.booked_bytes == 512);
  CHECK(read.offset == 512);
  CHECK(read.pacer.next_issue() == 16 * 1000);
  // The rest of the transfer, with the horizon out of the way, carries on the same pacing.
  train.horizon = ~std::uint64_t{0};
  CHECK(send_train(probe, train, 512) == sc_core::sc_time(32 * 1000, sc_core::SC_PS));
  CHECK(train.booked_bytes == 512);
  CHECK(read.finished());
  CHECK(mem.port_counts(0).accesses == 4);
  CHECK(mem.port_counts(0).wait_cycles == 0);
  CHECK(mem.bytes_read(0) == 1024);
}

TEST_CASE("TileMemory: a train's streams book in issue order, a transfer at a time, behind the router's latency",
          "[engines]") {
  engines::TileMemory mem("mem", 1, 4, 65536, kOnePort, kClock);
  interconnect::Router router("router", sc_core::sc_time(3000, sc_core::SC_PS));
  Probe probe("probe");
  probe.socket.bind(router.target_socket);
  router.initiator_socket.bind(mem.target_socket);
  constexpr std::uint64_t kBase = 0x10000000;
  router.map(0, model::AddressRange{kBase, mem.size_bytes()}, "mem");
  sc_core::sc_start(sc_core::SC_ZERO_TIME);  // binds the router's sockets
  // Reads of two 512-byte fragments every 8 cycles per 256-byte burst, and a write of one 256-byte
  // fragment starting at the same time: the read stream's first transfer goes first (a tie goes to
  // the earlier stream), then the write (due at 0, before the read's next burst at 16).
  model::BurstStream read(model::BurstPacer(1000, 4)), write(model::BurstPacer(1000, 4));
  read.transfers = {{kBase, 512}, {kBase + 65536, 512}};
  read.restart(0, 32);
  write.write = true;
  write.transfers = {{kBase + 2 * 65536, 256}};
  write.restart(0, 64);
  model::BurstStream* const streams[] = {&read, &write};
  engines::BurstTrain train;
  train.streams = streams;
  train.stream_count = 2;
  train.group_size = 2;
  train.burst_bytes = 256;
  train.horizon = ~std::uint64_t{0};
  // Arrivals 3 cycles after leaving: reads at 3 and 11 take the port for [3, 7) and [11, 15); the
  // write arrives at 3 and waits for the port until 7, [7, 11); the second fragment's reads leave
  // at 16 and 24: [19, 23) and [27, 31), done at 33.
  CHECK(send_train(probe, train, kBase) == sc_core::sc_time(33 * 1000, sc_core::SC_PS));
  CHECK(train.booked_bytes == 1280);
  CHECK(read.finished());
  CHECK(write.finished());
  CHECK(mem.port_counts(0).accesses == 5);
  CHECK(mem.port_counts(0).wait_cycles == 4);
  CHECK(mem.bytes_read(0) == 1024);
  CHECK(mem.bytes_written(0) == 256);
}

TEST_CASE("TileMemory: two streams through the router into one port contend and both slow down", "[engines]") {
  engines::TileMemory mem("mem", 1, 4, 65536, kOnePort, kClock);
  interconnect::Router router("router", sc_core::SC_ZERO_TIME);
  Streamer a("a", 0, 32, 256), b("b", 65536, 32, 256);
  a.socket.bind(router.target_socket);
  b.socket.bind(router.target_socket);
  router.initiator_socket.bind(mem.target_socket);
  router.map(0, model::AddressRange{0, mem.size_bytes()}, "mem");
  sc_core::sc_start();
  const sc_core::sc_time alone(32 * 6 * 1000, sc_core::SC_PS);
  CHECK(a.finished > alone);
  CHECK(b.finished > alone);
  CHECK(mem.port_counts(0).wait_cycles > 0);
  CHECK(mem.bytes_read(0) == 2 * 32 * 256);
}

TEST_CASE("Router: decodes half-open ranges and rejects unmapped and overlapping ones", "[engines]") {
  engines::TileMemory low("low", 1, 1, 256, kOnePort, kClock), high("high", 1, 1, 256, kOnePort, kClock);
  interconnect::Router router("router", sc_core::sc_time(5, sc_core::SC_NS));
  Probe probe("probe");
  probe.socket.bind(router.target_socket);
  router.initiator_socket.bind(low.target_socket);
  router.initiator_socket.bind(high.target_socket);
  router.map(0, model::AddressRange{0x1000, 256}, "low");
  router.map(1, model::AddressRange{0x1100, 256}, "high");
  CHECK_THROWS_WITH(router.map(1, model::AddressRange{0x10FF, 2}, "overlap"),
                    Catch::Contains("map: the range of overlap overlaps that of"));
  sc_core::sc_start(sc_core::SC_ZERO_TIME);

  std::uint8_t v = 7;
  tlm::tlm_generic_payload gp;
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_address(0x1100);  // first byte of "high", one past the end of "low"
  gp.set_data_ptr(&v);
  gp.set_data_length(1);
  gp.set_streaming_width(1);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  probe.socket->b_transport(gp, delay);
  CHECK(gp.get_response_status() == tlm::TLM_OK_RESPONSE);
  CHECK(gp.get_address() == 0x1100);  // restored for the initiator
  CHECK(high.bytes_written(0) == 1);
  CHECK(low.bytes_written(0) == 0);
  CHECK(delay >= sc_core::sc_time(5, sc_core::SC_NS));
  gp.set_address(0x10FF);
  gp.set_data_length(2);  // straddles the two targets
  gp.set_streaming_width(2);
  probe.socket->b_transport(gp, delay);
  CHECK(gp.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  gp.set_address(0x2000);
  gp.set_data_length(1);
  CHECK(probe.socket->transport_dbg(gp) == 0);
}

TEST_CASE("Router: forwards DMI requests and translates the granted range, its latency the memory's and the hop's",
          "[engines]") {
  engines::TileMemory low("low", 1, 2, 256, kOnePort, kClock), high("high", 1, 2, 256, kOnePort, kClock);
  interconnect::Router router("router", sc_core::sc_time(5, sc_core::SC_NS));
  Probe probe("probe");
  probe.socket.bind(router.target_socket);
  router.initiator_socket.bind(low.target_socket);
  router.initiator_socket.bind(high.target_socket);
  router.map(0, model::AddressRange{0x1000, 512}, "low");
  router.map(1, model::AddressRange{0x2000, 512}, "high");
  sc_core::sc_start(sc_core::SC_ZERO_TIME);

  tlm::tlm_generic_payload gp;
  gp.set_address(0x2000 + 256 + 10);  // slot 1 of "high"
  gp.set_data_length(100);            // the bytes the initiator needs: the grant covers them
  tlm::tlm_dmi dmi;
  REQUIRE(probe.socket->get_direct_mem_ptr(gp, dmi));
  CHECK(dmi.get_start_address() == 0x2000 + 256);
  CHECK(dmi.get_end_address() == 0x2000 + 256 + 127);  // the slot's storage so far (grown on demand)
  CHECK(dmi.is_read_write_allowed());
  // An access as b_transport times one to idle ports: a cycle of occupancy, the memory's latency
  // (2 cycles of 1 ns) and the router's hop.
  CHECK(dmi.get_read_latency() == sc_core::sc_time(8, sc_core::SC_NS));
  CHECK(dmi.get_write_latency() == sc_core::sc_time(8, sc_core::SC_NS));
  dmi.get_dmi_ptr()[10] = 42;  // visible through debug transport
  std::uint8_t v = 0;
  gp.set_command(tlm::TLM_READ_COMMAND);
  gp.set_data_ptr(&v);
  gp.set_data_length(1);
  gp.set_streaming_width(1);
  CHECK(probe.socket->transport_dbg(gp) == 1);
  CHECK(v == 42);
  // Refusals say "not here" for the address asked about, nothing more (a fresh tlm_dmi says
  // "everything": it must not reach the initiator).
  tlm::tlm_dmi across;
  gp.set_address(0x2000 + 200);
  gp.set_data_length(100);  // crosses from slot 0 into slot 1
  CHECK_FALSE(probe.socket->get_direct_mem_ptr(gp, across));
  CHECK(across.get_start_address() == 0x2000 + 200);
  CHECK(across.get_end_address() == 0x2000 + 200);
  tlm::tlm_dmi hole;
  gp.set_address(0x3000);
  gp.set_data_length(1);
  CHECK_FALSE(probe.socket->get_direct_mem_ptr(gp, hole));
  CHECK(hole.get_start_address() == 0x3000);
  CHECK(hole.get_end_address() == 0x3000);
}

TEST_CASE("Router: a target's DMI invalidation reaches initiators in their addresses, clipped to its range",
          "[engines]") {
  test::PlainTarget low("low"), high("high");
  Probe probe("probe");
  interconnect::Router router("router", sc_core::SC_ZERO_TIME);
  probe.socket.bind(router.target_socket);
  router.initiator_socket.bind(low.socket);
  router.initiator_socket.bind(high.socket);
  router.map(0, model::AddressRange{0x1000, 512}, "low");
  router.map(1, model::AddressRange{0x2000, 512}, "high");
  sc_core::sc_start(sc_core::SC_ZERO_TIME);

  high.socket->invalidate_direct_mem_ptr(16, 31);
  high.socket->invalidate_direct_mem_ptr(0, ~sc_dt::uint64{0});  // "everything": must not wrap
  REQUIRE(probe.invalidated.size() == 2);
  CHECK(probe.invalidated[0] == std::make_pair<std::uint64_t, std::uint64_t>(0x2010, 0x201F));
  CHECK(probe.invalidated[1] == std::make_pair<std::uint64_t, std::uint64_t>(0x2000, 0x21FF));
}

TEST_CASE("TileMemory: a slot's storage grows on demand and never moves, so DMI is never revoked", "[engines]") {
  engines::TileMemory mem("mem", 1, 2, 4096, kOnePort, kClock);
  Probe probe("probe");
  probe.socket.bind(mem.target_socket);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);

  tlm::tlm_generic_payload gp;
  gp.set_address(4096);  // slot 1
  gp.set_data_length(100);
  tlm::tlm_dmi small;
  REQUIRE(probe.socket->get_direct_mem_ptr(gp, small));
  CHECK(small.get_end_address() == 4096 + 127);
  small.get_dmi_ptr()[99] = 7;

  // A debug read past what the slot holds sees zeros there and changes nothing.
  std::vector<std::uint8_t> seen(3000, 0xff);
  tlm::tlm_generic_payload dbg;
  dbg.set_command(tlm::TLM_READ_COMMAND);
  dbg.set_address(4096);
  dbg.set_data_ptr(seen.data());
  dbg.set_data_length(3000);
  dbg.set_streaming_width(3000);
  CHECK(probe.socket->transport_dbg(dbg) == 3000);
  CHECK(seen[99] == 7);
  CHECK(seen[2999] == 0);
  tlm::tlm_dmi same;
  REQUIRE(probe.socket->get_direct_mem_ptr(gp, same));
  CHECK(same.get_end_address() == 4096 + 127);

  // A debug write past it grows the slot in place, as a larger tile's grant does.
  std::uint8_t poke = 5;
  dbg.set_command(tlm::TLM_WRITE_COMMAND);
  dbg.set_address(4096 + 1000);
  dbg.set_data_ptr(&poke);
  dbg.set_data_length(1);
  dbg.set_streaming_width(1);
  CHECK(probe.socket->transport_dbg(dbg) == 1);
  gp.set_data_length(3000);
  tlm::tlm_dmi large;
  REQUIRE(probe.socket->get_direct_mem_ptr(gp, large));
  CHECK(large.get_end_address() == 4096 + 4095);
  CHECK(large.get_dmi_ptr() == small.get_dmi_ptr());  // the same bytes: the first grant stays good
  CHECK(large.get_dmi_ptr()[99] == 7);
  CHECK(large.get_dmi_ptr()[1000] == 5);
  CHECK(large.get_dmi_ptr()[2999] == 0);
  CHECK(probe.invalidated.empty());

  gp.set_data_length(4097);  // beyond the slot: refused
  CHECK_FALSE(probe.socket->get_direct_mem_ptr(gp, large));
}

namespace {

// One PE's operand streams: two sources read at 32 bytes per cycle, a result written at 64.
struct PeStreams {
  model::BurstStream read{model::BurstPacer(1000, 2)};
  model::BurstStream write{model::BurstPacer(1000, 2)};
  void start(std::uint64_t base, std::uint64_t now) {
    read.transfers = {{base, 512}, {base + 65536, 256}};
    read.restart(now, 32);
    write.write = true;
    write.transfers = {{base + 2 * 65536, 384}};
    write.restart(now, 64);
  }
};

}  // namespace

TEST_CASE("TileMemory: instances that mirror book exactly what separate memories book", "[engines]") {
  const model::MemoryParams kTwoPorts{4, 64, 2, 64, 2};
  constexpr unsigned kPes = 4;
  engines::TileMemory quad("quad", kPes, 4, 65536, kTwoPorts, kClock);
  Probe quad_probe("quad_probe");
  quad_probe.socket.bind(quad.target_socket);
  std::vector<std::unique_ptr<engines::TileMemory>> alone;
  std::vector<std::unique_ptr<Probe>> alone_probes;
  for (unsigned pe = 0; pe < kPes; ++pe) {
    alone.push_back(std::make_unique<engines::TileMemory>(("alone" + std::to_string(pe)).c_str(), 1, 4, 65536, kTwoPorts, kClock));
    alone_probes.push_back(std::make_unique<Probe>(("alone_probe" + std::to_string(pe)).c_str()));
    alone_probes.back()->socket.bind(alone.back()->target_socket);
  }
  // Both sides trace their port activity into one VCD, compared instance by memory at the end.
  traces::VcdRecorder rec;
  for (unsigned pe = 0; pe < kPes; ++pe) {
    quad.trace_to(rec, pe, "quad.pe" + std::to_string(pe));
    alone[pe]->trace_to(rec, 0, "alone.pe" + std::to_string(pe));
  }
  const std::string vcd = "ptosim_" + std::to_string(getpid()) + "_mirror.vcd";
  REQUIRE(rec.open(vcd, "test", 0, ~std::uint64_t{0}));
  sc_core::sc_start(sc_core::SC_ZERO_TIME);

  // Starts every PE's streams now and books them, in two windows, into the four instances with one
  // train of PE 0's streams and placeholders for copies (left as the last round left them), and
  // into the four memories alone; both must come out the same.
  std::array<PeStreams, kPes> grouped, single;
  const auto round = [&](bool expect_mirrored) {
    const std::uint64_t now = sc_core::sc_time_stamp().value();
    std::vector<model::BurstStream*> groups;
    grouped[0].start(0, now);
    for (unsigned pe = 0; pe < kPes; ++pe) {
      single[pe].start(0, now);
      groups.push_back(&grouped[pe].read);
      groups.push_back(&grouped[pe].write);
    }
    engines::BurstTrain train;
    train.streams = groups.data();
    train.stream_count = groups.size();
    train.group_size = 2;
    train.burst_bytes = 128;
    train.copies = true;
    CHECK(quad.mirroring() == expect_mirrored);
    for (const std::uint64_t horizon : {now + 10 * 1000, ~std::uint64_t{0}}) {
      train.horizon = horizon;
      const sc_core::sc_time together = send_train(quad_probe, train, 0);
      CHECK(train.copies == expect_mirrored);
      sc_core::sc_time latest = sc_core::SC_ZERO_TIME;
      std::uint64_t booked = 0;
      for (unsigned pe = 0; pe < kPes; ++pe) {
        model::BurstStream* const streams[] = {&single[pe].read, &single[pe].write};
        engines::BurstTrain own;
        own.streams = streams;
        own.stream_count = 2;
        own.group_size = 2;
        own.burst_bytes = 128;
        own.horizon = horizon;
        latest = std::max(latest, send_train(*alone_probes[pe], own, 0));
        booked += own.booked_bytes;
      }
      CHECK(together == latest);
      CHECK(train.booked_bytes == booked);
    }
    for (unsigned pe = 0; pe < kPes; ++pe) {
      CAPTURE(pe);
      // Copies still placeholders stand where PE 0's streams do.
      const PeStreams& booked = train.copies ? grouped[0] : grouped[pe];
      CHECK(booked.read.finished());
      CHECK(booked.write.finished());
      CHECK(booked.read.pacer == single[pe].read.pacer);
      CHECK(booked.write.pacer == single[pe].write.pacer);
      const auto& a = quad.port_counts(pe);
      const auto& b = alone[pe]->port_counts(0);
      CHECK(a.accesses == b.accesses);
      CHECK(a.bank_conflicts == b.bank_conflicts);
      CHECK(a.wait_cycles == b.wait_cycles);
      CHECK(a.port_bytes == b.port_bytes);
      CHECK(a.port_busy_cycles == b.port_busy_cycles);
      CHECK(quad.bytes_read(pe) == alone[pe]->bytes_read(0));
      CHECK(quad.bytes_written(pe) == alone[pe]->bytes_written(0));
    }
  };
  const auto write_pe2 = [&](Probe& probe, std::uint64_t address) {
    std::uint8_t bytes[256] = {};
    tlm::tlm_generic_payload gp;
    prepare_write(gp, address, bytes, 256);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    probe.socket->b_transport(gp, delay);
    REQUIRE(gp.get_response_status() == tlm::TLM_OK_RESPONSE);
  };

  round(true);  // all alike from the start: instance 0 books for all
  CHECK(quad.port_counts(1).accesses > 0);
  // PE 2 alone writes while the first round's bursts still hold the ports: the instances part.
  write_pe2(quad_probe, 2 * quad.instance_bytes() + 3 * 65536);
  write_pe2(*alone_probes[2], 3 * 65536);
  CHECK_FALSE(quad.mirroring());
  sc_core::sc_start(sc_core::sc_time(5 * 1000, sc_core::SC_PS));
  round(false);
  CHECK_FALSE(quad.mirroring());  // PE 2's calendar still differs from the others'
  // Once every booking has ended, the instances are alike again and mirror from the next train.
  sc_core::sc_start(sc_core::sc_time(1000 * 1000, sc_core::SC_PS));
  round(false);
  CHECK(quad.mirroring());
  round(true);

  // Every instance's port activity changes exactly when its memory alone's does.
  sc_core::sc_start(sc_core::sc_time(2000 * 1000, sc_core::SC_PS));
  REQUIRE(rec.close(sc_core::sc_time_stamp().value()));
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::string>>> changes;  // by VCD code
  std::ifstream in(vcd);
  std::string line;
  std::uint64_t time = 0;
  while (std::getline(in, line)) {
    if (line.size() > 1 && line[0] == '#') time = std::stoull(line.substr(1));
    if (line.size() > 1 && line[0] == 'b') changes[line.substr(line.find(' ') + 1)].emplace_back(time, line.substr(0, line.find(' ')));
  }
  in.close();
  std::remove(vcd.c_str());
  const auto code_of = [&](const std::string& scope) {
    for (const auto& sig : rec.signals())
      if (sig.scope == scope) return sig.code;
    return std::string();
  };
  for (unsigned pe = 0; pe < kPes; ++pe) {
    CAPTURE(pe);
    const auto& mirrored = changes[code_of("quad.pe" + std::to_string(pe))];
    CHECK(mirrored.size() > 2);
    CHECK(mirrored == changes[code_of("alone.pe" + std::to_string(pe))]);
  }
}
