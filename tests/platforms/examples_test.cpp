// SPDX-License-Identifier: BSD-3-Clause
// Every example runs, prints exactly its committed expected output (examples/*.expected,
// regenerated with scripts/update-goldens.sh), and writes a VCD that vcd2fst converts; the
// softmax example is also checked against an independent double-precision softmax.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "tests/platforms/run_helpers.h"

using namespace ptosim::test;

namespace {

float as_float(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

}  // namespace

TEST_CASE("Every example prints its expected output and traces convert with vcd2fst", "[examples]") {
  int examples = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(PTOSIM_SOURCE_DIR) + "/examples")) {
    if (entry.path().extension() != ".pto") continue;
    ++examples;
    const std::string name = entry.path().stem().string();
    const std::string vcd = ptosim::test::scratch("example_" + name + ".vcd");
    const auto r = run_program("example_" + name, slurp(entry.path().string()), "--hex --vcd " + vcd);
    INFO(name << "\n" << r.err);
    REQUIRE(r.status == 0);
    std::string expected = slurp(entry.path().parent_path().string() + "/" + name + ".expected");
    CHECK(dumps_of(r.out) == expected);
    CHECK(std::system(("vcd2fst " + vcd + " " + vcd + ".fst >/dev/null 2>&1").c_str()) == 0);
  }
  CHECK(examples >= 2);
}

TEST_CASE("The softmax example agrees with an independent double-precision softmax", "[examples]") {
  const auto r = run_program("softmax_check", slurp(std::string(PTOSIM_SOURCE_DIR) + "/examples/softmax.pto"), "--hex");
  REQUIRE(r.status == 0);
  const auto x = dumped_encodings(r.out, "T#2"), y = dumped_encodings(r.out, "M#1");
  REQUIRE(x.size() == 8);
  REQUIRE(y.size() == 8);
  for (std::size_t i = 0; i < x.size(); ++i) {
    double max = -INFINITY, sum = 0;
    for (std::uint32_t v : x[i]) max = std::max(max, static_cast<double>(as_float(v)));
    for (std::uint32_t v : x[i]) sum += std::exp(static_cast<double>(as_float(v)) - max);
    double total = 0;
    for (std::size_t j = 0; j < x[i].size(); ++j) {
      const double want = std::exp(static_cast<double>(as_float(x[i][j])) - max) / sum;
      CHECK(static_cast<double>(as_float(y[i][j])) == Approx(want).epsilon(1e-6));
      total += as_float(y[i][j]);
    }
    CHECK(total == Approx(1.0).epsilon(1e-5));
  }
}
