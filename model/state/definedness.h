// SPDX-License-Identifier: BSD-3-Clause
// Definedness: one bit per logical element of a payload fragment (index r * cols + c), with fast
// whole-rectangle queries and updates — preflight checks a source's valid region on every bundle.
#pragma once

#include <cstdint>
#include <vector>

namespace ptosim::model {

class Definedness {
 public:
  Definedness() = default;
  /// `count` elements, all defined or all undefined.
  Definedness(std::uint64_t count, bool defined) { assign(count, defined); }

  /// Copies no words while the bits are a prefix: completion copies each result's definedness
  /// to every PE. Copies keep the cached answer: it depends on the bits alone, so a result's
  /// definedness copied into every PE is checked without a scan when a later bundle reads it.
  Definedness(const Definedness& o) { *this = o; }
  Definedness(Definedness&&) = default;
  Definedness& operator=(Definedness&&) = default;
  Definedness& operator=(const Definedness& o) {
    m_size = o.m_size;
    m_prefix_only = o.m_prefix_only;
    m_prefix = o.m_prefix;
    m_cache = o.m_cache;
    if (!m_prefix_only) m_words = o.m_words;
    return *this;
  }

  void assign(std::uint64_t count, bool defined) {
    // Inline: allocation clears every new tile on every PE.
    m_cache.valid = false;
    m_size = count;
    m_prefix_only = true;
    m_prefix = defined ? count : 0;
  }
  std::uint64_t size() const { return m_size; }
  bool test(std::uint64_t i) const { return (word(i >> 6) >> (i & 63)) & 1U; }
  void set(std::uint64_t i, bool defined) {
    write_words();
    const std::uint64_t bit = std::uint64_t{1} << (i & 63);
    m_words[i >> 6] = defined ? (m_words[i >> 6] | bit) : (m_words[i >> 6] & ~bit);
    m_cache.valid = false;
  }
  bool operator[](std::uint64_t i) const { return test(i); }

  /// Marks rows [0, rows) x columns [0, cols) of a tile with `stride` columns as defined.
  void set_rect(std::uint32_t rows, std::uint32_t cols, std::uint32_t stride);
  /// True when every element of rows [0, rows) x columns [0, cols) is defined.
  bool rect_defined(std::uint32_t rows, std::uint32_t cols, std::uint32_t stride) const {
    // Inline: preflight asks this of every source on every PE, and the cache nearly always answers.
    if (m_cache.valid && m_cache.rows == rows && m_cache.cols == cols && m_cache.stride == stride) return m_cache.defined;
    return scan_rect(rows, cols, stride);
  }
  /// The first undefined element of the rectangle in row-major order (index), or size() if none.
  std::uint64_t first_undefined_in_rect(std::uint32_t rows, std::uint32_t cols, std::uint32_t stride) const;

  bool operator==(const Definedness& o) const;
  bool operator!=(const Definedness& o) const { return !(*this == o); }

 private:
  std::uint64_t word(std::uint64_t w) const { return m_prefix_only ? prefix_word(w) : m_words[w]; }
  /// Word `w` of the bits while they are m_prefix set bits.
  std::uint64_t prefix_word(std::uint64_t w) const;
  /// Makes m_words hold the bits before they are changed in place.
  void write_words();
  /// rect_defined without the cache, caching its answer.
  bool scan_rect(std::uint32_t rows, std::uint32_t cols, std::uint32_t stride) const;
  /// True when bits [begin, end) are all set.
  bool range_set(std::uint64_t begin, std::uint64_t end) const;
  void set_range(std::uint64_t begin, std::uint64_t end);
  /// Calls visit(word index, mask of the range's bits in it) for each word bits [begin, end)
  /// touch, in order, while it returns true; false when a call returned false.
  template <typename Visit>
  bool each_word_of_range(std::uint64_t begin, std::uint64_t end, Visit visit) const;

  std::uint64_t m_size = 0;
  std::vector<std::uint64_t> m_words;
  // While set, bits [0, m_prefix) are defined, the rest undefined, and m_words (of any length)
  // does not hold them: allocation clears every new tile on each PE and completion defines whole
  // rows of it, so most fragments never need their words written.
  bool m_prefix_only = false;
  std::uint64_t m_prefix = 0;  ///< <= m_size
  // The last rect_defined answer (or the rectangle set_rect just defined): a source is checked on
  // every bundle that reads it.
  struct Cache {
    bool valid = false;
    std::uint32_t rows = 0, cols = 0, stride = 0;
    bool defined = false;
  };
  mutable Cache m_cache;
};

}  // namespace ptosim::model
