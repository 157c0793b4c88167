#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Fails when a file breaks the layer rule of docs/architecture.md:
#  - model/ includes SystemC, TLM or Boost;
#  - interconnect/ includes engines/, traces/ or platforms/; traces/ includes anything of the project but traces/;
#  - engines/ include platforms/, or one engine includes another engine's headers;
#  - anything outside platforms/, tests/ and bench/ includes platforms/.
set -u
root="${1:-.}"
cd "$root" || exit 2
status=0
report() { echo "layering: $1"; status=1; }

while IFS= read -r hit; do report "model/ must not include SystemC/TLM/Boost: $hit"; done < <(
  grep -rnE '#include\s*[<"](systemc|tlm|sysc/|tlm_utils/|boost/)' model/ 2>/dev/null)
while IFS= read -r hit; do report "interconnect/ must not include engines/, traces/ or platforms/: $hit"; done < <(
  grep -rnE '#include\s*"(engines|traces|platforms)/' interconnect/ 2>/dev/null)
while IFS= read -r hit; do report "traces/ must include only traces/ of the project: $hit"; done < <(
  grep -rnE '#include\s*"(model|engines|interconnect|platforms)/' traces/ 2>/dev/null)
while IFS= read -r hit; do report "only platforms/, tests/ and bench/ may include platforms/: $hit"; done < <(
  grep -rnE '#include\s*"platforms/' model/ engines/ interconnect/ traces/ 2>/dev/null)
for engine in engines/*/; do
  name=$(basename "$engine")
  [ "$name" = common ] && continue
  while IFS= read -r hit; do
    inc=$(sed -nE 's/.*#include\s*"engines\/([^/]+)\/.*/\1/p' <<<"$hit")
    if [ -n "$inc" ] && [ "$inc" != common ] && [ "$inc" != "$name" ]; then
      report "engines/$name must not include engines/$inc: $hit"
    fi
  done < <(grep -rnE '#include\s*"engines/' "$engine" 2>/dev/null)
done
[ $status -eq 0 ] && echo "layering: ok"
exit $status
