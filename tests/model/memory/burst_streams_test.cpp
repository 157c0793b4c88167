// SPDX-License-Identifier: BSD-3-Clause
// book_streams: concurrent streams book in their initiator's issue order, a transfer at a time, up
// to the horizon, and carry on from there.
#include <catch2/catch.hpp>

#include <tuple>
#include <vector>

#include "model/memory/burst_streams.h"

using namespace ptosim::model;

namespace {

struct Booked {
  bool write;
  std::uint64_t address, bytes, leaves;
  bool operator==(const Booked& o) const {
    return std::tie(write, address, bytes, leaves) == std::tie(o.write, o.address, o.bytes, o.leaves);
  }
};

// Books every burst as completing `latency` units after it leaves, and records it.
struct Recorder {
  std::vector<Booked> log;
  std::uint64_t latency = 0;
  std::uint64_t operator()(const BurstStream& s, std::uint64_t address, std::uint64_t bytes) {
    log.push_back({s.write, address, bytes, s.pacer.next_issue()});
    return s.pacer.next_issue() + latency;
  }
};

}  // namespace

TEST_CASE("Streams book a transfer at a time, the stream whose burst leaves first going first", "[memory]") {
  BurstStream read(BurstPacer(1, 4)), write(BurstPacer(1, 4));
  read.transfers = {{0, 300}, {1000, 100}};
  read.restart(0, 100);  // a 100-byte burst per cycle
  write.write = true;
  write.transfers = {{2000, 150}};
  write.restart(1, 50);
  BurstStream* const streams[] = {&read, &write};
  Recorder book;
  CHECK(book_streams(streams, 2, 100, ~std::uint64_t{0}, book).bytes == 550);
  // The read's first transfer in full (it leaves at 0, before the write at 1), then the write's
  // (at 1, before the read's next at 3), then the read's second transfer.
  const std::vector<Booked> expected{{false, 0, 100, 0},      {false, 100, 100, 1},  {false, 200, 100, 2},
                                     {true, 2000, 100, 1},    {true, 2100, 50, 3},   {false, 1000, 100, 3}};
  CHECK(book.log == expected);
  CHECK(read.finished());
  CHECK(write.finished());
}

TEST_CASE("A stream stops at the first burst beyond the horizon and carries on from there", "[memory]") {
  BurstStream read(BurstPacer(10, 1));
  read.transfers = {{0, 64}};
  read.restart(0, 8);  // an 8-byte burst per 10-unit cycle
  BurstStream* const streams[] = {&read};
  Recorder book;
  book.latency = 25;  // one request in flight: the next leaves when the last completes
  CHECK(book_streams(streams, 1, 8, 30, book).bytes == 16);  // leaves at 0 and 25; the next at 50
  CHECK(read.offset == 16);
  CHECK(read.pacer.next_issue() == 50);
  CHECK(book_streams(streams, 1, 8, 30, book).bytes == 0);  // nothing due yet
  CHECK(book_streams(streams, 1, 8, 100, book).bytes == 24);  // 50, 75 and 100
  CHECK(book.log.back().address == 32);
  CHECK(book_streams(streams, 1, 8, ~std::uint64_t{0}, book).bytes == 24);
  CHECK(read.finished());
  CHECK(book_streams(streams, 1, 8, ~std::uint64_t{0}, book).bytes == 0);
}

TEST_CASE("A burst has moved once the memory is done with it and its bytes have at the stream's rate", "[memory]") {
  BurstStream read(BurstPacer(1, 4));
  read.transfers = {{0, 150}};
  read.restart(10, 2);  // 2 bytes per unit
  BurstStream* const streams[] = {&read};
  Recorder book;
  book.latency = 5;  // a memory far faster than the stream
  const StreamsBooked fast = book_streams(streams, 1, 100, ~std::uint64_t{0}, book);
  CHECK(fast.bytes == 150);
  CHECK(fast.done == 10 + 75);  // the last burst (50 bytes) leaves at 60 and moves for 25 units
  read.restart(10, 2);
  book.latency = 200;  // a memory slower than the stream
  CHECK(book_streams(streams, 1, 100, ~std::uint64_t{0}, book).done == 60 + 200);
}
