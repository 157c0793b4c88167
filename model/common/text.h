// SPDX-License-Identifier: BSD-3-Clause
// Small text helpers shared by the parsers of model/ (mnemonics, type names, value literals).
#pragma once

#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ptosim::model {

// ASCII only, inline: mnemonics and names are ASCII, and the assembler asks these of every
// character of large programs (<cctype>'s functions are calls through the locale).
constexpr char ascii_upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }
constexpr bool ascii_digit(char c) { return c >= '0' && c <= '9'; }
constexpr bool ascii_alnum(char c) { return ascii_digit(c) || (ascii_upper(c) >= 'A' && ascii_upper(c) <= 'Z'); }

/// `v` as a 0x-prefixed lower-case hexadecimal literal ("0x1f"), as fault texts and messages show
/// encodings and offsets.
inline std::string hex_literal(std::uint64_t v) {
  char text[2 + 16] = {'0', 'x'};
  return std::string(text, std::to_chars(text + 2, text + sizeof text, v, 16).ptr);
}

/// ASCII case-insensitive equality.
inline bool iequal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (ascii_upper(a[i]) != ascii_upper(b[i])) return false;
  return true;
}

/// The names of a table's entries (`name(entry)`, a C string) as string views, measured at
/// compile time: the assembler looks names up in such tables on every line, and a lookup that
/// compares lengths first rejects most entries at once instead of measuring each name again.
template <typename Entry, std::size_t N, typename Name>
constexpr std::array<std::string_view, N> names_of(const Entry (&table)[N], Name name) {
  std::array<std::string_view, N> names{};
  for (std::size_t i = 0; i < N; ++i) names[i] = name(table[i]);
  return names;
}

/// A whole text that is a decimal or 0x-prefixed hexadecimal number of 64 bits at most: every
/// parser of numbers in model/ and the program files reads them alike.
inline std::optional<std::uint64_t> parse_unsigned(std::string_view text) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

/// A whole text of decimal digits only (no sign, no 0x), of 64 bits at most: register numbers.
inline std::optional<std::uint64_t> parse_decimal(std::string_view text) {
  for (const char c : text)
    if (!ascii_digit(c)) return std::nullopt;
  return parse_unsigned(text);
}

/// `count` of `unit` in bytes: B (1), K, KB or KiB (1024), in any case; nothing for another unit,
/// or a size too large to count. The assembler's byte sizes and a program file's .tile capacity
/// read sizes alike.
inline std::optional<std::uint64_t> bytes_in(std::uint64_t count, std::string_view unit) {
  std::uint64_t scale = 0;
  if (iequal(unit, "B"))
    scale = 1;
  else if (iequal(unit, "K") || iequal(unit, "KB") || iequal(unit, "KiB"))
    scale = 1024;
  if (scale == 0 || count > UINT64_MAX / scale) return std::nullopt;
  return count * scale;
}

/// `s` in upper case (ASCII).
inline std::string upper(std::string_view s) {
  std::string u(s);
  for (char& c : u) c = ascii_upper(c);
  return u;
}

}  // namespace ptosim::model
