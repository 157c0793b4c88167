// SPDX-License-Identifier: BSD-3-Clause
// VcdRecorder: change-driven VCD bodies (an instant's changes together, changes scheduled ahead,
// additions to counts), times at every length, and the time window that keeps long traces small.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include "tests/traces/trace_file.h"
#include "traces/vcd_recorder.h"

using ptosim::test::TraceFile;
using ptosim::traces::VcdRecorder;
using Threading = VcdRecorder::Threading;

namespace {

constexpr std::uint64_t kForever = ~std::uint64_t{0};

}  // namespace

TEST_CASE("VcdRecorder: a windowed trace opens with the values from before the window", "[traces]") {
  const auto threading = GENERATE(Threading::InLine, Threading::OwnThread);
  const TraceFile file("window");
  VcdRecorder rec(threading);
  const int x = rec.declare("top.a", "x", VcdRecorder::width_for(7));
  REQUIRE(rec.open(file.path, "test", 100, 1000));
  rec.change(x, 5, 50);    // before the window: becomes the initial value
  rec.change(x, 7, 200);   // the first change inside the window shows at 200, not at 100
  rec.change(x, 1, 2000);  // after the window: dropped
  CHECK(rec.close(3000));
  CHECK(file.body() == "#100\n$dumpvars\nb101 !\n$end\n#200\nb111 !\n#1000\n");
}

TEST_CASE("VcdRecorder: the changes at the window's start are its initial values, one value an instant", "[traces]") {
  const auto threading = GENERATE(Threading::InLine, Threading::OwnThread);
  const auto begin = GENERATE(std::uint64_t{0}, std::uint64_t{100});
  const TraceFile file("start");
  VcdRecorder rec(threading);
  const int x = rec.declare("top.a", "x", 3);
  const int y = rec.declare("top.a", "y", 1);
  REQUIRE(rec.open(file.path, "test", begin, kForever));
  rec.change(x, 5, begin);
  rec.change(y, 1, begin);
  rec.change(x, 7, begin + 10);
  CHECK(rec.close(begin + 20));
  const std::string b = std::to_string(begin);
  CHECK(file.body() == "#" + b + "\n$dumpvars\nb101 !\n1\"\n$end\n#" + std::to_string(begin + 10) + "\nb111 !\n#" +
                           std::to_string(begin + 20) + "\n");
}

TEST_CASE("VcdRecorder: signal widths cover their largest value", "[traces]") {
  CHECK(VcdRecorder::width_for(0) == 1);
  CHECK(VcdRecorder::width_for(1) == 1);
  CHECK(VcdRecorder::width_for(4) == 3);
  CHECK(VcdRecorder::width_for(255) == 8);
  CHECK(VcdRecorder::width_for(4097) == 13);
}

TEST_CASE("VcdRecorder: the changes of one time show their last value, and nothing if it is the old one", "[traces]") {
  const auto threading = GENERATE(Threading::InLine, Threading::OwnThread);
  const TraceFile file("coalesce");
  VcdRecorder rec(threading);
  const int x = rec.declare("top.a", "x", 3);
  const int y = rec.declare("top.a", "y", 1);
  REQUIRE(rec.open(file.path, "test", 0, kForever));
  rec.change(x, 5, 10);
  rec.change(x, 2, 10);  // the value x shows at 10
  rec.change(y, 1, 10);
  rec.change(y, 0, 10);  // back to what y was: no line
  rec.change(x, 1, 20);
  CHECK(rec.close(30));
  CHECK(file.body() == "#0\n$dumpvars\nb0 !\n0\"\n$end\n#10\nb10 !\n#20\nb1 !\n#30\n");
}

TEST_CASE("VcdRecorder: a change scheduled ahead shows at its time unless a change made then overrides it", "[traces]") {
  const auto threading = GENERATE(Threading::InLine, Threading::OwnThread);
  const TraceFile file("schedule");
  VcdRecorder rec(threading);
  const int x = rec.declare("top.a", "x", 3);
  const int y = rec.declare("top.a", "y", 1);
  REQUIRE(rec.open(file.path, "test", 0, kForever));
  rec.change(x, 1, 10);
  rec.schedule(x, 4, 50);
  rec.schedule(y, 1, 30);
  rec.schedule(y, 0, 60);
  rec.change(x, 2, 40);  // y's change at 30 is written first
  rec.change(x, 7, 50);  // made at 50: it overrides the 4 scheduled for then
  CHECK(rec.close(70));         // y's change at 60 is written on closing
  CHECK(file.body() == "#0\n$dumpvars\nb0 !\n0\"\n$end\n#10\nb1 !\n#30\n1\"\n#40\nb10 !\n#50\nb111 !\n#60\n0\"\n#70\n");
}

