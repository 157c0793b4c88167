// SPDX-License-Identifier: BSD-3-Clause
// Tile descriptors: DataType, physical and valid shape, layout, location, capacity, PE mask; and the
// shape arithmetic of asl/tile/model/shape (derived rows, storage bytes, CELL geometry).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/common/pe_mask.h"
#include "model/numeric/data_type.h"

namespace ptosim::model {

enum class Layout : std::uint8_t { RowMajor, ColumnMajor, ZN, NZ, CubeM16, CubeM32, CubeN8 };
enum class Location : std::uint8_t { Vector, Matrix, Memory, Any };

const char* layout_name(Layout l);  ///< "RowMajor", "ColumnMajor", "ZN", "NZ", "CUBE_M16", ...
std::optional<Layout> layout_from_name(std::string_view name);  ///< any case, as DataType names
const char* layout_names();  ///< every name, for messages
const char* location_name(Location l);  ///< "Vector", "Matrix", "Memory", "Any"
std::optional<Location> location_from_name(std::string_view name);  ///< any case
const char* location_names();  ///< every name, for messages
inline bool is_cube_layout(Layout l) { return l == Layout::CubeM16 || l == Layout::CubeM32 || l == Layout::CubeN8; }

constexpr std::uint32_t kCellBytes = 128;
constexpr std::uint32_t kMaxCellCount = 16384;
constexpr std::uint32_t kMaxDimension = 65535;      ///< all dimension words are 16-bit
constexpr std::uint64_t kDefaultTileCapacity = 262144;  ///< TILE_CAPACITY reset value (bytes)

/// Per-PE capacity in bytes of a B.IOT/B.IOS SizeCode (128 B << (code - 1)).
constexpr std::uint32_t size_code_bytes(unsigned code) { return 128U << (code - 1); }
/// Largest per-PE TSize of any tile: B.IOS SizeCode 12 (B.IOT stops at SizeCode 10, 64 KiB, but an
/// input tile may be any size the state model holds).
constexpr std::uint32_t kMaxTileBytes = size_code_bytes(12);

/// What a destination binding of TSize `capacity` too small for its shape would need, for fault
/// texts: " (needs SizeCode k, N B)" for the smallest larger B.IOT SizeCode (up to 10) whose TSize
/// holds `valid_rows` rows of `cols` elements of `t` (ordinary layouts), or holds `bytes` when
/// `cols` is 0; "" when none does (a larger size would not help).
std::string size_code_hint(std::uint32_t capacity, DataType t, std::uint32_t cols, std::uint32_t valid_rows,
                           std::uint64_t bytes = 0);

struct TileDescriptor {
  DataType dtype = DataType::FP32;
  std::uint32_t capacity_bytes = 0;  ///< per-PE TSize
  std::uint32_t rows = 0;            ///< physical rows (CELL storage rows for CUBE layouts)
  std::uint32_t cols = 0;            ///< physical columns (CELL storage columns for CUBE layouts)
  std::uint32_t valid_rows = 0;
  std::uint32_t valid_cols = 0;
  Layout layout = Layout::RowMajor;
  Location location = Location::Any;
  PeMask pe_mask;  ///< PEs that hold a payload fragment (allocation mask)

  /// Logical elements of the physical shape (rows x cols lanes).
  std::uint64_t element_count() const { return std::uint64_t{rows} * cols; }
  /// Bytes the physical shape occupies: ceil(rows * cols * bits / 8).
  std::uint64_t storage_bytes() const { return (element_count() * element_bits(dtype) + 7) / 8; }
  /// storage_bytes() <= capacity_bytes, compared without multiplying (rows x cols may be near 2^64).
  bool storage_fits() const { return element_count() <= std::uint64_t{capacity_bytes} * 8 / element_bits(dtype); }
  // Inline: preflight compares every source with the descriptor installed legal.
  bool operator==(const TileDescriptor& o) const {
    return dtype == o.dtype && capacity_bytes == o.capacity_bytes && rows == o.rows && cols == o.cols &&
           valid_rows == o.valid_rows && valid_cols == o.valid_cols && layout == o.layout && location == o.location &&
           pe_mask == o.pe_mask;
  }
  bool operator!=(const TileDescriptor& o) const { return !(*this == o); }
};

/// Rows an ordinary layout derives from capacity: TSize*8 / (Col * bits); nullopt when Col is not a
/// non-zero power of two, the division is inexact, or the result is 0 or above 65535.
std::optional<std::uint32_t> derived_rows(DataType t, std::uint32_t capacity_bytes, std::uint32_t cols);

/// CELL geometry of a CUBE layout for a DataType: CELL rows x CELL cols (logical lanes).
struct CellShape {
  std::uint32_t rows;
  std::uint32_t cols;
};
/// nullopt for 64-bit types, HiF4X2 and ordinary layouts (CUBE layouts cannot hold them).
std::optional<CellShape> cell_shape(Layout l, DataType t);

/// CELL storage shape (rows x cols) a CUBE-layout tile needs for a valid shape:
/// M16/M32 -> 16/32 rows, cols rounded up to the CELL width; N8 -> rows rounded up to the CELL rows,
/// cols rounded up to 8. nullopt when the valid shape cannot be held (e.g. ValidRow > 16 for M16).
std::optional<CellShape> cube_storage_shape(Layout l, DataType t, std::uint32_t valid_rows, std::uint32_t valid_cols);

/// Index of logical element [r, c] in storage order (in lanes: for 4-bit types, the nibble index).
/// Ordinary layouts follow asl TileLinearIndex; CUBE layouts the CELL mapping of cube-cell.asl.
std::uint64_t storage_index(const TileDescriptor& d, std::uint32_t r, std::uint32_t c);

/// A rule a descriptor breaks, and the part of the descriptor it is about (so that a reader of
/// descriptors can name the input field at fault).
struct DescriptorProblem {
  enum class Part { Shape, ValidShape, Capacity, Layout };
  Part part;
  std::string_view rule;
};
/// Structural legality of a descriptor (non-zero rows/cols, valid <= physical, Col power of two for
/// ordinary layouts, storage fits capacity, CUBE CELL rules). Returns the rule broken when illegal.
std::optional<DescriptorProblem> descriptor_problem(const TileDescriptor& d);

}  // namespace ptosim::model
