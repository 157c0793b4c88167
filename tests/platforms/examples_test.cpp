// SPDX-License-Identifier: BSD-3-Clause
// Every example runs, prints exactly its committed expected output (examples/*.expected,
// regenerated with scripts/update-goldens.sh), and writes a VCD that converts to FST and back; the
// softmax example is also checked against an independent double-precision softmax.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <set>
#include <sstream>

#include "tests/platforms/run_helpers.h"
#include "tests/platforms/waves.h"

using namespace ptosim::test;

namespace {

float as_float(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

}  // namespace

TEST_CASE("Every example prints its expected output and its trace survives a round trip to FST", "[examples]") {
  // The examples the project promises, by name: a missing one fails rather than shrinking the loop.
  const std::set<std::string> promised = {"attention", "gemm", "rowsum", "softmax"};
  std::set<std::string> found;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(PTOSIM_SOURCE_DIR) + "/examples"))
    if (entry.path().extension() == ".pto") found.insert(entry.path().stem().string());
  for (const std::string& name : promised) CHECK(found.count(name) == 1);
  for (const std::string& name : found) {
    const std::string path = std::string(PTOSIM_SOURCE_DIR) + "/examples/" + name;
    const std::string vcd = ptosim::test::scratch("example_" + name + ".vcd");
    const auto r = run_program("example_" + name, slurp(path + ".pto"), "--hex --vcd " + vcd);
    INFO(name << "\n" << r.err);
    REQUIRE(r.status == 0);
    REQUIRE(std::filesystem::exists(path + ".expected"));
    CHECK(dumps_of(r.out) == slurp(path + ".expected"));
    CHECK(fst_round_trip_problem(vcd) == "");
  }
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
