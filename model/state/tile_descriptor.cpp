// SPDX-License-Identifier: BSD-3-Clause
#include "model/state/tile_descriptor.h"

#include "model/common/text.h"

#include <array>
#include <iterator>
#include <string>
#include <string_view>

namespace ptosim::model {

namespace {

constexpr const char* kLayoutNames[] = {"RowMajor", "ColumnMajor", "ZN", "NZ", "CUBE_M16", "CUBE_M32", "CUBE_N8"};
constexpr const char* kLocationNames[] = {"Vector", "Matrix", "Memory", "Any"};

constexpr bool is_pow2(std::uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

std::uint32_t round_up(std::uint32_t v, std::uint32_t q) { return (v + q - 1) / q * q; }

// 16 rows x 32 bytes fractal blocks of ZN/NZ (asl TileFractalInnerElements).
std::uint32_t fractal_inner(DataType t) { return 256 / element_bits(t); }

}  // namespace

const char* layout_name(Layout l) { return kLayoutNames[static_cast<int>(l)]; }

std::optional<Layout> layout_from_name(std::string_view name) {
  for (int i = 0; i < 7; ++i)
    if (iequal(name, kLayoutNames[i])) return static_cast<Layout>(i);
  return std::nullopt;
}

namespace {
template <std::size_t N>
std::string joined(const char* const (&names)[N]) {
  std::string text;
  for (const char* name : names) text += (text.empty() ? "" : ", ") + std::string(name);
  return text;
}
}  // namespace

const char* layout_names() {
  static const std::string names = joined(kLayoutNames);
  return names.c_str();
}

const char* location_name(Location l) { return kLocationNames[static_cast<int>(l)]; }

std::optional<Location> location_from_name(std::string_view name) {
  for (int i = 0; i < 4; ++i)
    if (iequal(name, kLocationNames[i])) return static_cast<Location>(i);
  return std::nullopt;
}

const char* location_names() {
  static const std::string names = joined(kLocationNames);
  return names.c_str();
}

std::string size_code_hint(std::uint32_t capacity, DataType t, std::uint32_t cols, std::uint32_t valid_rows,
                           std::uint64_t bytes) {
  const auto holds = [&](std::uint32_t size) {
    return cols == 0 ? size >= bytes : derived_rows(t, size, cols).value_or(0) >= valid_rows;
  };
  if (holds(capacity)) return "";  // the size is not what is wrong
  for (unsigned code = 1; code <= 10; ++code) {
    const std::uint32_t size = size_code_bytes(code);
    if (size <= capacity) continue;
    if (holds(size))
      return " (needs SizeCode " + std::to_string(code) + ", " + std::to_string(size) + " B)";
  }
  return "";
}

std::optional<std::uint32_t> derived_rows(DataType t, std::uint32_t capacity_bytes, std::uint32_t cols) {
  if (!is_pow2(cols)) return std::nullopt;
  const std::uint64_t bits = std::uint64_t{capacity_bytes} * 8;
  const std::uint64_t row_bits = std::uint64_t{cols} * element_bits(t);
  if (bits % row_bits != 0) return std::nullopt;
  const std::uint64_t rows = bits / row_bits;
  if (rows == 0 || rows > kMaxDimension) return std::nullopt;
  return static_cast<std::uint32_t>(rows);
}

namespace {

// The CELL geometry rule; cell_shape answers from a table of it.
std::optional<CellShape> compute_cell_shape(Layout l, DataType t) {
  const unsigned bits = element_bits(t);
  if (!is_cube_layout(l) || bits == 64 || t == DataType::HiF4X2) return std::nullopt;
  // A CELL is 128 bytes; the width in lanes follows from the fixed row count.
  switch (l) {
    case Layout::CubeM16: return CellShape{16, 1024 / (16 * bits)};
    case Layout::CubeM32: return CellShape{32, 1024 / (32 * bits)};
    case Layout::CubeN8: return CellShape{1024 / (8 * bits), 8};
    default: return std::nullopt;
  }
}

// Every descriptor check and CUBE storage index asks for a CELL shape: tabulated once per (layout,
// type code) at start-up (no static initialiser asks for a CELL shape).
using CellShapeTable = std::array<std::array<std::optional<CellShape>, 32>, std::size(kLayoutNames)>;
const CellShapeTable kCellShapes = [] {
  CellShapeTable shapes{};
  for (std::size_t l = 0; l < shapes.size(); ++l)
    for (DataType t : kAllDataTypes) shapes[l][data_type_code(t)] = compute_cell_shape(static_cast<Layout>(l), t);
  return shapes;
}();

}  // namespace

std::optional<CellShape> cell_shape(Layout l, DataType t) {
  return kCellShapes[static_cast<std::size_t>(l)][data_type_code(t)];
}

namespace {

// cube_storage_shape for a known CELL shape.
std::optional<CellShape> storage_shape_of(Layout l, CellShape cell, std::uint32_t valid_rows, std::uint32_t valid_cols) {
  if (valid_rows == 0 || valid_cols == 0) return std::nullopt;
  std::uint32_t rows = cell.rows;
  if (l == Layout::CubeN8) {
    rows = round_up(valid_rows, cell.rows);
  } else if (valid_rows > cell.rows) {
    return std::nullopt;
  }
  const std::uint32_t cols = round_up(valid_cols, cell.cols);
  if (rows > kMaxDimension || cols > kMaxDimension) return std::nullopt;
  return CellShape{rows, cols};
}

}  // namespace

std::optional<CellShape> cube_storage_shape(Layout l, DataType t, std::uint32_t valid_rows, std::uint32_t valid_cols) {
  const auto cell = cell_shape(l, t);
  if (!cell) return std::nullopt;
  return storage_shape_of(l, *cell, valid_rows, valid_cols);
}

std::uint64_t storage_index(const TileDescriptor& d, std::uint32_t r, std::uint32_t c) {
  switch (d.layout) {
    case Layout::RowMajor: return std::uint64_t{r} * d.cols + c;
    case Layout::ColumnMajor: return std::uint64_t{c} * d.rows + r;
    case Layout::ZN:
    case Layout::NZ: {
      const std::uint32_t inner = fractal_inner(d.dtype);
      const std::uint64_t block_elems = 16ULL * inner;
      const std::uint32_t br = r / 16, bc = c / inner, ir = r % 16, ic = c % inner;
      if (d.layout == Layout::ZN) return (std::uint64_t{br} * (d.cols / inner) + bc) * block_elems + ic * 16 + ir;
      return (std::uint64_t{bc} * (d.rows / 16) + br) * block_elems + ir * inner + ic;
    }
    case Layout::CubeM16:
    case Layout::CubeM32:
    case Layout::CubeN8: {
      const CellShape cell = *cell_shape(d.layout, d.dtype);
      const std::uint64_t cell_elems = std::uint64_t{cell.rows} * cell.cols;
      std::uint64_t cell_index = 0;
      std::uint32_t ir = r, ic = c % cell.cols;
      if (d.layout == Layout::CubeN8) {
        const std::uint32_t k_repeat = d.rows / cell.rows;
        cell_index = std::uint64_t{c / cell.cols} * k_repeat + r / cell.rows;
        ir = r % cell.rows;
        return cell_index * cell_elems + std::uint64_t{ic} * cell.rows + ir;
      }
      cell_index = c / cell.cols;
      if (d.layout == Layout::CubeM16 && element_bits(d.dtype) == 4) {
        // M16 with 4-bit lanes swaps inner columns 4..7 with 8..11 (cube-cell.asl).
        if (ic >= 4 && ic < 8) ic += 4;
        else if (ic >= 8 && ic < 12) ic -= 4;
      }
      return cell_index * cell_elems + std::uint64_t{ir} * cell.cols + ic;
    }
  }
  return 0;
}

std::optional<DescriptorProblem> descriptor_problem(const TileDescriptor& d) {
  using Part = DescriptorProblem::Part;
  if (d.rows == 0 || d.cols == 0) return DescriptorProblem{Part::Shape, "physical rows and columns must be non-zero"};
  if (d.rows > kMaxDimension || d.cols > kMaxDimension) return DescriptorProblem{Part::Shape, "dimensions must fit 16 bits"};
  if (d.valid_rows > d.rows || d.valid_cols > d.cols)
    return DescriptorProblem{Part::ValidShape, "valid rectangle exceeds the physical shape"};
  if (is_cube_layout(d.layout)) {
    const auto cell = cell_shape(d.layout, d.dtype);
    const auto shape = cell ? storage_shape_of(d.layout, *cell, d.valid_rows, d.valid_cols) : std::nullopt;
    if (!shape)
      return DescriptorProblem{Part::ValidShape, "the valid shape cannot be held in this CUBE layout for this DataType"};
    if (shape->rows != d.rows || shape->cols != d.cols)
      return DescriptorProblem{Part::Shape, "CELL storage shape does not match the valid shape"};
    const std::uint64_t cells = (std::uint64_t{d.rows} / cell->rows) * (d.cols / cell->cols);
    if (cells > kMaxCellCount) return DescriptorProblem{Part::ValidShape, "more than 16384 CELLs"};
    if (cells * kCellBytes > d.capacity_bytes) return DescriptorProblem{Part::Capacity, "CELL bytes exceed the capacity"};
    return std::nullopt;
  }
  if (!is_pow2(d.cols)) return DescriptorProblem{Part::Shape, "physical column count must be a non-zero power of two"};
  if (!d.storage_fits()) return DescriptorProblem{Part::Capacity, "physical shape exceeds the capacity"};
  if ((d.layout == Layout::ZN || d.layout == Layout::NZ) && (d.rows % 16 != 0 || d.cols % fractal_inner(d.dtype) != 0))
    return DescriptorProblem{Part::Layout, "ZN/NZ layouts need rows % 16 == 0 and 32-byte fractal columns"};
  return std::nullopt;
}

}  // namespace ptosim::model
