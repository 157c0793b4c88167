// SPDX-License-Identifier: BSD-3-Clause
// VcdRecorder when its writer runs out of memory while writing a block in line: the report that
// filled the block sees the exception, and the recorder goes on consistently (never past its block,
// never writing a block twice). Allocation failure is injected by replacing operator new, which
// ThreadSanitizer's build keeps for itself (this case is left out there).
#include <catch2/catch.hpp>

#if !defined(__SANITIZE_THREAD__)

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>

#include "tests/traces/trace_file.h"
#include "traces/vcd_recorder.h"

namespace {

std::atomic<long> g_allocations_left{-1};  ///< how many allocations succeed before one fails; -1: all

}  // namespace

void* operator new(std::size_t bytes) {
  long left = g_allocations_left.load();
  while (left > 0 && !g_allocations_left.compare_exchange_weak(left, left - 1)) {
  }
  if (left == 0) throw std::bad_alloc();
  if (void* p = std::malloc(bytes != 0 ? bytes : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

using ptosim::traces::VcdRecorder;

TEST_CASE("VcdRecorder: a writer out of memory in line leaves the recorder logging on, nothing written twice",
          "[traces]") {
  const ptosim::test::TraceFile file("out_of_memory");
  VcdRecorder rec(VcdRecorder::Threading::InLine);
  const int x = rec.declare("top.a", "x", 32);
  REQUIRE(rec.open(file.path, "test", 0, ~std::uint64_t{0}));
  // Values set ahead fill the writer's queue as a block is written, which allocates as it grows.
  std::uint64_t t = 10;
  bool thrown = false;
  for (int i = 0; i < 100000 && !thrown; ++i, t += 10) {
    if (i == 4095) g_allocations_left = 3;  // the report that fills the first block
    try {
      rec.schedule(x, static_cast<std::uint64_t>(i), t);
    } catch (const std::bad_alloc&) {
      thrown = true;
    }
  }
  g_allocations_left = -1;
  REQUIRE(thrown);
  for (int i = 0; i < 10000; ++i, t += 10) rec.schedule(x, static_cast<std::uint64_t>(i), t);  // two blocks and more
  CHECK(rec.close(t));
  // Every time is later than the one before: no report was written a second time.
  const std::string body = file.body();
  std::uint64_t last = 0;
  std::size_t times = 0;
  for (std::size_t at = body.find('#'); at != std::string::npos; at = body.find('#', at + 1)) {
    const std::uint64_t time = std::stoull(body.substr(at + 1));
    if (times++ != 0) CHECK(time > last);
    last = time;
  }
  CHECK(times > 10000);
}

#endif
