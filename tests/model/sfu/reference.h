// SPDX-License-Identifier: BSD-3-Clause
// A deliberately simple reference of every SFU operation for the property tests: one element at a
// time, in the architectural order, with the numerics library's runtime-typed scalar operations.
// It shares no code with model/sfu.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "model/exec/functional_machine.h"
#include "model/numeric/flags.h"

namespace ptosim::model::sfu_ref {

/// One PE's view of a tile: its descriptor and the logical elements of its valid rows (row-major).
struct Tile {
  TileDescriptor desc;
  std::vector<std::uint64_t> e;
  std::uint64_t at(std::uint32_t r, std::uint32_t c) const { return e[std::size_t{r} * desc.cols + c]; }
};

/// The valid rectangle of a result (row-major over valid_rows x valid_cols) and its flags.
struct Values {
  std::vector<std::uint64_t> v;
  NumericFlags flags = 0;
};

Values reduce(Operation op, const Tile& src);
/// `src` is unused by the copy forms; `dst_type` differs from the source type for mixed EXPDIF.
Values expand(Operation op, DataType dst_type, const Tile& src, const Tile& bcast, std::uint32_t valid_rows,
              std::uint32_t valid_cols);
Values tci(DataType t, std::uint32_t valid_cols, std::uint64_t start, std::uint64_t direction);
Values ttri(DataType t, std::uint32_t valid_rows, std::uint32_t valid_cols, std::uint64_t diagonal,
            std::uint64_t orientation);
Values concat(const Tile& left, const Tile& right);
Values histogram(const Tile& src, const Tile& filter, unsigned byte_id);
/// TFILLPAD: every physical element of `dst` (row-major over rows x cols).
std::vector<std::uint64_t> fillpad(const Tile& src, const TileDescriptor& dst, std::uint64_t scalar);

/// The fragment a destination publishes: `values` inside the valid rectangle, the PadValue
/// encoding (nullopt = Null: undefined) elsewhere.
FragmentData publish(const TileDescriptor& dst, const Values& values, std::optional<std::uint64_t> pad);

}  // namespace ptosim::model::sfu_ref
