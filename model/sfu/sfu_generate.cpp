// SPDX-License-Identifier: BSD-3-Clause
// TCI, TTRI, TFILLPAD, TCONCAT and THISTOGRAM: exact generation and rearrangement, no rounding,
// no flags (asl generation.asl, rearrangement.asl TCONCAT, complex.asl THISTOGRAM).
#include <array>
#include <cstring>

#include "model/numeric/scalar_ops.h"
#include "model/sfu/sfu_kernels.h"
#include "model/state/element_access.h"

namespace ptosim::model::sfu_detail {

namespace {

// asl generation.asl TCI: start +/- k at the element width (wraps).
void tci(const ExecPlan& plan, const PePayloads& io) {
  const TileDescriptor& d = plan.dests[0].desc;
  const auto& s = plan.sfu().scalars[io.pe];
  const std::uint64_t mask = element_mask(d.dtype);
  const bool descending = s[1] == 1;
  const unsigned bits = element_bits(d.dtype);
  const std::uint32_t vc = d.valid_cols;  // by value: the byte stores cannot change the bound
  for (std::uint32_t k = 0; k < vc; ++k)
    store_lane(io.dests[0], bits, k, (descending ? s[0] - k : s[0] + k) & mask);
}

// asl generation.asl TTRI: typed one where c <= r + diagonal (lower) or c >= r + diagonal
// (upper), typed zero elsewhere; the comparison is in unbounded integers.
void ttri(const ExecPlan& plan, const PePayloads& io) {
  const TileDescriptor& d = plan.dests[0].desc;
  const auto& s = plan.sfu().scalars[io.pe];
  const auto diagonal = static_cast<std::int64_t>(s[0]);
  const bool upper = s[1] == 1;
  const std::uint64_t one = numeric::one(d.dtype);
  const unsigned bits = element_bits(d.dtype);
  const std::uint32_t vr = d.valid_rows, vc = d.valid_cols, cols = d.cols;
  for (std::uint32_t r = 0; r < vr; ++r) {
    const std::int64_t boundary = std::int64_t{r} + diagonal;
    for (std::uint32_t c = 0; c < vc; ++c) {
      const bool selected = upper ? std::int64_t{c} >= boundary : std::int64_t{c} <= boundary;
      store_lane(io.dests[0], bits, std::uint64_t{r} * cols + c, selected ? one : 0);
    }
  }
}

/// `n` lanes of `v` from lane `first` of a row-major payload of `bits`-wide elements (8, 16, 32).
void fill_lanes(std::uint8_t* bytes, unsigned bits, std::size_t first, std::size_t n, std::uint64_t v) {
  auto fill = [&](auto lane) {
    using Lane = decltype(lane);
    for (std::size_t i = first; i < first + n; ++i) set_lane<Lane>(bytes, i, static_cast<Lane>(v));
  };
  if (bits == 8) fill(std::uint8_t{});
  else if (bits == 16) fill(std::uint16_t{});
  else fill(std::uint32_t{});
}

// asl generation.asl TFILLPAD: every physical element, the source inside its valid rectangle and
// the low element-width bits of the PE's scalar elsewhere.
void fillpad(const ExecPlan& plan, const PePayloads& io) {
  const TileDescriptor& sd = plan.sources[0].desc;
  const TileDescriptor& d = plan.dests[0].desc;
  const std::uint64_t pad = plan.sfu().scalars[io.pe][0] & element_mask(d.dtype);
  const unsigned bits = element_bits(d.dtype);
  const bool dense = sd.layout == Layout::RowMajor && d.layout == Layout::RowMajor;
  const std::uint32_t rows = d.rows, cols = d.cols, src_rows = sd.valid_rows, src_cols = sd.valid_cols;
  const std::size_t w = bits / 8, src_stride = std::size_t{sd.cols} * w;
  for (std::uint32_t r = 0; r < rows; ++r) {
    const std::uint32_t copied = r < src_rows ? src_cols : 0;
    if (dense) {
      std::memcpy(io.dests[0] + std::size_t{r} * cols * w, io.sources[0] + r * src_stride, copied * w);
      fill_lanes(io.dests[0], bits, std::size_t{r} * cols + copied, cols - copied, pad);
    } else {
      for (std::uint32_t c = 0; c < cols; ++c)
        store_element(d, io.dests[0], r, c, c < copied ? load_element(sd, io.sources[0], r, c) : pad);
    }
  }
}

// asl rearrangement.asl TCONCAT: each valid row is the left row then the right row (all RowMajor).
void concat(const ExecPlan& plan, const PePayloads& io) {
  const TileDescriptor& ld = plan.sources[0].desc;
  const TileDescriptor& rd = plan.sources[1].desc;
  const TileDescriptor& d = plan.dests[0].desc;
  const unsigned bits = element_bits(d.dtype);
  const std::uint32_t vr = d.valid_rows, vc = d.valid_cols;
  for (std::uint32_t r = 0; r < vr; ++r) {
    if (bits >= 8) {
      const std::size_t w = bits / 8;
      std::uint8_t* out = io.dests[0] + std::size_t{r} * d.cols * w;
      std::memcpy(out, io.sources[0] + std::size_t{r} * ld.cols * w, std::size_t{ld.valid_cols} * w);
      std::memcpy(out + std::size_t{ld.valid_cols} * w, io.sources[1] + std::size_t{r} * rd.cols * w,
                  std::size_t{rd.valid_cols} * w);
      continue;
    }
    for (std::uint32_t c = 0; c < vc; ++c) {
      const std::uint64_t v = c < ld.valid_cols
                                  ? load_lane(io.sources[0], bits, std::uint64_t{r} * ld.cols + c)
                                  : load_lane(io.sources[1], bits, std::uint64_t{r} * rd.cols + c - ld.valid_cols);
      store_lane(io.dests[0], bits, std::uint64_t{r} * d.cols + c, v);
    }
  }
}

// asl complex.asl THISTOGRAM: per source row, counts of the selected byte over the accepted
// elements, written as inclusive prefix sums (exact in U32).
void histogram(const ExecPlan& plan, const PePayloads& io) {
  const TileDescriptor& sd = plan.sources[0].desc;
  const TileDescriptor& d = plan.dests[0].desc;
  const unsigned byte = plan.sfu().byte_id;
  const bool u16 = sd.dtype == DataType::U16;
  const unsigned bits = element_bits(sd.dtype);
  auto filter = [&](std::uint32_t r) {
    return static_cast<std::uint32_t>(load_element(plan.sources[1].desc, io.sources[1], r, 0) & 0xFF);
  };
  // U32: the global prefix the higher bytes must match (filter rows 0..2 hold bytes 3..1).
  std::array<std::uint32_t, 3> prefix{};
  if (!u16)
    for (unsigned k = 0; k < 3 - byte; ++k) prefix[k] = filter(k);
  const std::uint32_t vr = sd.valid_rows, vc = sd.valid_cols, cols = sd.cols, dst_cols = d.cols;
  for (std::uint32_t r = 0; r < vr; ++r) {
    std::array<std::uint32_t, 256> counts{};
    const std::uint32_t row_filter = u16 && byte == 0 ? filter(r) : 0;
    for (std::uint32_t c = 0; c < vc; ++c) {
      const auto v = static_cast<std::uint32_t>(load_lane(io.sources[0], bits, std::uint64_t{r} * cols + c));
      bool accepted = true;
      if (u16) {
        accepted = byte == 1 || (v >> 8) == row_filter;
      } else {
        for (unsigned k = 0; k < 3 - byte; ++k) accepted = accepted && ((v >> (24 - 8 * k)) & 0xFF) == prefix[k];
      }
      if (accepted) ++counts[(v >> (8 * byte)) & 0xFF];
    }
    std::uint32_t cumulative = 0;
    for (std::uint32_t k = 0; k < 256; ++k) {
      cumulative += counts[k];
      set_lane<std::uint32_t>(io.dests[0], std::size_t{r} * dst_cols + k, cumulative);
    }
  }
}

}  // namespace

NumericFlags execute_generation(const ExecPlan& plan, const PePayloads& io) {
  switch (plan.op) {
    case Operation::TCI: tci(plan, io); break;
    case Operation::TTRI: ttri(plan, io); break;
    case Operation::TFILLPAD: fillpad(plan, io); break;
    case Operation::TCONCAT: concat(plan, io); break;
    default: histogram(plan, io); break;
  }
  return 0;
}

}  // namespace ptosim::model::sfu_detail
