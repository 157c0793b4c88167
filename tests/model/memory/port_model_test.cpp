// SPDX-License-Identifier: BSD-3-Clause
// MemoryPortModel: occupancy, port calendars under out-of-order bookings, bank conflicts.
#include <catch2/catch.hpp>

#include "model/memory/port_model.h"

using ptosim::model::MemoryParams;
using ptosim::model::MemoryPortModel;

TEST_CASE("An access holds a port for bytes / bandwidth cycles, then pays the latency", "[memory]") {
  MemoryPortModel m(MemoryParams{16, 64, 1, 256, 2});
  CHECK(m.occupancy(1) == 1);
  CHECK(m.occupancy(256) == 1);
  CHECK(m.occupancy(257) == 2);
  const auto g = m.reserve(0, 10, 0, 1024);
  CHECK(g.start == 10);
  CHECK(g.done == 10 + 4 + 2);
  CHECK_FALSE(g.bank_conflict);
}

TEST_CASE("One port serialises overlapping accesses, a second port runs them side by side", "[memory]") {
  MemoryPortModel one(MemoryParams{16, 64, 1, 256, 0});
  CHECK(one.reserve(0, 0, 0, 1024).done == 4);
  CHECK(one.reserve(0, 0, 4096, 1024).done == 8);  // waited 4 cycles for the port
  CHECK(one.wait_cycles() == 4);
  MemoryPortModel two(MemoryParams{16, 64, 2, 256, 0});
  CHECK(two.reserve(0, 0, 0, 1024).done == 4);
  CHECK(two.reserve(0, 0, 4096 + 64, 1024).done == 4);
  CHECK(two.wait_cycles() == 0);
}

TEST_CASE("A later booking can use an earlier gap in the calendar", "[memory]") {
  MemoryPortModel m(MemoryParams{16, 64, 1, 256, 0});
  CHECK(m.reserve(0, 100, 0, 512).start == 100);  // booked ahead (temporal decoupling)
  CHECK(m.reserve(0, 10, 0, 512).start == 10);    // fits before it
  CHECK(m.reserve(0, 99, 0, 512).start == 102);   // overlaps the first booking: after it
  CHECK(m.active_at(100) == 1);
  CHECK(m.active_at(50) == 0);
}

TEST_CASE("Two accesses starting together in one bank conflict, the later loses a cycle", "[memory]") {
  MemoryPortModel m(MemoryParams{16, 64, 2, 256, 0});
  const auto a = m.reserve(0, 0, 0, 256);
  const auto b = m.reserve(0, 0, 16 * 64, 256);  // same bank (0) on the other port
  CHECK_FALSE(a.bank_conflict);
  CHECK(b.bank_conflict);
  CHECK(b.start == 1);
  const auto c = m.reserve(0, 5, 64, 256);  // bank 1: no conflict
  CHECK_FALSE(c.bank_conflict);
  CHECK(m.bank_conflicts() == 1);
  CHECK(m.port_bytes()[0] + m.port_bytes()[1] == 768);
}
