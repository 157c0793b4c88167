#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Regenerates examples/*.expected (the dumps of each example, with encodings) and the host
# example's output, examples/host/host_vp.expected, from the current build. Review the diff like
# code: a changed golden is a changed result.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${PTOSIM_BUILD_DIR:-$root/build}"
ptosim="$build/platforms/ptosim"
for program in "$root"/examples/*.pto; do
  "$ptosim" run "$program" --hex | awk 'NR > 1 && !/^  [a-zA-Z]/ { p = 1 } p' > "${program%.pto}.expected"
  echo "wrote ${program%.pto}.expected"
done
kernel="$(mktemp)"
trap 'rm -f "$kernel"' EXIT
"$ptosim" asm "$root/examples/host/rowsum.s" -o "$kernel"
SC_COPYRIGHT_MESSAGE=DISABLE "$build/examples/host/ptosim_host_example" "$kernel" > "$root/examples/host/host_vp.expected"
echo "wrote $root/examples/host/host_vp.expected"
