// SPDX-License-Identifier: BSD-3-Clause
#include "model/state/definedness.h"

#include <algorithm>
#include <cstring>

namespace ptosim::model {

namespace {

// Bits [lo, hi) of one word, 0 <= lo < hi <= 64.
std::uint64_t word_mask(unsigned lo, unsigned hi) {
  const std::uint64_t upper = hi == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << hi) - 1;
  return upper & ~((std::uint64_t{1} << lo) - 1);
}

}  // namespace

std::uint64_t Definedness::prefix_word(std::uint64_t w) const {
  const std::uint64_t full = m_prefix / 64;
  if (w < full) return ~std::uint64_t{0};
  if (w == full && (m_prefix & 63)) return word_mask(0, static_cast<unsigned>(m_prefix & 63));
  return 0;
}

void Definedness::write_words() {
  if (!m_prefix_only) return;
  m_prefix_only = false;
  m_words.resize((m_size + 63) / 64);
  if (m_words.empty()) return;
  // Byte patterns: memset beats a word loop on tiles of thousands of elements.
  std::uint64_t* const words = m_words.data();
  std::uint64_t w = m_prefix / 64;
  std::memset(words, 0xFF, w * sizeof(std::uint64_t));
  if (m_prefix & 63) words[w++] = word_mask(0, static_cast<unsigned>(m_prefix & 63));
  std::memset(words + w, 0, (m_words.size() - w) * sizeof(std::uint64_t));
}

bool Definedness::operator==(const Definedness& o) const {
  if (m_size != o.m_size) return false;
  for (std::uint64_t w = 0; w < (m_size + 63) / 64; ++w)
    if (word(w) != o.word(w)) return false;
  return true;
}

template <typename Visit>
bool Definedness::each_word_of_range(std::uint64_t begin, std::uint64_t end, Visit visit) const {
  if (begin >= end) return true;
  const std::uint64_t first = begin >> 6, last = (end - 1) >> 6;
  const unsigned lo = static_cast<unsigned>(begin & 63), hi = static_cast<unsigned>((end - 1) & 63) + 1;
  if (first == last) return visit(first, word_mask(lo, hi));
  if (!visit(first, word_mask(lo, 64))) return false;
  // Whole words in between: a tight loop, as tiles run to thousands of elements.
  for (std::uint64_t w = first + 1; w < last; ++w)
    if (!visit(w, ~std::uint64_t{0})) return false;
  return visit(last, word_mask(0, hi));
}

bool Definedness::range_set(std::uint64_t begin, std::uint64_t end) const {
  return each_word_of_range(begin, end, [this](std::uint64_t w, std::uint64_t m) { return (word(w) & m) == m; });
}

void Definedness::set_range(std::uint64_t begin, std::uint64_t end) {
  each_word_of_range(begin, end, [this](std::uint64_t w, std::uint64_t m) {
    m_words[w] |= m;
    return true;
  });
}

void Definedness::set_rect(std::uint32_t rows, std::uint32_t cols, std::uint32_t stride) {
  const std::uint64_t n = std::uint64_t{rows} * stride;
  if (cols == stride && m_prefix_only && n <= m_size) {
    m_prefix = std::max(m_prefix, n);  // whole rows from the start: the bits stay a prefix
  } else {
    write_words();
    if (cols == stride) {
      set_range(0, n);
    } else {
      for (std::uint32_t r = 0; r < rows; ++r) set_range(std::uint64_t{r} * stride, std::uint64_t{r} * stride + cols);
    }
  }
  // Every bit of the rectangle is now set, so rect_defined's answer is its size check alone.
  m_cache = Cache{true, rows, cols, stride, n <= m_size};
}

bool Definedness::scan_rect(std::uint32_t rows, std::uint32_t cols, std::uint32_t stride) const {
  bool defined = std::uint64_t{rows} * stride <= m_size;
  if (defined && m_prefix_only) {
    // No element of the rectangle lies past its last one, [rows - 1, cols - 1].
    defined = rows == 0 || cols == 0 || std::uint64_t{rows - 1} * stride + cols <= m_prefix;
  } else if (defined && cols == stride) {
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
