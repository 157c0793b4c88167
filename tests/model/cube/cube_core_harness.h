// SPDX-License-Identifier: BSD-3-Clause
// Runs model::cube_execute on one PE for logical operands without a machine or preflight, so the
// arithmetic can be checked for any K (also K not a power of two) and any operand placement.
#pragma once

#include <cstdint>
#include <vector>

#include "model/cube/cube_core.h"
#include "model/state/element_access.h"

namespace ptosim::model::cube_test {

/// Logical operands (row-major encodings) and the arguments of one core call.
struct CoreCase {
  CubeArgs args;  ///< m, n, k, types, form flags, fpatr, rounding; source/dest indices are derived
  std::vector<std::uint64_t> a, b;  ///< M x K, K x N
  std::vector<std::uint64_t> c, sa, sb, bias, row_max_in, quant, relu;  ///< empty = absent
  Layout m_layout = Layout::CubeM16;
  /// A / B stored as RowMajor tiles (the Shared placement), transposed when args.trans_a/trans_b.
  bool row_major_a = false, row_major_b = false;
};

struct CoreResult {
  std::vector<std::uint64_t> d, row_max, group_max;  ///< logical row-major
  NumericFlags flags = 0;
};

namespace harness_detail {

inline TileDescriptor plain(DataType t, std::uint32_t rows, std::uint32_t cols) {
  TileDescriptor d;
  d.dtype = t;
  d.rows = rows;
  d.cols = cols;
  d.valid_rows = rows;
  d.valid_cols = cols;
  d.layout = Layout::RowMajor;
  d.capacity_bytes = static_cast<std::uint32_t>(d.storage_bytes());
  return d;
}

inline TileDescriptor cube(Layout l, DataType t, std::uint32_t rows, std::uint32_t cols) {
  const auto s = cube_storage_shape(l, t, rows, cols);
  TileDescriptor d;
  d.dtype = t;
  d.rows = s->rows;
  d.cols = s->cols;
  d.valid_rows = rows;
  d.valid_cols = cols;
  d.layout = l;
  d.location = Location::Matrix;
  d.capacity_bytes = static_cast<std::uint32_t>(d.storage_bytes());
  return d;
}

}  // namespace harness_detail

inline CoreResult run_core(const CoreCase& cc) {
  using namespace harness_detail;
  CubeArgs a = cc.args;
  ExecPlan plan;
  plan.op = Operation::TMATMUL;
  plan.mask = PeMask::all();
  std::vector<std::vector<std::uint8_t>> buffers;
  auto add = [&](const TileDescriptor& d, const std::vector<std::uint64_t>& data, std::uint32_t cols, bool transpose) {
    buffers.emplace_back(d.storage_bytes() + 8, 0);
    for (std::size_t e = 0; e < data.size(); ++e) {
      const auto r = static_cast<std::uint32_t>(e / cols), c = static_cast<std::uint32_t>(e % cols);
      store_element(d, buffers.back().data(), transpose ? c : r, transpose ? r : c, data[e]);
    }
    plan.sources.push_back(SourceOperand{TileRef::local(0), 0, d});
    return static_cast<int>(plan.sources.size()) - 1;
  };
  const std::uint32_t m = a.m, n = a.n, k = a.k, blocks = (k + 31) / 32;
  a.src_c = cc.c.empty() ? kAbsent : add(cube(cc.m_layout, a.acc_dtype, m, n), cc.c, n, false);
  a.src_a = cc.row_major_a ? add(a.trans_a ? plain(a.a_dtype, k, m) : plain(a.a_dtype, m, k), cc.a, k, a.trans_a)
                           : add(cube(cc.m_layout, a.a_dtype, m, k), cc.a, k, false);
  a.src_sa = cc.sa.empty() ? kAbsent : add(plain(DataType::E8M0, m, blocks), cc.sa, blocks, false);
  a.src_b = cc.row_major_b ? add(a.trans_b ? plain(a.b_dtype, n, k) : plain(a.b_dtype, k, n), cc.b, n, a.trans_b)
                           : add(cube(Layout::CubeN8, a.b_dtype, k, n), cc.b, n, false);
  a.src_sb = cc.sb.empty() ? kAbsent : add(plain(DataType::E8M0, blocks, n), cc.sb, n, false);
  a.src_bias = cc.bias.empty() ? kAbsent : add(plain(a.acc_dtype, 1, n), cc.bias, n, false);
  a.src_row_max_in = cc.row_max_in.empty() ? kAbsent : add(plain(a.acc_dtype, m, 1), cc.row_max_in, 1, false);
  a.src_quant = cc.quant.empty() ? kAbsent : add(plain(DataType::U64, 1, n), cc.quant, n, false);
  a.src_relu = cc.relu.empty() ? kAbsent : add(plain(DataType::U64, 1, n), cc.relu, n, false);

  DestOperand d;
  d.desc = cube(cc.m_layout, a.out_dtype, m, n);
  plan.dests.push_back(d);
  const std::uint32_t groups = a.fpatr.group_max ? (n + a.fpatr.group_n - 1) / a.fpatr.group_n : 0;
  a.dst_row_max = a.dst_group_max = kAbsent;
  if (a.fpatr.row_max) {
    d.desc = plain(a.acc_dtype, m, 1);
    plan.dests.push_back(d);
    a.dst_row_max = static_cast<int>(plan.dests.size()) - 1;
  }
  if (a.fpatr.group_max) {
    d.desc = plain(a.acc_dtype, m, groups);
    plan.dests.push_back(d);
    a.dst_group_max = static_cast<int>(plan.dests.size()) - 1;
  }
  plan.args = a;

  PePayloads io;
  io.pe = 0;
  for (const auto& b : buffers) io.sources.push_back(b.data());
  std::vector<std::vector<std::uint8_t>> outs;
  for (const DestOperand& dst : plan.dests) outs.emplace_back(dst.desc.storage_bytes() + 8, 0);
  for (auto& o : outs) io.dests.push_back(o.data());

  CoreResult r;
  r.flags = cube_execute(plan, io);
  for (std::uint32_t i = 0; i < m; ++i)
    for (std::uint32_t j = 0; j < n; ++j) r.d.push_back(load_element(plan.dests[0].desc, outs[0].data(), i, j));
  if (a.dst_row_max != kAbsent)
    for (std::uint32_t i = 0; i < m; ++i) r.row_max.push_back(load_element(plan.dests[1].desc, outs[1].data(), i, 0));
  if (a.dst_group_max != kAbsent) {
    const auto g = static_cast<std::size_t>(a.dst_group_max);
    for (std::uint32_t i = 0; i < m; ++i)
      for (std::uint32_t c = 0; c < groups; ++c) r.group_max.push_back(load_element(plan.dests[g].desc, outs[g].data(), i, c));
  }
  return r;
}

}  // namespace ptosim::model::cube_test
