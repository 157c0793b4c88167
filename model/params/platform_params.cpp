// SPDX-License-Identifier: BSD-3-Clause
#include "model/params/platform_params.h"

#include <charconv>
#include <cmath>

namespace ptosim::model {

namespace {

constexpr const char* kClassNames[kSfuOpClassCount] = {"row_reduce", "row_minmax", "col_reduce", "col_minmax", "expand",
                                                       "expand_arith", "expand_div", "expand_expdif", "generate"};

// The shortest text that reads back as `v`, in plain digits unless that takes more than the buffer:
// a value just outside a range never shows rounded into it (as %g would: 1000001 as 1e+06).
std::string format_number(double v) {
  char buf[32];
  auto written = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
  if (written.ec != std::errc()) written = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, written.ptr);
}

}  // namespace

const char* sfu_op_class_name(SfuOpClass c) { return kClassNames[static_cast<int>(c)]; }

SfuParams::SfuParams() {
  // Calibration to the A2/A3 cost-model figures of docs/timing-model.md (64-row tiles, one
  // 256-byte repeat per row): startup + per-repeat cost.
  auto set = [this](SfuOpClass c, double startup, double per_repeat, double lane_per_repeat) {
    classes[static_cast<int>(c)] = SfuClassParams{startup, per_repeat, lane_per_repeat, 0, 0, 0};
  };
  set(SfuOpClass::RowReduce, 12, 7.5, 0);      // TROWSUM FP32 64x64: 492
  set(SfuOpClass::RowMinMax, 12, 7.3, 0);      // TROWMAX FP32 64x64: 480
  set(SfuOpClass::ColReduce, 15, 19.5, 0);     // TCOLSUM FP32 64x64: 1263
  set(SfuOpClass::ColMinMax, 17, 17.5, 0);     // TCOLMAX FP32 64x64: 1137
  set(SfuOpClass::Expand, 13, 14.375, 0);      // TROWEXPAND FP32 64x64: 933
  set(SfuOpClass::ExpandArith, 6, 2.07, 0);    // vector add: 5.9 + 2.07 r
  set(SfuOpClass::ExpandDiv, 13, 0, 4);            // div: FP32 13 + 4 r, FP16 13 + 8 r
  set(SfuOpClass::ExpandExpDif, 18, 2.07, 2);      // sub (add law), then exp (FP32 12 + 2 r, FP16 12 + 4 r)
  set(SfuOpClass::Generate, 6, 2.07, 0);       // assumption: a copy-class stream
}

double ParamInfo::get() const {
  switch (kind) {
    case Kind::Integer: return static_cast<double>(*static_cast<std::uint64_t*>(field));
    case Kind::Real: return *static_cast<double*>(field);
  }
  return 0;
}

std::string ParamInfo::range_text() const { return "[" + format_number(min) + ", " + format_number(max) + "]"; }

std::string ParamInfo::value_text() const { return format_number(get()); }

std::optional<std::string> ParamInfo::range_problem(double value, const std::string& shown) const {
  if (std::isfinite(value) && value >= min && value <= max) return std::nullopt;
  return (shown.empty() ? format_number(value) : shown) + " is outside " + range_text();
}

void ParamInfo::set(double value) const {
  switch (kind) {
    case Kind::Integer: *static_cast<std::uint64_t*>(field) = static_cast<std::uint64_t>(value); return;
    case Kind::Real: *static_cast<double*>(field) = value; return;
  }
}

