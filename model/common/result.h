// SPDX-License-Identifier: BSD-3-Clause
// Result<T>: a value or the Fault that prevented it. Checks return faults, never throw.
#pragma once

#include <optional>
#include <utility>
#include <variant>

#include "model/common/fault.h"

namespace ptosim::model {

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : m_v(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Fault fault) : m_v(std::move(fault)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return m_v.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(m_v); }
  const T& value() const& { return std::get<0>(m_v); }
  T&& value() && { return std::get<0>(std::move(m_v)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  const Fault& fault() const { return std::get<1>(m_v); }

 private:
  std::variant<T, Fault> m_v;
};

/// Result of a check that produces nothing but may fail.
using Status = std::optional<Fault>;

inline Fault fault(FaultCode code, std::string rule) { return Fault{code, std::move(rule)}; }

}  // namespace ptosim::model
