// SPDX-License-Identifier: BSD-3-Clause
// RingQueue: a first-in first-out queue on a ring that doubles when full. The dispatcher's reorder
// buffer and issue queues are bounded and touched several times per bundle, where a deque's size()
// and block bookkeeping cost more than the bundle's own work there.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace ptosim::engines {

template <typename T>
class RingQueue {
 public:
  bool empty() const { return m_size == 0; }
  std::size_t size() const { return m_size; }
  T& front() { return m_items[m_head]; }

  void push_back(T item) {
    if (m_size == m_items.size()) grow();
    m_items[wrap(m_head + m_size)] = std::move(item);
    ++m_size;
  }
  /// Leaves a default T in the freed place, releasing what the front held.
  void pop_front() {
    m_items[m_head] = T();
    m_head = wrap(m_head + 1);
    --m_size;
  }

 private:
  /// Position `i` on the ring (its size is a power of two: 8, doubled).
  std::size_t wrap(std::size_t i) const { return i & (m_items.size() - 1); }
  void grow() {
    std::vector<T> items(m_items.empty() ? 8 : 2 * m_items.size());
    for (std::size_t i = 0; i < m_size; ++i) items[i] = std::move(m_items[wrap(m_head + i)]);
    m_items = std::move(items);
    m_head = 0;
  }

  std::vector<T> m_items;  ///< the ring: m_size items from m_head on, wrapping
  std::size_t m_head = 0;
  std::size_t m_size = 0;
};

}  // namespace ptosim::engines
