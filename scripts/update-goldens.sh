#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Regenerates examples/*.expected (the dumps of each example, with encodings) from the current
# build. Review the diff like code: a changed golden is a changed result.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
ptosim="${PTOSIM_BUILD_DIR:-$root/build}/platforms/ptosim"
for program in "$root"/examples/*.pto; do
  "$ptosim" run "$program" --hex | awk 'NR > 1 && !/^  [a-zA-Z]/ { p = 1 } p' > "${program%.pto}.expected"
  echo "wrote ${program%.pto}.expected"
done
