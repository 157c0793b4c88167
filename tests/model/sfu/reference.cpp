// SPDX-License-Identifier: BSD-3-Clause
#include "tests/model/sfu/reference.h"

#include "model/numeric/scalar_ops.h"

namespace ptosim::model::sfu_ref {

namespace {

bool row_form(Operation op) { return op <= Operation::TROWARGMIN; }

std::uint64_t binary(Operation op, DataType t, std::uint64_t a, std::uint64_t b, NumericFlags& f) {
  switch (op) {
    case Operation::TROWEXPANDADD: case Operation::TCOLEXPANDADD: return numeric::add(t, a, b, f);
    case Operation::TROWEXPANDSUB: case Operation::TCOLEXPANDSUB: return numeric::sub(t, a, b, f);
    case Operation::TROWEXPANDMUL: case Operation::TCOLEXPANDMUL: return numeric::mul(t, a, b, f);
    case Operation::TROWEXPANDDIV: case Operation::TCOLEXPANDDIV: return numeric::div(t, a, b, f);
    case Operation::TROWEXPANDMAX: case Operation::TCOLEXPANDMAX: return numeric::max(t, a, b, f);
    case Operation::TROWEXPANDMIN: case Operation::TCOLEXPANDMIN: return numeric::min(t, a, b, f);
    default: return numeric::exp(t, numeric::sub(t, a, b, f), f);  // EXPDIF, same type
  }
}

// The mixed EXPDIF widening: the value in FP32, exact; an FP16 NaN becomes the canonical FP32 NaN
// (NV if it signals), a BF16 encoding moves to the top half unchanged.
std::uint64_t widen(DataType t, std::uint64_t bits, NumericFlags& flags) {
  if (t == DataType::BF16) return bits << 16;
  if (numeric::is_nan(t, bits)) {
    if (numeric::is_signaling_nan(t, bits)) flags |= kFlagNV;
    return 0x7FC00000;
  }
  NumericFlags exact = 0;  // widening FP16 to FP32 raises nothing else
  return numeric::convert(t, bits, DataType::FP32, numeric::RoundingMode::RNE, false, exact);
}

}  // namespace

Values reduce(Operation op, const Tile& src) {
  const DataType t = src.desc.dtype;
  const bool row = row_form(op);
  const std::uint32_t lanes = row ? src.desc.valid_rows : src.desc.valid_cols;
  const std::uint32_t n = row ? src.desc.valid_cols : src.desc.valid_rows;
  Values out;
  for (std::uint32_t lane = 0; lane < lanes; ++lane) {
    auto x = [&](std::uint32_t i) { return row ? src.at(lane, i) : src.at(i, lane); };
    switch (op) {
      case Operation::TROWSUM: case Operation::TCOLSUM: {
        std::uint64_t acc = numeric::zero(t);
        for (std::uint32_t i = 0; i < n; ++i) acc = numeric::add(t, acc, x(i), out.flags);
        out.v.push_back(acc);
        break;
      }
      case Operation::TROWPROD: case Operation::TCOLPROD: {
        std::uint64_t acc = numeric::one(t);
        for (std::uint32_t i = 0; i < n; ++i) acc = numeric::mul(t, acc, x(i), out.flags);
        out.v.push_back(acc);
        break;
      }
      case Operation::TROWMAX: case Operation::TCOLMAX: case Operation::TROWMIN: case Operation::TCOLMIN: {
        const bool max = op == Operation::TROWMAX || op == Operation::TCOLMAX;
        std::uint64_t acc = x(0);
        for (std::uint32_t i = 1; i < n; ++i)
          acc = max ? numeric::max(t, acc, x(i), out.flags) : numeric::min(t, acc, x(i), out.flags);
        out.v.push_back(acc);
        break;
      }
      default: {  // ARGMAX / ARGMIN
        const bool max = op == Operation::TROWARGMAX || op == Operation::TCOLARGMAX;
        std::uint64_t acc = x(0);
        std::uint64_t index = 0;
        for (std::uint32_t i = 1; i < n; ++i) {
          const std::uint64_t next = max ? numeric::max(t, acc, x(i), out.flags) : numeric::min(t, acc, x(i), out.flags);
          if (next == x(i) && next != acc) index = i;
          acc = next;
        }
        out.v.push_back(index);
      }
    }
  }
  return out;
}

Values expand(Operation op, DataType dst_type, const Tile& src, const Tile& bcast, std::uint32_t valid_rows,
              std::uint32_t valid_cols) {
  const bool row = row_form(op);
  const bool copy = op == Operation::TROWEXPAND || op == Operation::TCOLEXPAND;
  const DataType t = bcast.desc.dtype;
  Values out;
  for (std::uint32_t r = 0; r < valid_rows; ++r)
    for (std::uint32_t c = 0; c < valid_cols; ++c) {
      const std::uint64_t b = row ? bcast.at(r, 0) : bcast.at(0, c);
      if (copy) {
        out.v.push_back(b);
      } else if (dst_type != t) {
        const std::uint64_t d = numeric::sub(DataType::FP32, widen(t, src.at(r, c), out.flags), widen(t, b, out.flags), out.flags);
        out.v.push_back(numeric::exp(DataType::FP32, d, out.flags));
      } else {
        out.v.push_back(binary(op, t, src.at(r, c), b, out.flags));
      }
    }
  return out;
}

Values tci(DataType t, std::uint32_t valid_cols, std::uint64_t start, std::uint64_t direction) {
  Values out;
  std::uint64_t v = start & element_mask(t);
  for (std::uint32_t k = 0; k < valid_cols; ++k) {
    out.v.push_back(v);
    v = (direction == 0 ? v + 1 : v - 1) & element_mask(t);
  }
  return out;
}

Values ttri(DataType t, std::uint32_t valid_rows, std::uint32_t valid_cols, std::uint64_t diagonal,
            std::uint64_t orientation) {
  Values out;
  const auto d = static_cast<std::int64_t>(diagonal);
  for (std::int64_t r = 0; r < valid_rows; ++r)
    for (std::int64_t c = 0; c < valid_cols; ++c) {
      const bool one = orientation == 0 ? c - r <= d : c - r >= d;
      out.v.push_back(one ? numeric::one(t) : 0);
    }
  return out;
}

Values concat(const Tile& left, const Tile& right) {
  Values out;
  for (std::uint32_t r = 0; r < left.desc.valid_rows; ++r) {
    for (std::uint32_t c = 0; c < left.desc.valid_cols; ++c) out.v.push_back(left.at(r, c));
    for (std::uint32_t c = 0; c < right.desc.valid_cols; ++c) out.v.push_back(right.at(r, c));
  }
  return out;
}

Values histogram(const Tile& src, const Tile& filter, unsigned byte_id) {
  Values out;
  auto byte = [](std::uint64_t v, unsigned k) { return (v >> (8 * k)) & 0xFF; };
  for (std::uint32_t r = 0; r < src.desc.valid_rows; ++r) {
    for (std::uint32_t bin = 0; bin < 256; ++bin) {
      std::uint64_t count = 0;
      for (std::uint32_t c = 0; c < src.desc.valid_cols; ++c) {
        const std::uint64_t v = src.at(r, c);
        bool accepted = byte(v, byte_id) <= bin;
        if (src.desc.dtype == DataType::U16 && byte_id == 0) accepted = accepted && byte(v, 1) == filter.at(r, 0);
        if (src.desc.dtype == DataType::U32)
          for (unsigned k = byte_id + 1; k < 4; ++k) accepted = accepted && byte(v, k) == filter.at(3 - k, 0);
        count += accepted ? 1 : 0;
      }
      out.v.push_back(count);
    }
  }
  return out;
}

std::vector<std::uint64_t> fillpad(const Tile& src, const TileDescriptor& dst, std::uint64_t scalar) {
  std::vector<std::uint64_t> out;
  for (std::uint32_t r = 0; r < dst.rows; ++r)
    for (std::uint32_t c = 0; c < dst.cols; ++c)
      out.push_back(r < src.desc.valid_rows && c < src.desc.valid_cols ? src.at(r, c) : scalar & element_mask(dst.dtype));
  return out;
}

FragmentData publish(const TileDescriptor& dst, const Values& values, std::optional<std::uint64_t> pad) {
  FragmentData out(dst.element_count(), pad);
  for (std::uint32_t r = 0; r < dst.valid_rows; ++r)
    for (std::uint32_t c = 0; c < dst.valid_cols; ++c)
      out[std::size_t{r} * dst.cols + c] = values.v[std::size_t{r} * dst.valid_cols + c];
  return out;
}

}  // namespace ptosim::model::sfu_ref
