// SPDX-License-Identifier: BSD-3-Clause
#include "model/common/file_name.h"

#include <mutex>
#include <unordered_set>

namespace ptosim::model {

namespace {

/// The texts of every name interned so far. A set's elements never move, and a program names a
/// handful of files, so nothing is ever removed. Assemblers may run on several threads.
struct NamePool {
  std::mutex mutex;
  std::unordered_set<std::string> names;
};

NamePool& pool() {
  static NamePool* const p = new NamePool;  // never destroyed: names outlive every static user
  return *p;
}

const std::string* empty_name() {
  static const std::string* const e = new std::string;
  return e;
}

const std::string* intern(std::string_view name) {
  if (name.empty()) return empty_name();
  NamePool& p = pool();
  const std::lock_guard<std::mutex> lock(p.mutex);
  return &*p.names.emplace(name).first;
}

}  // namespace

FileName::FileName() : m_text(empty_name()) {}

FileName::FileName(std::string_view name) : m_text(intern(name)) {}

}  // namespace ptosim::model
