// SPDX-License-Identifier: BSD-3-Clause
// RingQueue: first in, first out across wrap-around and growth; a popped item is released.
#include <catch2/catch.hpp>

#include <deque>
#include <memory>

#include "engines/dispatcher/ring_queue.h"

using ptosim::engines::RingQueue;

TEST_CASE("RingQueue keeps first-in first-out order as a deque does, through wrap-around and growth", "[ring]") {
  RingQueue<int> ring;
  std::deque<int> reference;
  int next = 0;
  // Occupancy rises and falls across the growth from 8 to 16 and 32 places, wrapping each time.
  for (const int target : {5, 2, 8, 1, 9, 3, 17, 0, 30, 4, 0}) {
    while (static_cast<int>(reference.size()) < target) {
      ring.push_back(next);
      reference.push_back(next++);
    }
    while (static_cast<int>(reference.size()) > target) {
      REQUIRE(ring.front() == reference.front());
      ring.pop_front();
      reference.pop_front();
    }
    CHECK(ring.size() == reference.size());
    CHECK(ring.empty() == reference.empty());
    if (!reference.empty()) CHECK(ring.front() == reference.front());
  }
}

TEST_CASE("RingQueue releases what it pops", "[ring]") {
  RingQueue<std::shared_ptr<int>> ring;
  const auto item = std::make_shared<int>(1);
  ring.push_back(item);
  CHECK(item.use_count() == 2);
  ring.pop_front();
  CHECK(item.use_count() == 1);
}
