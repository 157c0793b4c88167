// SPDX-License-Identifier: BSD-3-Clause
// BoundedVector: a list of at most N elements stored in place. Per-bundle lists (bindings, operand
// selectors) have small architectural bounds; keeping them off the heap saves an allocation per
// list on every bundle.
#pragma once

#include <array>
#include <cstddef>

namespace ptosim::model {

template <typename T, std::size_t N>
class BoundedVector {
 public:
  static constexpr std::size_t capacity() { return N; }
  std::size_t size() const { return m_size; }
  bool empty() const { return m_size == 0; }

  /// Precondition: size() < capacity() (callers enforce the architectural bound first).
  void push_back(const T& value) { m_items[m_size++] = value; }

  T& operator[](std::size_t i) { return m_items[i]; }
  const T& operator[](std::size_t i) const { return m_items[i]; }
  T& front() { return m_items[0]; }
  const T& front() const { return m_items[0]; }
  T& back() { return m_items[m_size - 1]; }
  const T& back() const { return m_items[m_size - 1]; }

  T* begin() { return m_items.data(); }
  T* end() { return m_items.data() + m_size; }
  const T* begin() const { return m_items.data(); }
  const T* end() const { return m_items.data() + m_size; }

 private:
  std::array<T, N> m_items{};
  std::size_t m_size = 0;
};

}  // namespace ptosim::model
