// SPDX-License-Identifier: BSD-3-Clause
#include "model/common/pe_mask.h"

namespace ptosim::model {

namespace {
constexpr std::uint8_t kModeMasks[8] = {0x0, 0x8, 0x4, 0x2, 0x1, 0xC, 0xE, 0xF};
}

std::string PeMask::to_string() const {
  std::string s(4, '0');
  for (int pe = 0; pe < kPeCount; ++pe) s[pe] = has(pe) ? '1' : '0';
  return s;
}

std::optional<PeMask> PeMask::parse(std::string_view text) {
  if (text.size() != 4) return std::nullopt;
  std::uint8_t bits = 0;
  for (char c : text) {
    if (c != '0' && c != '1') return std::nullopt;
    bits = static_cast<std::uint8_t>((bits << 1) | (c == '1'));
  }
  return PeMask(bits);
}

PeMask PeMask::from_pe_mode(unsigned pe_mode) { return PeMask(kModeMasks[pe_mode & 7]); }

std::optional<unsigned> PeMask::pe_mode() const {
  for (unsigned mode = 0; mode < 8; ++mode)
    if (kModeMasks[mode] == m_bits) return mode;
  return std::nullopt;
}

}  // namespace ptosim::model
