// SPDX-License-Identifier: BSD-3-Clause
// FileName: the name of a source file, its text kept once per process. Every instruction and every
// retired bundle carries the location it came from, so a location's copy must not copy the name.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

namespace ptosim::model {

class FileName {
 public:
  /// The empty name (no lookup: every default location has it).
  FileName();
  /// Interns `name`: equal names share one text for the rest of the process. Implicit, as a name
  /// is its text; interning takes a lock, so keep one FileName per file, not one per line.
  FileName(std::string_view name);
  FileName(const std::string& name) : FileName(std::string_view(name)) {}
  FileName(const char* name) : FileName(std::string_view(name)) {}

  const std::string& str() const { return *m_text; }
  bool empty() const { return m_text->empty(); }

  friend bool operator==(const FileName& a, std::string_view b) { return *a.m_text == b; }
  friend bool operator!=(const FileName& a, std::string_view b) { return *a.m_text != b; }
  friend std::ostream& operator<<(std::ostream& os, const FileName& f) { return os << *f.m_text; }

 private:
  const std::string* m_text;
};

}  // namespace ptosim::model
