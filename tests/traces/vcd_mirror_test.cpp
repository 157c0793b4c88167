// SPDX-License-Identifier: BSD-3-Clause
// Mirror groups: signals that change alike through one group are written as one (one code in the
// header, one line per change) for as long as nothing else changes them; once something does, the
// trace is the one a plain group would have given, byte for byte.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "tests/traces/trace_file.h"
#include "traces/vcd_recorder.h"

using ptosim::test::TraceFile;
using ptosim::traces::VcdRecorder;
using Threading = VcdRecorder::Threading;

namespace {

constexpr std::uint64_t kForever = ~std::uint64_t{0};

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Three memory instances' port counts (a mirror group over them, and a group each), and a signal
/// of another module declared before and after them.
struct Instances {
  int before, after;
  int counts[3];
  int all, own[3];
  Instances(VcdRecorder& rec, bool mirror) {
    before = rec.declare("top.d", "state", 4);
    for (int i = 0; i < 3; ++i) counts[i] = rec.declare("top.m" + std::to_string(i), "active_ports", 2);
    after = rec.declare("top.e", "busy", 1);
    all = rec.declare_group(mirror);
    for (int i = 0; i < 3; ++i) {
      own[i] = rec.declare_group();
      rec.join(own[i], counts[i]);
      rec.join(all, counts[i]);
    }
  }
};

/// Writes a trace whose instances are one until instance `parting`'s own group changes at 30,
/// after a line of each (written before they part).
void part_at_30(const std::string& path, bool mirror, int parting) {
  VcdRecorder rec;
  const Instances m(rec, mirror);
  REQUIRE(rec.open(path, "test", 0, kForever));
  rec.add_at(m.all, 1, 10);
  rec.change(m.before, 1, 20);
  rec.add_at(m.own[parting], 1, 30);
  CHECK(rec.close(40));
  rec.change(m.counts[1], 3, 50);  // after close: to the writer directly, which writes nothing more
}

}  // namespace

TEST_CASE("VcdRecorder: a mirror group changed by itself alone is one signal under each member's name", "[traces]") {
  const auto threading = GENERATE(Threading::InLine, Threading::OwnThread);
  const TraceFile file("mirror_one");
  VcdRecorder rec(threading);
  const Instances m(rec, true);
  REQUIRE(rec.open(file.path, "test", 0, kForever));
  rec.add_at(m.all, 1, 10);  // [10, 30) and [20, 40) on every instance
  rec.add_at(m.all, -1, 30);
  rec.add_at(m.all, 1, 20);
  rec.add_at(m.all, -1, 40);
  rec.change(m.after, 1, 15);
  rec.change(m.before, 3, 25);
  CHECK(rec.close(50));
  const std::string text = slurp(file.path);
  // Every instance's variable is named by the first's code.
  for (int i = 0; i < 3; ++i)
    CHECK(text.find("$scope module m" + std::to_string(i) + " $end\n$var wire 2 \" active_ports [1:0] $end\n") != std::string::npos);
  CHECK(file.body() == "#0\n$dumpvars\nb0 !\nb0 \"\n0%\n$end\n#10\nb1 \"\n#15\n1%\n#20\nb10 \"\n#25\nb11 !\n#30\nb1 \"\n#40\nb0 \"\n#50\n");
}

