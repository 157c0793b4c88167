#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The main job: install what is missing, build, and run the row-sum example on the embedded
# default platform, writing its VCD (and GTKWave layout) to out/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/deps.sh"
"$root/scripts/build.sh" --target ptosim
mkdir -p "$root/out"
"${PTOSIM_BUILD_DIR:-$root/build}/platforms/ptosim" run "$root/examples/rowsum.pto" --vcd "$root/out/rowsum.vcd" "$@"
