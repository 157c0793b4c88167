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
  CHECK(one.counts().wait_cycles == 4);
  MemoryPortModel two(MemoryParams{16, 64, 2, 256, 0});
  CHECK(two.reserve(0, 0, 0, 1024).done == 4);
  CHECK(two.reserve(0, 0, 4096 + 64, 1024).done == 4);
  CHECK(two.counts().wait_cycles == 0);
}

TEST_CASE("A later booking can use an earlier gap in the calendar", "[memory]") {
  MemoryPortModel m(MemoryParams{16, 64, 1, 256, 0});
  CHECK(m.reserve(0, 100, 0, 512).start == 100);  // booked ahead (temporal decoupling)
  CHECK(m.reserve(0, 10, 0, 512).start == 10);    // fits before it
  CHECK(m.reserve(0, 99, 0, 512).start == 102);   // overlaps the first booking: after it
  CHECK(m.reserve(0, 50, 0, 512).start == 50);    // the gap between them is still free
  CHECK(m.reserve(0, 100, 0, 512).start == 104);  // [100, 104) is held
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
  CHECK(m.counts().bank_conflicts == 1);
  CHECK(m.counts().port_bytes[0] + m.counts().port_bytes[1] == 768);
}

TEST_CASE("An access that loses its bank looks again on every port, not only the one it lost it on", "[memory]") {
  MemoryPortModel m(MemoryParams{16, 64, 2, 256, 0});  // bank = (address / 64) mod 16
  CHECK(m.reserve(0, 1, 320, 256).port == 0);          // port 0 busy over [1, 2)
  CHECK(m.reserve(0, 1, 192, 1000 * 256).port == 1);   // port 1 busy over [1, 1001)
  CHECK(m.reserve(0, 0, 0, 256).start == 0);           // bank 0 on port 0 at cycle 0
  // Bank 0 again at cycle 0, on port 1: it loses the bank, and port 0 is free again at cycle 2,
  // long before port 1.
  const auto g = m.reserve(0, 0, 1024, 256);
  CHECK(g.bank_conflict);
  CHECK(g.port == 0);
  CHECK(g.start == 2);
}

TEST_CASE("A model that copies another's bookings and adds its counts stays its twin", "[memory]") {
  const MemoryParams params{16, 64, 2, 256, 3};
  MemoryPortModel leader(params), twin(params), booked(params);
  // The twin adds the leader's counts without booking; `booked` books the same accesses itself.
  const std::uint64_t accesses[][3] = {{0, 0, 1024}, {0, 0, 1024}, {0, 2, 64}, {1, 1, 4096}};
  booked.reserve(0, 0, 0, 512);  // counted before the twin follows the leader
  twin.reserve(0, 0, 0, 512);
  const MemoryPortModel::Counts from = leader.counts();
  for (const auto& a : accesses) {
    const auto g = leader.reserve(a[0], a[1], a[2], 256);
    const auto h = booked.reserve(a[0] + 5, a[1] + 5, a[2], 256);  // after its own booking has ended
    CHECK(h.start == g.start + 5);
    CHECK(h.port == g.port);
  }
  twin.add_counts(from, leader.counts());
  CHECK(twin.counts().accesses == booked.counts().accesses);
  CHECK(twin.counts().bank_conflicts == booked.counts().bank_conflicts);
  CHECK(twin.counts().wait_cycles == booked.counts().wait_cycles);
  CHECK(twin.counts().port_bytes == booked.counts().port_bytes);
  CHECK(twin.counts().port_busy_cycles == booked.counts().port_busy_cycles);
  CHECK_FALSE(twin.same_bookings_from(0, leader));  // the twin's own [0, 2) booking
  twin.copy_bookings(leader);
  CHECK(twin.same_bookings_from(0, leader));
  CHECK(twin.reserve(1, 1, 0, 256).start == leader.reserve(1, 1, 0, 256).start);
}

TEST_CASE("Bookings that ended before now do not tell two models apart, later ones do", "[memory]") {
  const MemoryParams params{16, 64, 1, 256, 0};
  MemoryPortModel a(params), b(params);
  a.reserve(0, 0, 0, 1024);    // [0, 4)
  a.reserve(0, 10, 0, 256);    // [10, 11)
  b.reserve(0, 10, 0, 256);
  CHECK_FALSE(a.same_bookings_from(3, b));  // [0, 4) can still delay an access arriving at 3
  CHECK(a.same_bookings_from(4, b));
  CHECK(a.reserve(4, 9, 0, 512).start == b.reserve(4, 9, 0, 512).start);  // both wait for [10, 11)
  b.reserve(4, 20, 0, 256);
  CHECK_FALSE(a.same_bookings_from(4, b));
}
