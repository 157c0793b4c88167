// SPDX-License-Identifier: BSD-3-Clause
// VcdRecorder: change-driven VCD bodies, and the time window that keeps long traces small.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include "traces/vcd_recorder.h"

using ptosim::traces::VcdRecorder;

namespace {

std::string body_of(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  const std::string text = s.str();
  return text.substr(text.find("$enddefinitions $end\n") + 21);
}

}  // namespace

TEST_CASE("VcdRecorder: a windowed trace opens with the values from before the window", "[traces]") {
  const std::string path = "ptosim_" + std::to_string(getpid()) + "_window.vcd";
  VcdRecorder rec;
  const int x = rec.declare("top.a", "x", VcdRecorder::width_for(7));
  REQUIRE(rec.open(path, "test", 100, 1000));
  rec.change(x, 5, 50);    // before the window: becomes the initial value
  rec.change(x, 7, 200);   // the first change inside the window shows at 200, not at 100
  rec.change(x, 1, 2000);  // after the window: dropped
  rec.close(3000);
  CHECK(body_of(path) == "#100\n$dumpvars\nb101 !\n$end\n#200\nb111 !\n#1000\n");
  std::remove(path.c_str());
}

TEST_CASE("VcdRecorder: signal widths cover their largest value", "[traces]") {
  CHECK(VcdRecorder::width_for(0) == 1);
  CHECK(VcdRecorder::width_for(1) == 1);
  CHECK(VcdRecorder::width_for(4) == 3);
  CHECK(VcdRecorder::width_for(255) == 8);
  CHECK(VcdRecorder::width_for(4097) == 13);
}
