// SPDX-License-Identifier: BSD-3-Clause
#include "model/state/definedness.h"

namespace ptosim::model {

namespace {

// Bits [lo, hi) of one word, 0 <= lo < hi <= 64.
std::uint64_t word_mask(unsigned lo, unsigned hi) {
  const std::uint64_t upper = hi == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << hi) - 1;
  return upper & ~((std::uint64_t{1} << lo) - 1);
}

}  // namespace

void Definedness::assign(std::uint64_t count, bool defined) {
  m_cache.valid = false;
  m_size = count;
  m_words.assign((count + 63) / 64, defined ? ~std::uint64_t{0} : 0);
  if (defined && (count & 63)) m_words.back() = word_mask(0, static_cast<unsigned>(count & 63));
}

bool Definedness::range_set(std::uint64_t begin, std::uint64_t end) const {
  while (begin < end) {
    const std::uint64_t w = begin >> 6;
    const unsigned lo = static_cast<unsigned>(begin & 63);
    const unsigned hi = end - (w << 6) >= 64 ? 64 : static_cast<unsigned>(end - (w << 6));
    const std::uint64_t m = word_mask(lo, hi);
    if ((m_words[w] & m) != m) return false;
    begin = (w << 6) + hi;
  }
  return true;
}

void Definedness::set_range(std::uint64_t begin, std::uint64_t end) {
  while (begin < end) {
    const std::uint64_t w = begin >> 6;
    const unsigned lo = static_cast<unsigned>(begin & 63);
    const unsigned hi = end - (w << 6) >= 64 ? 64 : static_cast<unsigned>(end - (w << 6));
    m_words[w] |= word_mask(lo, hi);
    begin = (w << 6) + hi;
  }
}

void Definedness::set_rect(std::uint32_t rows, std::uint32_t cols, std::uint32_t stride) {
  if (cols == stride) {
    set_range(0, std::uint64_t{rows} * stride);
  } else {
    for (std::uint32_t r = 0; r < rows; ++r) set_range(std::uint64_t{r} * stride, std::uint64_t{r} * stride + cols);
  }
  // Every bit of the rectangle is now set, so rect_defined's answer is its size check alone.
  m_cache = Cache{true, rows, cols, stride, std::uint64_t{rows} * stride <= m_size};
}

bool Definedness::rect_defined(std::uint32_t rows, std::uint32_t cols, std::uint32_t stride) const {
  if (m_cache.valid && m_cache.rows == rows && m_cache.cols == cols && m_cache.stride == stride) return m_cache.defined;
  bool defined = std::uint64_t{rows} * stride <= m_size;
  if (defined && cols == stride) {
    defined = range_set(0, std::uint64_t{rows} * stride);
  } else {
    for (std::uint32_t r = 0; r < rows && defined; ++r)
      defined = range_set(std::uint64_t{r} * stride, std::uint64_t{r} * stride + cols);
  }
  m_cache = Cache{true, rows, cols, stride, defined};
  return defined;
}

std::uint64_t Definedness::first_undefined_in_rect(std::uint32_t rows, std::uint32_t cols, std::uint32_t stride) const {
  for (std::uint32_t r = 0; r < rows; ++r)
    for (std::uint32_t c = 0; c < cols; ++c) {
      const std::uint64_t i = std::uint64_t{r} * stride + c;
      if (i >= m_size || !test(i)) return i;
    }
  return m_size;
}

}  // namespace ptosim::model