TEST_CASE("VcdRecorder: a mirror group parted by any other change gives the trace of a plain group", "[traces]") {
  const auto threading = GENERATE(Threading::InLine, Threading::OwnThread);
  // How the members part, if at all: an instance's own group (the first's or another's), a value
  // set on a member, a value scheduled ahead on one.
  const int parting = GENERATE(range(0, 5));
  const std::uint64_t window_begin = GENERATE(std::uint64_t{0}, std::uint64_t{400});
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto trace = [&](bool mirror) {
      const TraceFile file(std::string("mirror_part_") + (mirror ? "m" : "p") + std::to_string(seed));
      VcdRecorder rec(threading);
      const Instances m(rec, mirror);
      REQUIRE(rec.open(file.path, "test", window_begin, kForever));
      // Bookings of all instances ahead of time, a module's changes now; somewhere in the run the
      // parting change, then more of both.
      std::uint64_t state = seed, now = 0;
      const auto next = [&](std::uint64_t n) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return (state >> 33) % n;
      };
      const auto part_step = static_cast<int>(4 + next(180));
      const bool part_last = seed % 2 == 0;  // after the step's other changes of the same time
      const auto part = [&] {
        const int k = static_cast<int>(next(3));
        switch (parting) {
          case 0: break;  // never: compared below on its own
          case 1: rec.add_at(m.own[0], 1, now + next(20)), rec.add_at(m.own[0], -1, now + 20 + next(20)); break;
          case 2: rec.add_at(m.own[k], 1, now), rec.add_at(m.own[k], -1, now + 5 + next(30)); break;
          case 3: rec.change(m.counts[k], 3, now); break;
          default: rec.schedule(m.counts[k], 2, now + next(30)); break;
        }
      };
      for (int step = 0; step < 200; ++step) {
        now += next(3) * 5;
        if (step == part_step && !part_last) part();
        const std::uint64_t start = now + next(40);
        rec.add_at(m.all, 1, start);
        rec.add_at(m.all, -1, start + 1 + next(50));
        if (next(2)) rec.change(m.before, next(16), now);
        if (next(3) == 0) rec.change(m.after, next(2), now);
        if (step == part_step && part_last) part();
      }
      CHECK(rec.close(now + 100));
      return slurp(file.path);
    };
    const std::string mirrored = trace(true), plain = trace(false);
    INFO("seed " << seed << ", parting " << parting << ", window from " << window_begin);
    if (parting != 0) {
      CHECK(mirrored == plain);
    } else {
      // One code for all instances; the body without the others' lines.
      CHECK(mirrored.size() < plain.size());
      std::string without;
      std::istringstream lines(plain.substr(plain.find("$enddefinitions")));
      for (std::string line; std::getline(lines, line);)
        if (line.size() < 3 || (line.substr(line.size() - 2) != " #" && line.substr(line.size() - 2) != " $")) without += line + "\n";
      CHECK(mirrored.substr(mirrored.find("$enddefinitions")) == without);
    }
  }
}

TEST_CASE("VcdRecorder: a mirror group is a plain one where its members cannot be one", "[traces]") {
  const TraceFile file("mirror_plain");
  SECTION("members declared apart") {
    VcdRecorder rec;
    const int a = rec.declare("top.a", "x", 2), between = rec.declare("top.b", "y", 2), c = rec.declare("top.c", "x", 2);
    const int all = rec.declare_group(true);
    rec.join(all, a);
    rec.join(all, c);
    REQUIRE(rec.open(file.path, "test", 0, kForever));
    rec.add_at(all, 1, 10);
    rec.change(between, 1, 10);
    CHECK(rec.close(20));
    CHECK(file.body() == "#0\n$dumpvars\nb0 !\nb0 \"\nb0 #\n$end\n#10\nb1 !\nb1 #\nb1 \"\n#20\n");
  }
  SECTION("no members, or one") {
    VcdRecorder rec;
    const int a = rec.declare("top.a", "x", 2);
    rec.declare_group(true);
    const int alone = rec.declare_group(true);
    rec.join(alone, a);
    REQUIRE(rec.open(file.path, "test", 0, kForever));
    rec.add_at(alone, 1, 10);
    CHECK(rec.close(20));
    CHECK(file.body() == "#0\n$dumpvars\nb0 !\n$end\n#10\nb1 !\n#20\n");
  }
  SECTION("members of different widths") {
    VcdRecorder rec;
    const int a = rec.declare("top.a", "x", 2), b = rec.declare("top.b", "x", 3);
    const int all = rec.declare_group(true);
    rec.join(all, a);
    rec.join(all, b);
    REQUIRE(rec.open(file.path, "test", 0, kForever));
    rec.add_at(all, 1, 10);
    CHECK(rec.close(20));
    CHECK(file.body() == "#0\n$dumpvars\nb0 !\nb0 \"\n$end\n#10\nb1 !\nb1 \"\n#20\n");
  }
  SECTION("an output that cannot be read back (a pipe)") {
    const std::string fifo = file.path + ".fifo";
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    std::string read;
    std::thread reader([&] { read = slurp(fifo); });
    {
      VcdRecorder rec;
      const Instances m(rec, true);
      REQUIRE(rec.open(fifo, "test", 0, kForever));
      rec.add_at(m.all, 1, 10);
      CHECK(rec.close(20));
    }
    reader.join();
    std::remove(fifo.c_str());
    CHECK(read.find("$var wire 2 \" active_ports") != std::string::npos);
    CHECK(read.find("$var wire 2 # active_ports") != std::string::npos);
    CHECK(read.substr(read.find("#10\n")) == "#10\nb1 \"\nb1 #\nb1 $\n#20\n");
  }
}

TEST_CASE("VcdRecorder: a mirror that cannot be parted, its output gone, fails the close", "[traces]") {
  const auto threading = GENERATE(Threading::InLine, Threading::OwnThread);
  const TraceFile file("mirror_gone");
  VcdRecorder rec(threading);
  const Instances m(rec, true);
  REQUIRE(rec.open(file.path, "test", 0, kForever));
  rec.add_at(m.all, 1, 10);
  rec.change(m.before, 1, 20);
  REQUIRE(std::remove(file.path.c_str()) == 0);  // the lines so far cannot be read back
  rec.add_at(m.own[1], 1, 30);
  CHECK_FALSE(rec.close(40));
}

