// SPDX-License-Identifier: BSD-3-Clause
#include "model/sfu/sfu_timing.h"

#include <algorithm>
#include <cmath>

namespace ptosim::model {

SfuOpClass sfu_op_class(Operation op) {
  switch (op) {
    case Operation::TROWSUM: case Operation::TROWPROD: return SfuOpClass::RowReduce;
    case Operation::TROWMAX: case Operation::TROWMIN: case Operation::TROWARGMAX: case Operation::TROWARGMIN:
      return SfuOpClass::RowMinMax;
    case Operation::TCOLSUM: case Operation::TCOLPROD: return SfuOpClass::ColReduce;
    case Operation::TCOLMAX: case Operation::TCOLMIN: case Operation::TCOLARGMAX: case Operation::TCOLARGMIN:
      return SfuOpClass::ColMinMax;
    case Operation::TROWEXPAND: case Operation::TCOLEXPAND: return SfuOpClass::Expand;
    case Operation::TROWEXPANDDIV: case Operation::TCOLEXPANDDIV: return SfuOpClass::ExpandDiv;
    case Operation::TROWEXPANDEXPDIF: case Operation::TCOLEXPANDEXPDIF: return SfuOpClass::ExpandExpDif;
    case Operation::TROWEXPANDADD: case Operation::TROWEXPANDSUB: case Operation::TROWEXPANDMUL:
    case Operation::TROWEXPANDMAX: case Operation::TROWEXPANDMIN: case Operation::TCOLEXPANDADD:
    case Operation::TCOLEXPANDSUB: case Operation::TCOLEXPANDMUL: case Operation::TCOLEXPANDMAX:
    case Operation::TCOLEXPANDMIN:
      return SfuOpClass::ExpandArith;
    default: return SfuOpClass::Generate;
  }
}

namespace {

// The tile whose valid region sets the work: the source of a reduction, else the destination.
const TileDescriptor& work_tile(const ExecPlan& plan) {
  const SfuOpClass c = sfu_op_class(plan.op);
  const bool by_source = c == SfuOpClass::RowReduce || c == SfuOpClass::RowMinMax || c == SfuOpClass::ColReduce ||
                         c == SfuOpClass::ColMinMax;
  return by_source && !plan.sources.empty() ? plan.sources[0].desc : plan.dests[0].desc;
}

}  // namespace

std::uint64_t sfu_repeats(const ExecPlan& plan, const SfuParams& p) {
  const TileDescriptor& d = work_tile(plan);
  const std::uint64_t row_bytes = (std::uint64_t{d.valid_cols} * element_bits(d.dtype) + 7) / 8;
  const std::uint64_t per_row = (row_bytes + p.repeat_bytes - 1) / p.repeat_bytes;
  return std::uint64_t{d.valid_rows} * per_row;
}

Cycles sfu_compute_cycles(const ExecPlan& plan, const SfuParams& p, bool from_idle) {
  const SfuClassParams& c = p.of(sfu_op_class(plan.op));
  const TileDescriptor& d = work_tile(plan);
  // Lanes per repeat are the work tile's: an EXPDIF from FP16 to FP32 computes on FP32 repeats.
  const double per_repeat = (c.cycles_per_repeat + c.lane_cycles_per_repeat * 32.0 / element_bits(d.dtype)) *
                            128.0 / static_cast<double>(p.bytes_per_cycle);
  const double rows = d.valid_rows;
  const double cycles = (from_idle ? c.startup_cycles : 0.0) + per_repeat * static_cast<double>(sfu_repeats(plan, p)) +
                        c.cycles_per_row * rows + c.cycles_per_log2_row * (rows > 1 ? std::log2(rows) : 0.0) +
                        c.cycles_per_column_block * std::ceil(d.valid_cols / 64.0);
  // Decimal parameters (4.07) are not exact in binary: a sum that is whole in decimal may come out
  // a few ulps above it, which must not cost a cycle.
  const double whole = std::ceil(cycles - kCeilingSlack * std::max(1.0, cycles));
  return Cycles(whole > 0 ? static_cast<std::uint64_t>(whole) : 0);  // also maps a NaN to 0
}

}  // namespace ptosim::model