TEST_CASE("VcdRecorder: additions scheduled ahead keep counts exact in any order of booking", "[traces]") {
  const auto threading = GENERATE(Threading::InLine, Threading::OwnThread);
  // Two memories' port activity: bookings of both (while they mirror) and of the first alone, made
  // out of time order; one ends where the next starts.
  const TraceFile file("add");
  VcdRecorder rec(threading);
  const int a = rec.declare("top.a", "x", 2), b = rec.declare("top.b", "x", 2);
  const int both = rec.declare_group(), first = rec.declare_group();
  rec.join(both, a);
  rec.join(both, b);
  rec.join(first, a);
  REQUIRE(rec.open(file.path, "test", 0, kForever));
  rec.add_at(both, 1, 40);  // [40, 50) for both
  rec.add_at(both, -1, 50);
  rec.add_at(first, 1, 20);  // [20, 30) for the first
  rec.add_at(first, -1, 30);
  rec.add_at(both, 1, 10);  // [10, 40) for both
  rec.add_at(both, -1, 40);
  CHECK(rec.close(60));
  CHECK(file.body() == "#0\n$dumpvars\nb0 !\nb0 \"\n$end\n#10\nb1 !\nb1 \"\n#20\nb10 !\n#30\nb1 !\n#50\nb0 !\nb0 \"\n#60\n");
}

TEST_CASE("VcdRecorder: a signal set and added to in one instant shows once, with its last value", "[traces]") {
  const auto threading = GENERATE(Threading::InLine, Threading::OwnThread);
  const TraceFile file("set_and_add");
  VcdRecorder rec(threading);
  const int x = rec.declare("top.a", "x", 4), y = rec.declare("top.b", "x", 4);
  const int both = rec.declare_group();
  rec.join(both, x);
  rec.join(both, y);
  REQUIRE(rec.open(file.path, "test", 0, kForever));
  rec.change(x, 3, 10);
  rec.add_at(both, 1, 10);  // x 4, y 1
  rec.add_at(both, 2, 20);
  rec.change(y, 5, 20);  // x 6, y 5
  rec.add_at(both, 1, 30);
  rec.add_at(both, -1, 30);  // nothing
  rec.change(x, 1, 40);
  rec.add_at(both, 4, 40);  // x 5, y 9
  rec.change(x, 6, 40);     // back to what was written: x shows nothing
  CHECK(rec.close(50));
  CHECK(file.body() ==
        "#0\n$dumpvars\nb0 !\nb0 \"\n$end\n#10\nb100 !\nb1 \"\n#20\nb110 !\nb101 \"\n#40\nb1001 \"\n#50\n");
}

