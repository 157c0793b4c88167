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

seconds() { awk '{ for (i = 1; i < NF; ++i) if ($(i + 1) == "s") print $i }' <<<"$1"; }
# Wall times are the simulation's and the closing of its trace, as the bench prints them.
# `keep NAME COMMAND...` runs the command once and keeps its line as NAME's if it is NAME's fastest
# so far. Figures compared with each other are measured in turns, every variant once per round:
# that puts each in the same phases of the machine, whose speed drifts from minute to minute on a
# VM (the runs of one variant in a row, then the other's, compared phases as much as variants).
declare -A kept_line kept_s
keep() {
  local name=$1 line s
  shift
  line=$("$@")
  s=$(seconds "$line")
  if [ -z "${kept_s[$name]:-}" ] || awk -v a="$s" -v b="${kept_s[$name]}" 'BEGIN { exit !(a < b) }'; then
    kept_s[$name]=$s
    kept_line[$name]=$line
  fi
}
# The best of three runs of the platform bench with these arguments, on one CPU.
best() {
  unset 'kept_s[best]'
  for _ in 1 2 3; do keep best "${pin[@]}" "$platform" "$@"; done
  echo "${kept_line[best]}"
}

echo "== platform: simulated cycles and bundles per wall-clock second"
# The 128x128 workloads run long enough (0.1 s and more) for the per-bundle cost to dominate the
# fixed cost of starting a simulation, which the section after this one shows on its own.
for w in "$root"/examples/*.pto "--workload sfu128:$sfu_rounds" "--workload gemm:$gemm_steps"; do
  kept_line=() kept_s=()
  for _ in 1 2 3; do
    # shellcheck disable=SC2086
    keep functional "${pin[@]}" "$platform" $w --mode functional
    # shellcheck disable=SC2086
    keep full "${pin[@]}" "$platform" $w --mode platform
    # shellcheck disable=SC2086
    keep traced "${pin[@]}" "$platform" $w --mode platform --vcd "$out/trace.vcd"
  done
  echo "${kept_line[functional]}"
  echo "${kept_line[full]}"
  echo "${kept_line[traced]}   (traced)"
  awk -v p="${kept_s[full]}" -v f="${kept_s[functional]}" -v t="${kept_s[traced]}" \
    'BEGIN { printf("   platform / functional cores = %.2f, traced / untraced = %.2f\n", f > 0 ? p / f : 0, p > 0 ? t / p : 0) }'
done
echo
echo "== start-up: one round of the SFU workload (elaboration, thread stacks, first touches of tile memory)"
best --workload sfu128:1 --mode functional
best --workload sfu128:1 --mode platform
echo
echo "== timing-only mode on a large tiled GEMM and a 128x128 SFU workload, untraced and traced (best of five rounds)"
for w in "gemm:$timing_gemm_steps" "sfu128:$timing_sfu_rounds"; do
  kept_line=() kept_s=()
  for _ in 1 2 3 4 5; do
    keep plain "${pin[@]}" "$platform" --workload "$w" --mode timing-only
    keep traced "${pin[@]}" "$platform" --workload "$w" --mode timing-only --vcd "$out/trace.vcd"
    keep traced2 "${pin2[@]}" "$platform" --workload "$w" --mode timing-only --vcd "$out/trace.vcd" --trace-thread
    keep engines "${pin[@]}" "$platform" --workload "$w" --mode timing-only --vcd "$out/trace.vcd" --trace-modules dispatcher,sfu,cube
  done
  echo "${kept_line[plain]}"
  echo "${kept_line[traced]}   (traced: the writer in line)"
  echo "${kept_line[traced2]}   (traced, two CPUs: --trace-thread, the writer on a thread of its own)"
  echo "${kept_line[engines]}   (traced without the memories: --trace-modules dispatcher,sfu,cube)"
  awk -v p="${kept_s[plain]}" -v t="${kept_s[traced]}" -v d="${kept_s[traced2]}" -v e="${kept_s[engines]}" \
    'BEGIN { printf("   traced / untraced = %.2f in line, %.2f with --trace-thread on two CPUs (without the memories %.2f)\n", p > 0 ? t / p : 0, p > 0 ? d / p : 0, p > 0 ? e / p : 0) }'
done
echo
echo "== ptosim run --timing-only end to end (loading, simulation, and with --vcd the trace and its layout), one CPU"
"$platform" --workload "gemm:$timing_gemm_steps" --mode text >"$out/gemm.pto"
timed_run() {  # one ptosim run with these arguments, its wall time printed as "SECONDS s" (for keep)
  local start end
  start=$(date +%s.%N)
  "${pin[@]}" "$build/platforms/ptosim" run --timing-only --quiet --allocation queue:2 "$@" >/dev/null
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { print b - a, "s" }'
}
kept_line=() kept_s=()
for _ in 1 2 3; do
  keep plain timed_run "$out/gemm.pto"
  keep traced timed_run "$out/gemm.pto" --vcd "$out/run.vcd"
done
plain=${kept_s[plain]} traced=${kept_s[traced]}
awk -v p="$plain" -v t="$traced" -v n="$timing_gemm_steps" \
  'BEGIN { printf("gemm:%d   untraced %.3f s (%.0f bundles/s), traced %.3f s: traced / untraced = %.2f\n", n, p, n / p, t, t / p) }'
echo
echo "== loading a program: parsing its text and assembling it, before any simulation (ptosim run does this first)"
best --workload "gemm:$timing_gemm_steps" --mode load
best --workload "sfu128:$timing_sfu_rounds" --mode load
rm -rf "$out"
