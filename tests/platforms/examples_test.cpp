// SPDX-License-Identifier: BSD-3-Clause
// Every example runs, prints exactly its committed expected output (examples/*.expected,
// regenerated with scripts/update-goldens.sh), and writes a VCD that converts to FST and back; the
// softmax and GEMM examples are also checked against independent double-precision references.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <set>
#include <sstream>
#include <vector>

#include "tests/platforms/run_helpers.h"
#include "tests/platforms/waves.h"

using namespace ptosim::test;

namespace {

float as_float(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// An IEEE binary16 encoding's value (no NaN or infinity in the examples' inputs).
double half_value(std::uint32_t h) {
  const int exponent = static_cast<int>((h >> 10) & 0x1f);
  const double magnitude = exponent == 0 ? std::ldexp(static_cast<double>(h & 0x3ff), -24)
                                         : std::ldexp(static_cast<double>((h & 0x3ff) | 0x400), exponent - 25);
  return (h & 0x8000) != 0 ? -magnitude : magnitude;
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

TEST_CASE("The GEMM example agrees with an independent double-precision product of its inputs", "[examples]") {
  // The example with its inputs dumped too: D = A1 B1 + A2 B2 + A3 B3 + A4 B4, every FP16 product
  // exact in FP32, so the FP32 result is within the accumulation's rounding of the exact sum.
  std::string program = slurp(std::string(PTOSIM_SOURCE_DIR) + "/examples/gemm.pto");
  const std::string dump = ".dump M#1";
  REQUIRE(program.find(dump) != std::string::npos);
  program.replace(program.find(dump), dump.size(), ".dump T#1 T#2 T#3 T#4 U#1 U#2 U#3 U#4 M#1");
  const auto r = run_program("gemm_check", program, "--hex");
  REQUIRE(r.status == 0);
  const auto d = dumped_encodings(r.out, "M#1");
  std::vector<std::vector<std::vector<std::uint32_t>>> a, b;
  for (int chunk = 1; chunk <= 4; ++chunk) {
    a.push_back(dumped_encodings(r.out, "T#" + std::to_string(chunk)));
    b.push_back(dumped_encodings(r.out, "U#" + std::to_string(chunk)));
    REQUIRE(a.back().size() == 32);
    REQUIRE(b.back().size() == 64);
  }
  REQUIRE(d.size() == 32);
  for (std::size_t i = 0; i < d.size(); ++i) {
    REQUIRE(d[i].size() == 128);
    for (std::size_t j = 0; j < d[i].size(); ++j) {
      double sum = 0, magnitude = 0;
      for (std::size_t chunk = 0; chunk < 4; ++chunk) {
        for (std::size_t k = 0; k < 64; ++k) {
          const double product = half_value(a[chunk][i][k]) * half_value(b[chunk][k][j]);
          sum += product;
          magnitude += std::abs(product);
        }
      }
      INFO("D[" << i << "][" << j << "]");
      CHECK(std::abs(static_cast<double>(as_float(d[i][j])) - sum) <= 256 * 0x1p-24 * magnitude + 1e-30);
    }
  }
}

TEST_CASE("The host example drives the accelerator over TLM alone and prints its expected output", "[examples]") {
  // A host processor model: it installs the input through the tile window, launches a kernel
  // binary from the program memory, and reads the result back (examples/host/host_vp.cpp).
  const std::string dir = std::string(PTOSIM_SOURCE_DIR) + "/examples/host/";
  const std::string kernel = ptosim::test::scratch("host_rowsum.bin"), out = ptosim::test::scratch("host_example.out");
  REQUIRE(std::system((std::string(PTOSIM_EXE) + " asm " + dir + "rowsum.s -o " + kernel).c_str()) == 0);
  const int status = std::system(
      ("SC_COPYRIGHT_MESSAGE=DISABLE " + std::string(PTOSIM_HOST_EXAMPLE) + " " + kernel + " > " + out).c_str());
  const std::string printed = slurp(out);
  INFO(printed);
  CHECK(status == 0);
  CHECK(printed == slurp(dir + "host_vp.expected"));
  CHECK(printed.find("host: PE3 row sums 36 0.99609375 1 3\n") != std::string::npos);  // rowsum.expected's sums
  // A kernel file that cannot be read is refused with its name.
  CHECK(std::system(("SC_COPYRIGHT_MESSAGE=DISABLE " + std::string(PTOSIM_HOST_EXAMPLE) + " " + dir +
                     "no-such.bin 2> " + out).c_str()) != 0);
  CHECK(slurp(out).find("cannot read '" + dir + "no-such.bin'") != std::string::npos);
}
