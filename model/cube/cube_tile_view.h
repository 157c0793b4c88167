// SPDX-License-Identifier: BSD-3-Clause
// TileView: element access by logical [r, c] to a window of a tile, for whole-matrix reads and
// writes in the CUBE core.
#pragma once

#include <cstdint>
#include <vector>

#include "model/state/element_access.h"

namespace ptosim::model::cube {

/// The storage index of every layout the CUBE touches (RowMajor, CUBE_M16/M32, CUBE_N8) is the
/// sum of a part that depends only on the row and a part that depends only on the column
/// (tests/model/cube checks this against storage_index for every layout and element width), so
/// a rows x cols window needs rows + cols index computations instead of rows * cols. With
/// `transpose`, logical [r, c] reads stored [c, r] (a Shared primary under TransA/TransB).
class TileView {
 public:
  TileView(const TileDescriptor& d, std::uint32_t rows, std::uint32_t cols, bool transpose = false)
      : m_bits(element_bits(d.dtype)), m_row(rows), m_col(cols) {
    for (std::uint32_t r = 0; r < rows; ++r) m_row[r] = transpose ? storage_index(d, 0, r) : storage_index(d, r, 0);
    for (std::uint32_t c = 0; c < cols; ++c) m_col[c] = transpose ? storage_index(d, c, 0) : storage_index(d, 0, c);
  }

  std::uint64_t index(std::uint32_t r, std::uint32_t c) const { return m_row[r] + m_col[c]; }
  std::uint64_t load(const std::uint8_t* bytes, std::uint32_t r, std::uint32_t c) const {
    return load_lane(bytes, m_bits, index(r, c));
  }
  void store(std::uint8_t* bytes, std::uint32_t r, std::uint32_t c, std::uint64_t v) const {
    store_lane(bytes, m_bits, index(r, c), v);
  }

 private:
  unsigned m_bits;
  std::vector<std::uint64_t> m_row, m_col;
};

}  // namespace ptosim::model::cube
