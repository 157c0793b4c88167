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
  "$ptosim" config --list | awk '{ key = substr($0, 1, 48); val = substr($0, 50, 10); unit = substr($0, 61, 12);
    range = substr($0, 73, 20); desc = substr($0, 93);
    gsub(/ +$/, "", key); gsub(/ +$/, "", val); gsub(/ +$/, "", unit); gsub(/ +$/, "", range);
    printf("| `%s` | %s | %s | %s | %s |\n", key, val, unit, range, desc) }'
} > "$doc.new"
mv "$doc.new" "$doc"
echo "updated $doc"
