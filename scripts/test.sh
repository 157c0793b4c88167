#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The whole test suite: install what is missing, build, run every test (2 in parallel), then the
# fuzz tests again under AddressSanitizer + UBSan and the trace writer's tests under ThreadSanitizer.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/deps.sh"
"$root/scripts/build.sh"
build="${PTOSIM_BUILD_DIR:-$root/build}"
(cd "$build" && ctest -j "$(nproc)" --output-on-failure)
asan="${build}-asan"
cmake -S "$root" -B "$asan" -DCMAKE_BUILD_TYPE=Debug -DPTOSIM_SANITIZE=ON >/dev/null
cmake --build "$asan" -j "$(nproc)" --target ptosim_model_tests
"$asan/tests/model/ptosim_model_tests" "[fuzz]"
tsan="${build}-tsan"
cmake -S "$root" -B "$tsan" -DCMAKE_BUILD_TYPE=Debug -DPTOSIM_SANITIZE_THREAD=ON >/dev/null
cmake --build "$tsan" -j "$(nproc)" --target ptosim_trace_tests
(cd "$tsan" && TSAN_OPTIONS=halt_on_error=1 tests/traces/ptosim_trace_tests)
