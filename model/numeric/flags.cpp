// SPDX-License-Identifier: BSD-3-Clause
#include "model/numeric/flags.h"

namespace ptosim::model {

namespace {
constexpr const char* kNames[5] = {"NV", "DZ", "OF", "UF", "NX"};
}

std::vector<std::string> flag_names(NumericFlags flags) {
  std::vector<std::string> names;
  for (unsigned bit = 0; bit < 5; ++bit)
    if (flags & (1U << bit)) names.emplace_back(kNames[bit]);
  return names;
}

std::optional<NumericFlags> flag_from_name(std::string_view name) {
  for (unsigned bit = 0; bit < 5; ++bit)
    if (name == kNames[bit]) return static_cast<NumericFlags>(1U << bit);
  return std::nullopt;
}

}  // namespace ptosim::model
