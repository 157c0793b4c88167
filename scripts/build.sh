#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Configures (once) and builds ptosim in build/ (override with PTOSIM_BUILD_DIR).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${PTOSIM_BUILD_DIR:-$root/build}"
werror=OFF
[ "${CI:-}" = "true" ] && werror=ON
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPTOSIM_WERROR=$werror >/dev/null
cmake --build "$build" -j "$(nproc)" "$@"
