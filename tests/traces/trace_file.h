// SPDX-License-Identifier: BSD-3-Clause
// A per-process trace file for the recorder's tests, removed at the end of the test.
#pragma once

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

namespace ptosim::test {

struct TraceFile {
  explicit TraceFile(const std::string& name) : path("ptosim_" + std::to_string(getpid()) + "_" + name + ".vcd") {}
  ~TraceFile() { std::remove(path.c_str()); }
  /// What follows the header.
  std::string body() const {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    const std::string text = s.str();
    return text.substr(text.find("$enddefinitions $end\n") + 21);
  }
  const std::string path;
};

}  // namespace ptosim::test
