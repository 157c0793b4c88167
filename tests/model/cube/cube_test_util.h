// SPDX-License-Identifier: BSD-3-Clause
// Helpers of the CUBE tests: a FunctionalMachine with CUBE-layout, RowMajor and Shared input tiles
// built from logical matrices on the shared machine harness (programs from assembly text, rejections
// with a complete no-effect check), operation forms, and FP32 encodings.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tests/model/support/machine_harness.h"

namespace ptosim::model::cube_test {

using test::reg_index;

/// Logical element [r, c] of an input matrix (nullopt = leave undefined).
using ElementFn = std::function<std::optional<std::uint64_t>(std::uint32_t r, std::uint32_t c)>;

inline std::uint32_t f32(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

inline float as_f32(std::uint64_t bits) {
  const auto u = static_cast<std::uint32_t>(bits);
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

/// A CUBE-layout descriptor (CELL storage shape derived from the valid shape).
inline TileDescriptor cube_desc(Layout layout, DataType t, std::uint32_t valid_rows, std::uint32_t valid_cols,
                                std::uint32_t capacity, PeMask mask = PeMask::all()) {
  TileDescriptor d;
  d.dtype = t;
  d.capacity_bytes = capacity;
  const auto s = cube_storage_shape(layout, t, valid_rows, valid_cols);
  REQUIRE(s);
  d.rows = s->rows;
  d.cols = s->cols;
  d.valid_rows = valid_rows;
  d.valid_cols = valid_cols;
  d.layout = layout;
  d.location = Location::Matrix;
  d.pe_mask = mask;
  REQUIRE_FALSE(descriptor_problem(d));
  return d;
}

/// An ordinary-layout descriptor whose rows derive from capacity and Col.
inline TileDescriptor ordinary_desc(DataType t, std::uint32_t capacity, std::uint32_t cols, std::uint32_t valid_rows,
                                    std::uint32_t valid_cols, Location location = Location::Any,
                                    Layout layout = Layout::RowMajor, PeMask mask = PeMask::all()) {
  TileDescriptor d;
  d.dtype = t;
  d.capacity_bytes = capacity;
  const auto rows = derived_rows(t, capacity, cols);
  REQUIRE(rows);
  d.rows = *rows;
  d.cols = cols;
  d.valid_rows = valid_rows;
  d.valid_cols = valid_cols;
  d.layout = layout;
  d.location = location;
  d.pe_mask = mask;
  REQUIRE_FALSE(descriptor_problem(d));
  return d;
}

/// The fragment of a descriptor: `fn` over the valid rectangle, undefined elsewhere.
inline FragmentData fragment(const TileDescriptor& d, const ElementFn& fn) {
  FragmentData data(d.element_count());
  for (std::uint32_t r = 0; r < d.valid_rows; ++r)
    for (std::uint32_t c = 0; c < d.valid_cols; ++c) data[std::size_t{r} * d.cols + c] = fn(r, c);
  return data;
}

/// Every element the same encoding.
inline ElementFn fill(std::uint64_t v) {
  return [v](std::uint32_t, std::uint32_t) { return std::optional<std::uint64_t>(v); };
}

/// Row-major list of encodings over the valid rectangle of width `cols`.
inline ElementFn values(std::vector<std::uint64_t> v, std::uint32_t cols) {
  return [v = std::move(v), cols](std::uint32_t r, std::uint32_t c) {
    return std::optional<std::uint64_t>(v.at(std::size_t{r} * cols + c));
  };
}

/// The shared harness with the CUBE tests' tile installers.
class Machine : public test::MachineHarness {
 public:
  using MachineHarness::MachineHarness;

  /// A Local CUBE_M16/M32/N8 input tile in location Matrix, every PE holding `fn`.
  TileDescriptor cube(const std::string& reg, Layout layout, DataType t, std::uint32_t rows, std::uint32_t cols,
                      const ElementFn& fn, std::uint32_t capacity = 0) {
    if (capacity == 0) {
      const auto s = cube_storage_shape(layout, t, rows, cols);
      REQUIRE(s);
      const auto cell = cell_shape(layout, t);
      const std::uint32_t cells = (s->rows / cell->rows) * (s->cols / cell->cols);
      capacity = 128;
      while (capacity < cells * 128) capacity *= 2;
    }
    return install(reg, cube_desc(layout, t, rows, cols, capacity), fn);
  }

  /// A Local ordinary tile (rows derived from capacity and Col), every PE holding `fn`.
  TileDescriptor ordinary(const std::string& reg, DataType t, std::uint32_t capacity, std::uint32_t cols,
                          std::uint32_t valid_rows, std::uint32_t valid_cols, const ElementFn& fn,
                          Location location = Location::Any, Layout layout = Layout::RowMajor) {
    return install(reg, ordinary_desc(t, capacity, cols, valid_rows, valid_cols, location, layout), fn);
  }

  TileDescriptor install(const std::string& reg, const TileDescriptor& d, const ElementFn& fn) {
    std::array<FragmentData, kPeCount> per_pe;
    per_pe.fill(fragment(d, fn));
    m.load_local(reg_index(reg), d, per_pe);
    return d;
  }

  /// A published Shared RowMajor tile allocated and initialised by all four PEs.
  TileDescriptor shared(unsigned id, DataType t, std::uint32_t capacity, std::uint32_t cols, std::uint32_t valid_rows,
                        std::uint32_t valid_cols, const ElementFn& fn) {
    const TileDescriptor d = ordinary_desc(t, capacity, cols, valid_rows, valid_cols);
    m.load_shared(id, d, PeMask::all(), fragment(d, fn));
    return d;
  }

  /// Runs a one-bundle program that must commit; returns its destinations (D first).
  std::vector<unsigned> commit(const std::string& program) {
    const BundleOutcome o = run1(program);
    INFO(program);
    INFO((o.fault ? o.fault->rule : std::string("no fault")));
    REQUIRE(o.kind == BundleOutcome::Kind::Committed);
    std::vector<unsigned> regs;
    for (const TileRef& r : o.destinations) regs.push_back(r.index);
    return regs;
  }

  /// Element [r, c] of Local register `index` on PE `pe` (nullopt = undefined).
  std::optional<std::uint64_t> at(unsigned index, std::uint32_t r, std::uint32_t c, int pe = 0) const {
    const TileDescriptor& d = m.state().local(index).desc;
    return m.read_local(index, pe).at(std::size_t{r} * d.cols + c);
  }
};

/// B.IOT lines binding `sources` in order (two per B.IOT), the first destination on the last
/// source line and every further one on a destination-only B.IOT; the final line carries 'last'.
/// Destinations are "M<1>" style targets.
inline std::string iot_lines(const std::vector<std::string>& sources, const std::vector<std::string>& dests) {
  struct Line {
    std::string sources;
    std::string dest;
  };
  std::vector<Line> lines;
  for (std::size_t i = 0; i < sources.size(); i += 2)
    lines.push_back({sources[i] + (i + 1 < sources.size() ? ", " + sources[i + 1] : "") + ", ", ""});
  for (std::size_t d = 0; d < dests.size(); ++d) {
    if (d == 0 && !lines.empty()) lines.back().dest = dests[0];
    else lines.push_back({"", dests[d]});
  }
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    out += "B.IOT " + lines[i].sources + "mask=1111";
    if (i + 1 == lines.size()) out += ", last";
    if (!lines[i].dest.empty()) out += ", ->" + lines[i].dest;
    out += "\n";
  }
  return out;
}

/// "B.DIM zero, v, ->LBi" lines for the dimensions that differ from the default 1.
inline std::string dim_lines(std::uint32_t m, std::uint32_t n, std::uint32_t k) {
  std::string out;
  const std::uint32_t v[3] = {m, n, k};
  for (int i = 0; i < 3; ++i)
    if (v[i] != 1) out += "B.DIM zero, " + std::to_string(v[i]) + ", ->LB" + std::to_string(i) + "\n";
  return out;
}

/// The smallest SizeCode whose per-PE bytes hold `bytes`.
inline unsigned size_code_for(std::uint64_t bytes) {
  unsigned code = 1;
  while (size_code_bytes(code) < bytes) ++code;
  return code;
}

/// One complete, legal operation form: operand values as functions of the logical indices, and
/// the optional parts of the block. setup() installs it and returns the bundle text.
struct FormSpec {
  Operation op = Operation::TMATMUL;
  DataType a = DataType::FP16, b = DataType::FP16;
  std::uint32_t m = 1, n = 1, k = 1;
  ElementFn a_fn = fill(0x3C00), b_fn = fill(0x3C00);
  ElementFn c_fn = fill(0), bias_fn = fill(0), sa_fn = fill(0x7F), sb_fn = fill(0x7F);
  bool shared_a = false, shared_b = false, trans_a = false, trans_b = false;
  unsigned prequant = 0;                    ///< B.FPATR PreQuantMode
  std::string fpatr_fields;                 ///< further B.FPATR fields ("relumode=1, ...")
  std::string datr_fields;                  ///< further B.DATR fields ("rmode=rtz, sat=1")
  std::string extra_lines;                  ///< e.g. a B.IOR line
  std::vector<std::string> extra_sources;   ///< post-processing Local sources, in stream order
  std::vector<std::string> extra_dests;     ///< RowMaxOut / GroupMaxOut targets
  std::uint32_t d_size_code = 0;            ///< 0: the smallest that holds D
};

inline bool form_mx(Operation op) {
  return op == Operation::TMATMUL_MX || op == Operation::TMATMUL_MX_BIAS || op == Operation::TMATMUL_MX_ACC ||
         op == Operation::TGEMV_MX || op == Operation::TGEMV_MX_BIAS || op == Operation::TGEMV_MX_ACC;
}
inline bool form_bias(Operation op) {
  return op == Operation::TMATMUL_BIAS || op == Operation::TMATMUL_MX_BIAS || op == Operation::TGEMV_BIAS ||
         op == Operation::TGEMV_MX_BIAS;
}
inline bool form_acc(Operation op) {
  return op == Operation::TMATMUL_ACC || op == Operation::TMATMUL_MX_ACC || op == Operation::TGEMV_ACC ||
         op == Operation::TGEMV_MX_ACC;
}
inline bool scaled_type(DataType t) { return t != DataType::FP16 && t != DataType::BF16; }

inline std::uint32_t pow2_at_least(std::uint64_t v) {
  std::uint32_t p = 1;
  while (p < v) p *= 2;
  return p;
}

/// The accumulator type of a form (FP32 for MX and floating pairs, S32 / U32 for integers).
inline DataType form_accumulator(const FormSpec& f) {
  if (form_mx(f.op) || is_float(f.a)) return DataType::FP32;
  return is_signed_integer(f.a) ? DataType::S32 : DataType::U32;
}

/// Installs the operands of `f` (C U#1, A T#1, SA T#2, B T#3, SB T#4, Bias U#2; Shared A S1,
/// SA S2, B S3, SB S4) and returns the one-bundle program.
inline std::string setup(Machine& mc, const FormSpec& f) {
  const bool mx = form_mx(f.op);
  const DataType acc = form_accumulator(f);
  const std::uint32_t blocks = (f.k + 31) / 32;
  const Layout m_layout = f.m <= 16 ? Layout::CubeM16 : Layout::CubeM32;
  // D: the prequant output type when a mode is selected (mode 0 keeps the accumulator).
  const DataType out = f.prequant == 0 ? acc : f.prequant == 1 || f.prequant == 4 || f.prequant == 5 || f.prequant == 32 || f.prequant == 33 ? DataType::FP16
                       : f.prequant == 2 || f.prequant == 3 || f.prequant == 23 || f.prequant == 24 ? DataType::S8
                       : f.prequant == 12 || f.prequant == 13 || f.prequant == 19 || f.prequant == 20 ? DataType::S16
                       : f.prequant == 17 || f.prequant == 18 ? DataType::S4X2
                       : f.prequant == 25 || f.prequant == 28 ? DataType::HiF8
                       : f.prequant == 26 || f.prequant == 37 ? DataType::E4M3
                       : f.prequant == 27 || f.prequant == 38 ? DataType::FP32 : DataType::BF16;
  std::uint32_t d_code = f.d_size_code;
  if (d_code == 0) {
    const auto d_shape = cube_storage_shape(m_layout, out, f.m, f.n);
    REQUIRE(d_shape);
    d_code = size_code_for((std::uint64_t{d_shape->rows} * d_shape->cols * element_bits(out) + 7) / 8);
  }
  std::vector<std::string> sources, shared;
  auto shared_tile = [&](unsigned id, DataType t, std::uint32_t rows, std::uint32_t cols, bool transpose, const ElementFn& fn) {
    const std::uint32_t sr = transpose ? cols : rows, sc = transpose ? rows : cols;
    const std::uint32_t capacity = std::max<std::uint32_t>(128, pow2_at_least(std::uint64_t{sr} * sc * element_bits(t) / 8));
    mc.shared(id, t, capacity, sc, sr, sc, [fn, transpose](std::uint32_t r, std::uint32_t c) { return transpose ? fn(c, r) : fn(r, c); });
    shared.push_back("S" + std::to_string(id));
  };
  auto scale_tile = [&](const std::string& reg, std::uint32_t rows, std::uint32_t cols, const ElementFn& fn) {
    const std::uint32_t pc = pow2_at_least(cols);
    mc.ordinary(reg, DataType::E8M0, std::max<std::uint32_t>(128, pow2_at_least(std::uint64_t{rows} * pc)), pc, rows, cols, fn);
    sources.push_back(reg);
  };
  if (form_acc(f.op)) {
    mc.cube("U#1", m_layout, acc, f.m, f.n, f.c_fn, f.prequant == 0 ? size_code_bytes(d_code) : 0);
    sources.push_back("U#1");
  }
  if (f.shared_a) {
    shared_tile(1, f.a, f.m, f.k, f.trans_a, f.a_fn);
    if (mx && scaled_type(f.a)) shared_tile(2, DataType::E8M0, f.m, blocks, false, f.sa_fn);
  } else {
    mc.cube("T#1", m_layout, f.a, f.m, f.k, f.a_fn);
    sources.push_back("T#1");
    if (mx && scaled_type(f.a)) scale_tile("T#2", f.m, blocks, f.sa_fn);
  }
  if (f.shared_b) {
    shared_tile(3, f.b, f.k, f.n, f.trans_b, f.b_fn);
    if (mx && scaled_type(f.b)) shared_tile(4, DataType::E8M0, blocks, f.n, false, f.sb_fn);
  } else {
    mc.cube("T#3", Layout::CubeN8, f.b, f.k, f.n, f.b_fn);
    sources.push_back("T#3");
    if (mx && scaled_type(f.b)) scale_tile("T#4", blocks, f.n, f.sb_fn);
  }
  if (form_bias(f.op)) {
    mc.ordinary("U#2", acc, std::max<std::uint32_t>(128, f.n * 4), f.n, 1, f.n, f.bias_fn);
    sources.push_back("U#2");
  }
  for (const auto& s : f.extra_sources) sources.push_back(s);
  std::vector<std::string> dests = {"M<" + std::to_string(d_code) + ">"};
  for (const auto& d : f.extra_dests) dests.push_back(d);

  std::string text = std::string("BSTART.") + operation_mnemonic(f.op) + " " + data_type_name(f.a) + "\n";
  // A present B.DATR always names the B type: an unnamed DataType field would encode FP64.
  std::string datr = f.b != f.a || !f.datr_fields.empty() ? std::string("dtype=") + data_type_name(f.b) : "";
  if (!f.datr_fields.empty()) datr += ", " + f.datr_fields;
  if (!datr.empty()) text += "B.DATR " + datr + "\n";
  std::string fpatr = f.prequant != 0 ? "prequantmode=" + std::to_string(f.prequant) : "";
  if (f.trans_a) fpatr += std::string(fpatr.empty() ? "" : ", ") + "transa=1";
  if (f.trans_b) fpatr += std::string(fpatr.empty() ? "" : ", ") + "transb=1";
  if (!f.fpatr_fields.empty()) fpatr += (fpatr.empty() ? "" : ", ") + f.fpatr_fields;
  text += "B.FPATR" + (fpatr.empty() ? std::string() : " " + fpatr) + "\n";
  text += dim_lines(f.m, f.n, f.k);
  for (const auto& s : shared) text += "B.IOS " + s + ", mask=1111\n";
  text += f.extra_lines;
  text += iot_lines(sources, dests);
  return text + "BSTOP\n";
}

}  // namespace ptosim::model::cube_test