TEST_CASE("VcdRecorder: closing says whether every write succeeded", "[traces]") {
  const auto threading = GENERATE(Threading::InLine, Threading::OwnThread);
  {
    const TraceFile file("written");
    VcdRecorder rec(threading);
    const int x = rec.declare("top.a", "x", 1);
    REQUIRE(rec.open(file.path, "test", 0, kForever));
    rec.change(x, 1, 10);
    CHECK(rec.close(20));
  }
  // Writes fail as the buffer fills (on the writer's thread, where it has one) and on closing.
  VcdRecorder rec(threading);
  const int x = rec.declare("top.a", "x", 1);
  REQUIRE(rec.open("/dev/full", "test", 0, kForever));  // opens; every write fails
  for (std::uint64_t t = 1; t <= 20'000; ++t) rec.change(x, t % 2, t);
  CHECK_FALSE(rec.close(20'001));
}

TEST_CASE("VcdRecorder: signals are declared and the output opened once, before any report", "[traces]") {
  const TraceFile file("misuse");
  VcdRecorder rec(Threading::OwnThread);
  const int group = rec.declare_group();
  rec.declare("top.a", "x", 1);
  REQUIRE(rec.open(file.path, "test", 0, kForever));
  CHECK_THROWS_AS(rec.declare("top.a", "y", 1), std::logic_error);
  CHECK_THROWS_AS(rec.declare_group(), std::logic_error);
  CHECK_THROWS_AS(rec.join(group, 0), std::logic_error);
  CHECK_THROWS_AS(rec.open(file.path, "test", 0, kForever), std::logic_error);
  CHECK(rec.close(10));
}

TEST_CASE("VcdRecorder: a signal of unknown start shows x until it is first set, zero included", "[traces]") {
  const auto threading = GENERATE(Threading::InLine, Threading::OwnThread);
  const auto begin = GENERATE(std::uint64_t{0}, std::uint64_t{100});
  const TraceFile file("unknown");
  VcdRecorder rec(threading);
  const int id = rec.declare("top.a", "id", 8, VcdRecorder::Start::Unknown);
  const int bit = rec.declare("top.a", "bit", 1, VcdRecorder::Start::Unknown);
  const int known = rec.declare("top.a", "known", 8, VcdRecorder::Start::Unknown);
  CHECK(rec.start_value(id) == ptosim::traces::VcdWriter::kUnknown);
  REQUIRE(rec.open(file.path, "test", begin, kForever));
  rec.change(known, 3, 50);  // before a window at 100: its initial value
  rec.change(id, 0, 200);    // zero is a change from unknown
  rec.change(bit, 0, 300);
  CHECK(rec.close(400));
  const std::string known_start = begin == 0 ? "bx #\n" : "b11 #\n";
  const std::string known_change = begin == 0 ? "#50\nb11 #\n" : "";
  CHECK(file.body() == "#" + std::to_string(begin) + "\n$dumpvars\nbx !\nx\"\n" + known_start + "$end\n" + known_change +
                           "#200\nb0 !\n#300\n0\"\n#400\n");
}

TEST_CASE("VcdRecorder: a signal of unknown start is narrower than 64 bits and joins no group", "[traces]") {
  VcdRecorder rec(Threading::InLine);
  CHECK_THROWS_AS(rec.declare("top.a", "wide", 64, VcdRecorder::Start::Unknown), std::invalid_argument);
  const int id = rec.declare("top.a", "id", 63, VcdRecorder::Start::Unknown);
  const int group = rec.declare_group();
  CHECK_THROWS_AS(rec.join(group, id), std::invalid_argument);
}

TEST_CASE("VcdRecorder: times are written in decimal at every length", "[traces]") {
  const auto threading = GENERATE(Threading::InLine, Threading::OwnThread);
  const TraceFile file("times");
  VcdRecorder rec(threading);
  const int x = rec.declare("top.a", "x", 1);
  REQUIRE(rec.open(file.path, "test", 0, kForever));
  const std::uint64_t times[] = {7,           10,          99,          100,         1'000,
                                 12'345'678,  99'999'999,  100'000'000, 100'000'001, 1'203'456'789'012,
                                 9'999'999'999'999'999, 10'000'000'000'000'000, ~std::uint64_t{0} - 1};
  std::string expected = "#0\n$dumpvars\n0!\n$end\n";
  std::uint64_t value = 0;
  for (const std::uint64_t t : times) {
    value ^= 1;
    rec.change(x, value, t);
    expected += "#" + std::to_string(t) + "\n" + std::to_string(value) + "!\n";
  }
  CHECK(rec.close(~std::uint64_t{0}));
  expected += "#" + std::to_string(~std::uint64_t{0}) + "\n";
  CHECK(file.body() == expected);
}

TEST_CASE("VcdRecorder: a queue of changes scheduled ahead that never empties keeps its order", "[traces]") {
  const auto threading = GENERATE(Threading::InLine, Threading::OwnThread);
  // Each step schedules a change 100 steps ahead, so about 100 wait at any time, and the queue's
  // taken front is dropped now and then. The reports are all made before the expected text is
  // built, so the simulation runs ahead of a writer on its own thread: a hundred blocks, more than
  // may wait at once, which keep their order.
  const TraceFile file("long_queue");
  VcdRecorder rec(threading);
  const int x = rec.declare("top.a", "x", 16);
  const int y = rec.declare("top.a", "y", 1);
  REQUIRE(rec.open(file.path, "test", 0, kForever));
  constexpr std::uint64_t kAhead = 100, kSteps = 200'000, kEnd = kSteps + 2 * kAhead;
  for (std::uint64_t t = 1; t <= kSteps; ++t) {
    rec.change(y, t % 2, t);
    rec.schedule(x, t, t + kAhead);
  }
  CHECK(rec.close(kEnd));
  const auto binary = [](std::uint64_t v) {
    std::string bits;
    for (; v != 0; v >>= 1) bits.insert(bits.begin(), static_cast<char>('0' + (v & 1)));
    return bits;
  };
  std::string expected = "#0\n$dumpvars\nb0 !\n0\"\n$end\n";
  for (std::uint64_t t = 1; t <= kSteps + kAhead; ++t) {
    expected += "#" + std::to_string(t) + "\n";
    if (t > kAhead) expected += "b" + binary(t - kAhead) + " !\n";  // taken as time reaches it, first
    if (t <= kSteps) expected += std::to_string(t % 2) + "\"\n";
  }
  expected += "#" + std::to_string(kEnd) + "\n";
  CHECK(file.body() == expected);
}

TEST_CASE("VcdRecorder: a recorder left open stops its writer when destroyed", "[traces]") {
  const auto threading = GENERATE(Threading::InLine, Threading::OwnThread);
  // A run that fails never closes its trace: destroying the recorder must neither hang nor crash,
  // however many reports are still on their way (they are dropped).
  const TraceFile file("left_open");
  {
    VcdRecorder rec(threading);
    const int x = rec.declare("top.a", "x", 8);
    REQUIRE(rec.open(file.path, "test", 0, kForever));
    for (std::uint64_t t = 1; t <= 100'000; ++t) rec.change(x, t % 256, t);
  }
  const std::string body = file.body();  // the header whole, and as much of the body as was written
  CHECK((body.empty() || body.rfind("#0\n$dumpvars\n", 0) == 0));
}

TEST_CASE("VcdRecorder: a window with no change inside opens with the values from before it", "[traces]") {
  const auto threading = GENERATE(Threading::InLine, Threading::OwnThread);
  {
    const TraceFile file("window_quiet");
    VcdRecorder rec(threading);
    const int x = rec.declare("top.a", "x", 3);
    REQUIRE(rec.open(file.path, "test", 100, 1000));
    rec.change(x, 5, 50);    // before: the initial value
    rec.change(x, 1, 2000);  // after: dropped, not the initial value
    CHECK(rec.close(3000));
    CHECK(file.body() == "#100\n$dumpvars\nb101 !\n$end\n#1000\n");
  }
  {
    // Changes scheduled or added ahead fold, show or drop alike.
    const TraceFile file("window_ahead");
    VcdRecorder rec(threading);
    const int x = rec.declare("top.a", "x", 3);
    const int y = rec.declare("top.a", "y", 2);
    const int ys = rec.declare_group();
    rec.join(ys, y);
    REQUIRE(rec.open(file.path, "test", 100, 1000));
    rec.add_at(ys, 1, 50);
    rec.add_at(ys, -1, 2000);
    rec.schedule(x, 3, 500);
    rec.schedule(x, 6, 1500);
    CHECK(rec.close(3000));
    CHECK(file.body() == "#100\n$dumpvars\nb0 !\nb1 \"\n$end\n#500\nb11 !\n#1000\n");
  }
}

TEST_CASE("VcdRecorder: changes scheduled or added for the current time count as made now, in order", "[traces]") {
  const auto threading = GENERATE(Threading::InLine, Threading::OwnThread);
  const TraceFile file("now");
  VcdRecorder rec(threading);
  const int x = rec.declare("top.a", "x", 3);
  const int y = rec.declare("top.a", "y", 3);
  const int ys = rec.declare_group();
  rec.join(ys, y);
  REQUIRE(rec.open(file.path, "test", 0, kForever));
  rec.change(x, 1, 10);
  rec.schedule(x, 2, 10);  // made after the change: it shows
  rec.add_at(ys, 3, 10);
  rec.schedule(y, 4, 5);   // a time already passed: as of now, after the addition
  rec.change(x, 5, 20);
  rec.schedule(x, 6, 20);
  rec.change(x, 7, 20);  // made last: it shows
  CHECK(rec.close(30));
  CHECK(file.body() == "#0\n$dumpvars\nb0 !\nb0 \"\n$end\n#10\nb10 !\nb100 \"\n#20\nb111 !\n#30\n");
}

TEST_CASE("VcdRecorder: additions ahead are not merged across a value set at the same time", "[traces]") {
  const auto threading = GENERATE(Threading::InLine, Threading::OwnThread);
  const TraceFile file("add_set");
  VcdRecorder rec(threading);
  const int x = rec.declare("top.a", "x", 4);
  const int xs = rec.declare_group();
  rec.join(xs, x);
  REQUIRE(rec.open(file.path, "test", 0, kForever));
  rec.add_at(xs, 1, 50);
  rec.schedule(x, 5, 50);  // overrides the addition before it
  rec.add_at(xs, 1, 50);   // applies to the 5
  rec.add_at(xs, 1, 50);   // merges with the addition just before it
  CHECK(rec.close(60));
  CHECK(file.body() == "#0\n$dumpvars\nb0 !\n$end\n#50\nb111 !\n#60\n");
}

TEST_CASE("VcdRecorder: wide values over many buffer flushes", "[traces]") {
  const auto threading = GENERATE(Threading::InLine, Threading::OwnThread);
  const TraceFile file("wide");
  VcdRecorder rec(threading);
  const int x = rec.declare("top.a", "x", 64);
  REQUIRE(rec.open(file.path, "test", 0, kForever));
  std::string expected = "#0\n$dumpvars\nb0 !\n$end\n";
  std::uint64_t value = 0x8000000000000001ULL;
  for (std::uint64_t t = 1; t <= 12000; ++t) {  // about 870 KB of body: three flushes of the buffer
    value = value * 6364136223846793005ULL + 1442695040888963407ULL;
    rec.change(x, value, t);
    std::string bits;
    for (std::uint64_t v = value; v != 0; v >>= 1) bits.insert(bits.begin(), static_cast<char>('0' + (v & 1)));
    expected += "#" + std::to_string(t) + "\nb" + (bits.empty() ? "0" : bits) + " !\n";
  }
  CHECK(rec.close(12000));
  CHECK(file.body() == expected);
}
