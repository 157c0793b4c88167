// SPDX-License-Identifier: BSD-3-Clause
// FileName keeps one text per name, whichever thread names it, and reads as that text.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "model/common/file_name.h"

using ptosim::model::FileName;

TEST_CASE("Equal file names share one text, different names do not", "[common]") {
  const std::string path = "examples/a-rather-long-path-name/attention.pto";
  const FileName a(path), b(std::string("examples/a-rather-long-path-name/") + "attention.pto");
  CHECK(&a.str() == &b.str());
  CHECK(a == path);
  CHECK(a != "examples/other.pto");
  const FileName c("examples/other.pto");
  CHECK(&c.str() != &a.str());
  std::ostringstream s;
  s << a;
  CHECK(s.str() == path);
}

TEST_CASE("A default file name is the empty name, the same as naming \"\"", "[common]") {
  const FileName none, named("");
  CHECK(none.empty());
  CHECK(none == "");
  CHECK(&none.str() == &named.str());
}

TEST_CASE("Names interned on several threads at once still share one text each", "[common]") {
  constexpr int kThreads = 4, kNames = 200;
  std::vector<std::vector<const std::string*>> seen(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&seen, t] {
      for (int i = 0; i < kNames; ++i) seen[t].push_back(&FileName("threaded-" + std::to_string(i) + ".pto").str());
    });
  for (std::thread& th : threads) th.join();
  for (int t = 1; t < kThreads; ++t) CHECK(seen[t] == seen[0]);
  CHECK(*seen[0][7] == "threaded-7.pto");
}
