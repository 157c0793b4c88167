// SPDX-License-Identifier: BSD-3-Clause
#include "platforms/shown_text.h"

namespace ptosim::platforms {

namespace {

/// Bytes of the UTF-8 sequence at `text[i]`, or 0 if none starts there (a stray continuation
/// byte, a lead byte outside C2..F4, or continuation bytes missing).
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  const std::size_t n = lead >= 0xC2 && lead <= 0xDF ? 2 : lead >= 0xE0 && lead <= 0xEF ? 3 : lead >= 0xF0 && lead <= 0xF4 ? 4 : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  return n;
}

}  // namespace

std::string shown_text(std::string_view text, std::size_t max_bytes) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  std::size_t i = 0;
  while (i < text.size() && out.size() < max_bytes) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
      ++i;
    } else if (const std::size_t n = c >= 0x80 ? utf8_length(text, i) : 0; n != 0) {
      out.append(text.substr(i, n));
      i += n;
    } else if (c == '\t') {
      out += '\t';
      ++i;
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
      ++i;
    }
  }
  if (i < text.size()) out += "... (" + std::to_string(text.size() - i) + " more bytes)";
  return out;
}

}  // namespace ptosim::platforms