TEST_CASE("VcdRecorder: of two mirror groups, one parts and the other stays one", "[traces]") {
  const auto threading = GENERATE(Threading::InLine, Threading::OwnThread);
  const TraceFile file("mirror_two");
  VcdRecorder rec(threading);
  const int a0 = rec.declare("top.a0", "n", 2), a1 = rec.declare("top.a1", "n", 2);
  const int b0 = rec.declare("top.b0", "n", 2), b1 = rec.declare("top.b1", "n", 2);
  const int as = rec.declare_group(true), bs = rec.declare_group(true), b1_alone = rec.declare_group();
  rec.join(as, a0);
  rec.join(as, a1);
  rec.join(bs, b0);
  rec.join(bs, b1);
  rec.join(b1_alone, b1);
  REQUIRE(rec.open(file.path, "test", 0, kForever));
  rec.add_at(as, 1, 10);
  rec.add_at(bs, 1, 10);
  rec.add_at(b1_alone, 1, 20);  // parts the b's
  rec.add_at(as, 1, 30);
  CHECK(rec.close(40));
  const std::string text = slurp(file.path);
  CHECK(text.find("$scope module a1 $end\n$var wire 2 ! n [1:0] $end\n") != std::string::npos);
  CHECK(text.find("$scope module b1 $end\n$var wire 2 $ n [1:0] $end\n") != std::string::npos);
  CHECK(file.body() == "#0\n$dumpvars\nb0 !\nb0 #\nb0 $\n$end\n#10\nb1 !\nb1 #\nb1 $\n#20\nb10 $\n#30\nb10 !\n#40\n");
}

TEST_CASE("VcdRecorder: parting a mirror rewrites the file a symbolic link names, not the link", "[traces]") {
  const TraceFile target("mirror_target"), link("mirror_link"), plain("mirror_plain_ref");
  REQUIRE(symlink(target.path.c_str(), link.path.c_str()) == 0);
  part_at_30(link.path, true, 1);
  struct stat st {};
  REQUIRE(lstat(link.path.c_str(), &st) == 0);
  CHECK(S_ISLNK(st.st_mode));
  part_at_30(plain.path, false, 1);
  CHECK(slurp(target.path) == slurp(plain.path));
}

TEST_CASE("VcdRecorder: members changed apart before the output opens are no mirror", "[traces]") {
  const auto threading = GENERATE(Threading::InLine, Threading::OwnThread);
  const TraceFile file("mirror_before_open");
  VcdRecorder rec(threading);
  const Instances m(rec, true);
  rec.change(m.counts[1], 2, 0);  // before the output opens: to the writer directly
  rec.change(m.counts[0], 0, 5);
  REQUIRE(rec.open(file.path, "test", 0, kForever));
  rec.add_at(m.all, 1, 10);
  CHECK(rec.close(20));
  CHECK(file.body() == "#0\n$dumpvars\nb0 !\nb0 \"\nb10 #\nb0 $\n0%\n$end\n#10\nb1 \"\nb11 #\nb1 $\n#20\n");
}

TEST_CASE("VcdRecorder: a parting temporary is never a file or link that exists, and a report after close writes nothing", "[traces]") {
  const TraceFile file("mirror_beside");
  const std::string beside = file.path + ".parting", elsewhere = file.path + ".elsewhere";
  SECTION("a file of the user's") { std::ofstream(beside) << "mine"; }
  SECTION("a dangling symbolic link") { REQUIRE(symlink(elsewhere.c_str(), beside.c_str()) == 0); }
  struct stat before {};
  REQUIRE(lstat(beside.c_str(), &before) == 0);
  part_at_30(file.path, true, 2);
  struct stat after {};
  CHECK(lstat(beside.c_str(), &after) == 0);
  CHECK(after.st_mode == before.st_mode);
  CHECK(after.st_size == before.st_size);
  CHECK(stat(elsewhere.c_str(), &after) != 0);  // nothing was written through the link
  CHECK(lstat((file.path + ".parting1").c_str(), &after) != 0);  // the temporary is gone
  std::remove(beside.c_str());
  CHECK(file.body() == "#0\n$dumpvars\nb0 !\nb0 \"\nb0 #\nb0 $\n0%\n$end\n#10\nb1 \"\nb1 #\nb1 $\n#20\nb1 !\n#30\nb10 $\n#40\n");
}
