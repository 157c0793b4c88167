#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Regenerates the key table of docs/config.md from `ptosim config --list` (a test checks that
# every key is documented).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
ptosim="${PTOSIM_BUILD_DIR:-$root/build}/platforms/ptosim"
doc="$root/docs/config.md"
head=$(sed '/^| key | default | unit |/,$d' "$doc")
{
  printf '%s\n' "$head"
  echo '| key | default | unit | range | meaning |'
  echo '|---|---|---|---|---|'
  # The columns are two blanks apart (a cell never holds two blanks in a row).
  "$ptosim" config --list | awk -F '  +' '{ desc = $5; for (i = 6; i <= NF; ++i) desc = desc "  " $i;
    printf("| `%s` | %s | %s | %s | %s |\n", $1, $2, $3, $4, desc) }'
} > "$doc.new"
mv "$doc.new" "$doc"
echo "updated $doc"