std::vector<ParamInfo> param_table(PlatformParams& p) {
  using K = ParamInfo::Kind;
  std::vector<ParamInfo> t;
  auto integer = [&t](std::string key, const char* unit, const char* doc, double lo, double hi, std::uint64_t* f) {
    t.push_back(ParamInfo{std::move(key), unit, doc, lo, hi, K::Integer, f});
  };
  auto real = [&t](std::string key, const char* unit, const char* doc, double lo, double hi, double* f) {
    t.push_back(ParamInfo{std::move(key), unit, doc, lo, hi, K::Real, f});
  };
  integer("clock.period_ps", "ps", "clock period of every block", 1, 1e6, &p.clock.period_ps);
  integer("dispatch.decode_cycles", "cycles", "decode cost per bundle instruction", 0, 1e6, &p.dispatch.decode_cycles);
  integer("dispatch.preflight_cycles", "cycles", "legality preflight and allocation per bundle", 0, 1e6,
          &p.dispatch.preflight_cycles);
  integer("dispatch.issue_queue_depth", "commands", "commands waiting per engine", 1, 1024,
          &p.dispatch.issue_queue_depth);
  integer("dispatch.reorder_depth", "bundles", "bundles in flight before in-order retirement", 1, 4096,
          &p.dispatch.reorder_depth);
  integer("sfu.repeat_bytes", "bytes", "bytes a vector repeat covers (sets the repeats per row; not the datapath width)", 1, 65536, &p.sfu.repeat_bytes);
  integer("sfu.bytes_per_cycle", "bytes/cycle", "SFU datapath width (per-repeat costs scale with 128 / this)", 1,
          65536, &p.sfu.bytes_per_cycle);
  integer("sfu.read_bytes_per_cycle", "bytes/cycle", "operand stream rate of the SFU per PE", 1, 65536,
          &p.sfu.read_bytes_per_cycle);
  integer("sfu.write_bytes_per_cycle", "bytes/cycle", "result stream rate of the SFU per PE", 1, 65536,
          &p.sfu.write_bytes_per_cycle);
  integer("sfu.burst_bytes", "bytes", "SFU memory request size", 1, 65536, &p.sfu.burst_bytes);
  integer("sfu.outstanding_requests", "requests", "SFU requests in flight per stream", 1, 1024,
          &p.sfu.outstanding_requests);
  for (int c = 0; c < kSfuOpClassCount; ++c) {
    const std::string base = std::string("sfu.class.") + kClassNames[c] + ".";
    real(base + "startup_cycles", "cycles", "startup paid when the SFU starts this class from idle (may be negative)",
         -1e6, 1e6, &p.sfu.classes[c].startup_cycles);
    real(base + "cycles_per_repeat", "cycles", "cost of one repeat at 128 bytes/cycle, any element type", 0, 1e6,
         &p.sfu.classes[c].cycles_per_repeat);
    real(base + "lane_cycles_per_repeat", "cycles",
         "cost of one repeat at 128 bytes/cycle for 32-bit elements, x 32 / element bits for others", 0, 1e6,
         &p.sfu.classes[c].lane_cycles_per_repeat);
    real(base + "cycles_per_row", "cycles", "cost per row of the work tile", 0, 1e6, &p.sfu.classes[c].cycles_per_row);
    real(base + "cycles_per_log2_row", "cycles", "cost per log2(rows) of the work tile", 0, 1e6,
         &p.sfu.classes[c].cycles_per_log2_row);
    real(base + "cycles_per_column_block", "cycles", "cost per 64 columns of the work tile", 0, 1e6,
         &p.sfu.classes[c].cycles_per_column_block);
  }
  integer("cube.fill_cycles", "cycles", "pipeline fill/drain per CUBE command", 0, 1e6, &p.cube.fill_cycles);
  integer("cube.k_tile_bytes", "bytes", "K bytes per fractal step (kt = this / element bytes)", 1, 4096,
          &p.cube.k_tile_bytes);
  integer("cube.cycles_per_fractal_32bit", "cycles", "cycles per 16 x kt x 16 fractal, 32-bit inputs", 1, 1024,
          &p.cube.cycles_per_fractal_32bit);
  integer("cube.cycles_per_fractal_16bit", "cycles", "cycles per fractal, 16- and 8-bit inputs", 1, 1024,
          &p.cube.cycles_per_fractal_16bit);
  integer("cube.cycles_per_fractal_4bit", "cycles", "cycles per fractal, 4-bit inputs", 1, 1024,
          &p.cube.cycles_per_fractal_4bit);
  integer("cube.read_bytes_per_cycle", "bytes/cycle", "operand stream rate of the CUBE per PE", 1, 65536,
          &p.cube.read_bytes_per_cycle);
  integer("cube.write_bytes_per_cycle", "bytes/cycle", "result stream rate of the CUBE per PE", 1, 65536,
          &p.cube.write_bytes_per_cycle);
  integer("cube.burst_bytes", "bytes", "CUBE memory request size", 1, 65536, &p.cube.burst_bytes);
  integer("cube.outstanding_requests", "requests", "CUBE requests in flight per stream", 1, 1024,
          &p.cube.outstanding_requests);
  for (int m = 0; m < 2; ++m) {
    MemoryParams& mp = m == 0 ? p.local_memory : p.shared_memory;
    const std::string base = m == 0 ? "local_memory." : "shared_memory.";
    // Banks matter only where two ports can start accesses in one cycle (timing-model.md §5).
    integer(base + "banks", "banks", "interleaved banks (a coarse model: conflicts need 2 ports or more)", 1, 1024,
            &mp.banks);
    integer(base + "bank_width_bytes", "bytes", "bank interleave granule (see banks)", 1, 65536, &mp.bank_width_bytes);
    integer(base + "ports", "ports", "concurrent accesses", 1, 64, &mp.ports);
    integer(base + "bytes_per_cycle", "bytes/cycle", "bandwidth of one port", 1, 65536, &mp.bytes_per_cycle);
    integer(base + "access_latency_cycles", "cycles", "latency of an access once it holds a port", 0, 1e6,
            &mp.access_latency_cycles);
  }
  integer("interconnect.hop_cycles", "cycles", "router latency per request", 0, 1e6, &p.interconnect_hop_cycles);
  integer("sim.lookahead_cycles", "cycles", "how far ahead engines book memory requests (fairness vs speed)", 1, 1e9,
          &p.sim.lookahead_cycles);
  return t;
}

std::vector<std::string> PlatformParams::validate() const {
  std::vector<std::string> errors;
  PlatformParams copy = *this;
  for (const ParamInfo& info : param_table(copy)) {
    if (const auto problem = info.range_problem(info.get())) errors.push_back(info.key + ": " + *problem);
  }
  return errors;
}

}  // namespace ptosim::model
