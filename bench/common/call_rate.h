// SPDX-License-Identifier: BSD-3-Clause
// How the benchmarks time a piece of work: the best of three batches, each repeating the work for
// at least a third of the time budget (the best batch is the one the machine disturbed least).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace ptosim::bench {

/// Calls of `work` per second.
template <typename Work>
double calls_per_second(Work&& work, double seconds) {
  double best = 0;
  for (int batch = 0; batch < 3; ++batch) {
    std::uint64_t calls = 0;
    const auto start = std::chrono::steady_clock::now();
    double elapsed = 0;
    do {
      work();
      ++calls;
      elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    } while (elapsed < seconds / 3);
    best = std::max(best, static_cast<double>(calls) / elapsed);
  }
  return best;
}

}  // namespace ptosim::bench
