// SPDX-License-Identifier: BSD-3-Clause
#include "platforms/shown_text.h"

namespace ptosim::platforms {

namespace {

/// Bytes of the well-formed UTF-8 sequence at `text[i]` (RFC 3629: no overlong forms, surrogates
/// or code points past U+10FFFF) that is not a control or bidirectional formatting character, or
/// 0 if none starts there.
std::size_t printable_utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t n = 0;
  unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    n = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    n = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    n = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  }
  if (n == 0 || i + n > text.size() || byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  if (lead == 0xC2 && byte(i + 1) <= 0x9F) return 0;  // C1 controls, U+0080..U+009F
  // Bidirectional embeddings, overrides and isolates (U+202A..U+202E, U+2066..U+2069) reorder
  // what follows them on a terminal.
  if (lead == 0xE2 && ((byte(i + 1) == 0x80 && byte(i + 2) >= 0xAA && byte(i + 2) <= 0xAE) ||
                       (byte(i + 1) == 0x81 && byte(i + 2) >= 0xA6 && byte(i + 2) <= 0xA9)))
    return 0;
  return n;
}

/// `text` with the bytes that are not printable written \xNN.
std::string escaped(std::string_view text) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c >= 0x20 && c < 0x7F) || c == '\t') {
      out += static_cast<char>(c);
      ++i;
    } else if (const std::size_t n = c >= 0x80 ? printable_utf8_length(text, i) : 0; n != 0) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
      ++i;
    }
  }
  return out;
}

/// Where to cut near `at` without splitting a UTF-8 sequence (moving back over continuation bytes).
std::size_t boundary(std::string_view text, std::size_t at) {
  while (at > 0 && at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) --at;
  return at;
}

}  // namespace

std::string shown_text(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return escaped(text);
  // Keep both ends: a message starts with where (a path, line and column) and ends with why.
  const std::size_t head = boundary(text, max_bytes / 2);
  const std::size_t tail = boundary(text, text.size() - max_bytes / 2);
  return escaped(text.substr(0, head)) + " ... (" + std::to_string(tail - head) + " bytes left out) ... " +
         escaped(text.substr(tail));
}

}  // namespace ptosim::platforms
