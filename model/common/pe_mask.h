// SPDX-License-Identifier: BSD-3-Clause
// PE participation: the 4-bit semantic mask (PE0 is the most significant bit) and the 3-bit PEMode.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ptosim::model {

constexpr int kPeCount = 4;

/// Semantic PE mask; bit (3 - pe) is set when PE `pe` participates ("1000" = PE0 only).
class PeMask {
 public:
  constexpr PeMask() = default;
  constexpr explicit PeMask(std::uint8_t bits) : m_bits(bits & 0xF) {}

  constexpr std::uint8_t bits() const { return m_bits; }
  constexpr bool has(int pe) const { return (m_bits >> (3 - pe)) & 1U; }
  constexpr bool empty() const { return m_bits == 0; }
  constexpr int count() const { return ((m_bits >> 3) & 1) + ((m_bits >> 2) & 1) + ((m_bits >> 1) & 1) + (m_bits & 1); }
  constexpr bool operator==(PeMask o) const { return m_bits == o.m_bits; }
  constexpr bool operator!=(PeMask o) const { return m_bits != o.m_bits; }

  /// "1101"-style text, PE0 first.
  std::string to_string() const;
  /// Parses four '0'/'1' characters, PE0 first.
  static std::optional<PeMask> parse(std::string_view text);

  /// The mask a 3-bit PEMode encodes (ADR 0096): 000 none, 001 PE0, 010 PE1, 011 PE2, 100 PE3,
  /// 101 PE0+PE1, 110 PE0+PE1+PE2, 111 all.
  static PeMask from_pe_mode(unsigned pe_mode);
  /// The PEMode encoding this mask, if it is one of the eight encodable masks.
  std::optional<unsigned> pe_mode() const;

  static constexpr PeMask all() { return PeMask(0xF); }

 private:
  std::uint8_t m_bits = 0;
};

}  // namespace ptosim::model
