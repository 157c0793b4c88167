#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds the benchmarks and prints every figure the project tracks. Benchmarks assert nothing;
# run them on a quiet machine. Set QUICK=1 for shorter runs.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${PTOSIM_BUILD_DIR:-$root/build}"
"$root/scripts/deps.sh"
"$root/scripts/build.sh" --target ptosim_bench_numeric ptosim_bench_sfu ptosim_bench_cube ptosim_bench_platform ptosim
export SC_COPYRIGHT_MESSAGE=DISABLE
# Every benchmark runs on one CPU: on virtual machines the CPUs can differ in speed (1.5x on the
# machine the figures in docs/performance.md come from), and a ratio of two runs on different
# CPUs measures the machine, not the model. PTOSIM_BENCH_CPU picks the CPU (default 0).
# Traced runs are written in line (the default); timing-only ones are also measured with the
# writer on a thread of its own (--trace-thread) on two CPUs (PTOSIM_BENCH_CPUS, default 0,1).
pin=() pin2=()
if command -v taskset >/dev/null; then
  pin=(taskset -c "${PTOSIM_BENCH_CPU:-0}")
  [ "$(nproc)" -ge 2 ] && pin2=(taskset -c "${PTOSIM_BENCH_CPUS:-0,1}")
fi
platform="$build/bench/platform/ptosim_bench_platform"
out="$(mktemp -d)"
# Workload sizes: SFU rounds and GEMM steps, full and in timing-only mode.
sfu_rounds=2000 gemm_steps=200 timing_gemm_steps=20000 timing_sfu_rounds=5000
if [ -n "${QUICK:-}" ]; then sfu_rounds=200 gemm_steps=20 timing_gemm_steps=2000 timing_sfu_rounds=500; fi

echo "== numerics: element ops/s per DataType and op, beside native host loops"
"${pin[@]}" "$build/bench/numeric/ptosim_bench_numeric" ${QUICK:+0.05}
echo
echo "== SFU core: elements/s per operation class, beside the load/store limit"
"${pin[@]}" "$build/bench/sfu/ptosim_bench_sfu" ${QUICK:+0.05}
echo
echo "== CUBE core: MAC/s beside naive loops"
"${pin[@]}" "$build/bench/cube/ptosim_bench_cube" ${QUICK:+0.05}
echo

# Wall time of the best of three runs (the simulation and closing its trace, as printed by the
# bench), on one CPU; best2 on two.
best() { best_on pin "$@"; }
best2() { best_on pin2 "$@"; }
best_on() {
  local -n cpus=$1
  shift
  local best_line="" best_s=""
  for _ in 1 2 3; do
    local line s
    line=$("${cpus[@]}" "$platform" "$@")
    s=$(awk '{ for (i = 1; i < NF; ++i) if ($(i + 1) == "s") print $i }' <<<"$line")
    if [ -z "$best_s" ] || awk -v a="$s" -v b="$best_s" 'BEGIN { exit !(a < b) }'; then best_s=$s; best_line=$line; fi
  done
  echo "$best_line"
}
seconds() { awk '{ for (i = 1; i < NF; ++i) if ($(i + 1) == "s") print $i }' <<<"$1"; }

echo "== platform: simulated cycles and bundles per wall-clock second"
# The 128x128 workloads run long enough (0.1 s and more) for the per-bundle cost to dominate the
# fixed cost of starting a simulation, which the section after this one shows on its own.
for w in "$root"/examples/*.pto "--workload sfu128:$sfu_rounds" "--workload gemm:$gemm_steps"; do
  # shellcheck disable=SC2086
  functional=$(best $w --mode functional)
  # shellcheck disable=SC2086
  full=$(best $w --mode platform)
  # shellcheck disable=SC2086
  traced=$(best $w --mode platform --vcd "$out/trace.vcd")
  echo "$functional"
  echo "$full"
  echo "$traced   (traced)"
  awk -v p="$(seconds "$full")" -v f="$(seconds "$functional")" -v t="$(seconds "$traced")" \
    'BEGIN { printf("   platform / functional cores = %.2f, traced / untraced = %.2f\n", f > 0 ? p / f : 0, p > 0 ? t / p : 0) }'
done
echo
echo "== start-up: one round of the SFU workload (elaboration, thread stacks, first touches of tile memory)"
best --workload sfu128:1 --mode functional
best --workload sfu128:1 --mode platform
echo
echo "== timing-only mode on a large tiled GEMM and a 128x128 SFU workload, untraced and traced"
for w in "gemm:$timing_gemm_steps" "sfu128:$timing_sfu_rounds"; do
  plain=$(best --workload "$w" --mode timing-only)
  traced=$(best --workload "$w" --mode timing-only --vcd "$out/trace.vcd")
  traced2=$(best2 --workload "$w" --mode timing-only --vcd "$out/trace.vcd" --trace-thread)
  engines=$(best --workload "$w" --mode timing-only --vcd "$out/trace.vcd" --trace-modules dispatcher,sfu,cube)
  echo "$plain"
  echo "$traced   (traced: the writer in line)"
  echo "$traced2   (traced, two CPUs: --trace-thread, the writer on a thread of its own)"
  echo "$engines   (traced without the memories: --trace-modules dispatcher,sfu,cube)"
  awk -v p="$(seconds "$plain")" -v t="$(seconds "$traced")" -v d="$(seconds "$traced2")" -v e="$(seconds "$engines")" \
    'BEGIN { printf("   traced / untraced = %.2f in line, %.2f with --trace-thread on two CPUs (without the memories %.2f)\n", p > 0 ? t / p : 0, p > 0 ? d / p : 0, p > 0 ? e / p : 0) }'
done
echo
echo "== ptosim run --timing-only end to end (loading, simulation, and with --vcd the trace and its layout), one CPU"
"$platform" --workload "gemm:$timing_gemm_steps" --mode text >"$out/gemm.pto"
run_wall() {  # the best wall time of three runs of ptosim run with these arguments, in seconds
  local best_s=""
  for _ in 1 2 3; do
    local start end s
    start=$(date +%s.%N)
    "${pin[@]}" "$build/platforms/ptosim" run --timing-only --quiet --allocation queue:2 "$@" >/dev/null
    end=$(date +%s.%N)
    s=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')
    if [ -z "$best_s" ] || awk -v a="$s" -v b="$best_s" 'BEGIN { exit !(a < b) }'; then best_s=$s; fi
  done
  echo "$best_s"
}
plain=$(run_wall "$out/gemm.pto")
traced=$(run_wall "$out/gemm.pto" --vcd "$out/run.vcd")
awk -v p="$plain" -v t="$traced" -v n="$timing_gemm_steps" \
  'BEGIN { printf("gemm:%d   untraced %.3f s (%.0f bundles/s), traced %.3f s: traced / untraced = %.2f\n", n, p, n / p, t, t / p) }'
echo
echo "== loading a program: parsing its text and assembling it, before any simulation (ptosim run does this first)"
best --workload "gemm:$timing_gemm_steps" --mode load
best --workload "sfu128:$timing_sfu_rounds" --mode load
rm -rf "$out"
