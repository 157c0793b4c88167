// SPDX-License-Identifier: BSD-3-Clause
// BurstPacer: a stream's bursts leave at its rate, and wait for the request `outstanding` back.
#include <catch2/catch.hpp>

#include "model/memory/burst_pacer.h"

using ptosim::model::BurstPacer;

TEST_CASE("Bursts leave one per bytes / rate, rounded to the time unit", "[memory]") {
  BurstPacer p(10, 4);
  p.start(100, 3);  // 3 bytes per 10-unit cycle
  CHECK(p.next_issue() == 100);
  p.issued(8, 0);               // 8 / 3 cycles = 26.67 units
  CHECK(p.next_issue() == 127);
  p.issued(8, 0);
  CHECK(p.next_issue() == 154);
}

TEST_CASE("A burst waits for the completion of the request outstanding-requests back", "[memory]") {
  BurstPacer p(1, 2);
  p.start(0, 1);
  p.issued(1, 50);  // completes late
  CHECK(p.next_issue() == 1);  // one more may be in flight
  p.issued(1, 2);
  CHECK(p.next_issue() == 50);  // the first must complete before a third leaves
  p.issued(1, 51);
  CHECK(p.next_issue() == 51);
}

TEST_CASE("Restarting a stream forgets its requests in flight", "[memory]") {
  BurstPacer p(1, 1);
  p.start(0, 1);
  p.issued(1, 90);
  CHECK(p.next_issue() == 90);
  p.start(5, 2);
  CHECK(p.next_issue() == 5);
  p.issued(4, 0);
  CHECK(p.next_issue() == 7);
}

TEST_CASE("A burst has moved at the later of the memory's end and the clock edge after its bytes at the rate",
          "[memory]") {
  BurstPacer p(10, 4);
  p.start(100, 3);                 // 3 bytes per 10-unit cycle
  CHECK(p.issued(8, 110) == 130);  // 27 units of streaming, to 127: the edge after it, 130
  CHECK(p.next_issue() == 127);
  CHECK(p.issued(8, 200) == 200);  // the memory is later
  CHECK(p.issued(6, 170) == 180);  // from 154 for 20 units, to 174: the edge after it, 180
}
