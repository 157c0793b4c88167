// SPDX-License-Identifier: BSD-3-Clause
// Format descriptors and exact decoding (asl/arch/data-types/formats/*.asl, numerics.md §2).
#include "model/numeric/float_format.h"

#include <array>

#include "model/numeric/decoded.h"
#include "model/numeric/wide_int.h"

namespace ptosim::model::numeric {

namespace {

constexpr std::uint64_t kAll64 = ~std::uint64_t{0};

// clang-format off
// type, kind, width, payload, sign, ebits, fbits, fshift, bias, emin, emax, min-normal fbits,
// inf, nan, signed zero, canonical NaN, max finite, +inf
constexpr FloatFormat kFormats[] = {
  {DataType::FP64, FormatKind::Binary, 64, kAll64, 63, 11, 52, 0, 1023, -1022, 1023, 52,
   true, NanStyle::Ieee, true, 0x7FF8000000000000, 0x7FEFFFFFFFFFFFFF, 0x7FF0000000000000},
  {DataType::FP32, FormatKind::Binary, 32, 0xFFFFFFFF, 31, 8, 23, 0, 127, -126, 127, 23,
   true, NanStyle::Ieee, true, 0x7FC00000, 0x7F7FFFFF, 0x7F800000},
  {DataType::TF32, FormatKind::Binary, 32, 0xFFFFE000, 31, 8, 10, 13, 127, -126, 127, 10,
   true, NanStyle::Ieee, true, 0x7FC00000, 0x7F7FE000, 0x7F800000},
  {DataType::HF32, FormatKind::Binary, 32, 0xFFFFF000, 31, 8, 11, 12, 127, -126, 127, 11,
   true, NanStyle::Ieee, true, 0x7FC00000, 0x7F7FF000, 0x7F800000},
  {DataType::FP16, FormatKind::Binary, 16, 0xFFFF, 15, 5, 10, 0, 15, -14, 15, 10,
   true, NanStyle::Ieee, true, 0x7E00, 0x7BFF, 0x7C00},
  {DataType::BF16, FormatKind::Binary, 16, 0xFFFF, 15, 8, 7, 0, 127, -126, 127, 7,
   true, NanStyle::Ieee, true, 0x7FC0, 0x7F7F, 0x7F80},
  {DataType::HiF8, FormatKind::HiF8, 8, 0xFF, 7, 0, 0, 0, 0, -15, 15, 1,
   true, NanStyle::Single, false, 0x80, 0x6E, 0x6F},
  {DataType::E4M3, FormatKind::Binary, 8, 0xFF, 7, 4, 3, 0, 7, -6, 8, 3,
   false, NanStyle::E4M3, true, 0x7F, 0x7E, 0},
  {DataType::E5M2, FormatKind::Binary, 8, 0xFF, 7, 5, 2, 0, 15, -14, 15, 2,
   true, NanStyle::Ieee, true, 0x7E, 0x7B, 0x7C},
  {DataType::E3M2, FormatKind::Binary, 8, 0x3F, 5, 3, 2, 0, 3, -2, 4, 2,
   false, NanStyle::None, true, 0, 0x1F, 0},
  {DataType::E2M3, FormatKind::Binary, 8, 0x3F, 5, 2, 3, 0, 1, 0, 2, 3,
   false, NanStyle::None, true, 0, 0x1F, 0},
  {DataType::E2M1X2, FormatKind::Binary, 4, 0xF, 3, 2, 1, 0, 1, 0, 2, 1,
   false, NanStyle::None, true, 0, 0x7, 0},
  {DataType::E1M2X2, FormatKind::Binary, 4, 0xF, 3, 1, 2, 0, 1, 0, 0, 2,
   false, NanStyle::None, true, 0, 0x7, 0},
  {DataType::E8M0, FormatKind::E8M0, 8, 0xFF, 0, 8, 0, 0, 127, -127, 127, 0,
   false, NanStyle::Single, false, 0xFF, 0xFE, 0},
  {DataType::HiF4X2, FormatKind::Binary, 4, 0xF, 3, 1, 2, 0, 1, 0, 0, 2,
   false, NanStyle::None, true, 0, 0x7, 0},
};
// clang-format on

constexpr std::array<std::int8_t, 32> kFormatIndex = [] {
  std::array<std::int8_t, 32> index{};
  for (auto& i : index) i = -1;
  for (int i = 0; i < static_cast<int>(sizeof(kFormats) / sizeof(kFormats[0])); ++i)
    index[static_cast<unsigned>(kFormats[i].type)] = static_cast<std::int8_t>(i);
  return index;
}();

Decoded finite(bool negative, std::uint64_t sig, int exp) { return {ValueClass::Finite, negative, sig, exp}; }

Decoded decode_binary(const FloatFormat& f, std::uint64_t bits) {
  bits &= f.payload;
  const bool negative = ((bits >> f.sign_bit) & 1) != 0;
  const std::uint64_t e = (bits >> (f.frac_shift + f.frac_bits)) & low_mask(f.exp_bits);
  const std::uint64_t m = (bits >> f.frac_shift) & low_mask(f.frac_bits);
  const std::uint64_t e_all = low_mask(f.exp_bits);
  if (f.nan == NanStyle::Ieee && e == e_all) {
    if (m == 0) return {ValueClass::Infinity, negative, 0, 0};
    return {(m >> (f.frac_bits - 1)) != 0 ? ValueClass::QuietNaN : ValueClass::SignalingNaN, negative, 0, 0};
  }
  if (f.nan == NanStyle::E4M3 && e == e_all && m == low_mask(f.frac_bits))
    return {ValueClass::QuietNaN, negative, 0, 0};
  if (e == 0) {
    if (m == 0) return {ValueClass::Zero, negative, 0, 0};
    return finite(negative, m, f.emin - static_cast<int>(f.frac_bits));
  }
  return finite(negative, m | (std::uint64_t{1} << f.frac_bits),
                static_cast<int>(e) - f.bias - static_cast<int>(f.frac_bits));
}

Decoded decode_hif8_slow(std::uint64_t bits) {
  bits &= 0xFF;
  if (bits == 0x80) return {ValueClass::QuietNaN, true, 0, 0};
  const bool negative = (bits & 0x80) != 0;
  if ((bits & 0x7F) == 0x6F) return {ValueClass::Infinity, negative, 0, 0};
  const unsigned body = bits & 0x7F;
  if (body == 0) return {ValueClass::Zero, false, 0, 0};
  if (body <= 7) return finite(negative, 1, static_cast<int>(body) - 23);
  const bool se = (body & 0x10) != 0;
  if (body <= 15) return finite(negative, 8 | (body & 7), -3);
  if (body <= 31) return finite(negative, 8 | (body & 7), ((body & 8) ? -1 : 1) - 3);
  if (body <= 63) {
    const int mag = 2 + static_cast<int>((body >> 3) & 1);
    return finite(negative, 8 | (body & 7), (se ? -mag : mag) - 3);
  }
  if (body <= 95) {
    const int mag = 4 + static_cast<int>((body >> 2) & 3);
    return finite(negative, 4 | (body & 3), (se ? -mag : mag) - 2);
  }
  const int mag = 8 + static_cast<int>((body >> 1) & 7);
  return finite(negative, 2 | (body & 1), (se ? -mag : mag) - 1);
}

const std::array<Decoded, 256>& hif8_table() {
  static const std::array<Decoded, 256> table = [] {
    std::array<Decoded, 256> t{};
    for (unsigned i = 0; i < 256; ++i) t[i] = decode_hif8_slow(i);
    return t;
  }();
  return table;
}

}  // namespace

const FloatFormat* float_format(DataType t) {
  const int i = kFormatIndex[static_cast<unsigned>(t) & 31];
  return i < 0 ? nullptr : &kFormats[i];
}

std::uint64_t hif8::encode_magnitude(std::uint64_t t, int q) {
  const int e = bit_length(t) - 1 + q;
  if (e < -15) return static_cast<std::uint64_t>(e + 23);  // denormal 2^e
  const int m = static_cast<int>(frac_bits(e));
  const int canonical_q = e - m;
  const std::uint64_t sig = q >= canonical_q ? t << (q - canonical_q) : t >> (canonical_q - q);
  const std::uint64_t mant = sig - (std::uint64_t{1} << m);
  const int a = e < 0 ? -e : e;
  const std::uint64_t se = e < 0 ? 1 : 0;
  if (a == 0) return 0x08 | mant;
  if (a == 1) return 0x10 | (se << 3) | mant;
  if (a <= 3) return 0x20 | (se << 4) | (static_cast<std::uint64_t>(a - 2) << 3) | mant;
  if (a <= 7) return 0x40 | (se << 4) | (static_cast<std::uint64_t>(a - 4) << 2) | mant;
  return 0x60 | (se << 4) | (static_cast<std::uint64_t>(a - 8) << 1) | mant;
}

Decoded decode(DataType t, std::uint64_t bits) {
  const FloatFormat* f = float_format(t);
  if (f == nullptr) {
    const unsigned w = element_bits(t);
    bits &= low_mask(w);
    if (bits == 0) return {ValueClass::Zero, false, 0, 0};
    if (is_signed_integer(t) && ((bits >> (w - 1)) & 1) != 0) {
      return finite(true, (~bits + 1) & low_mask(w), 0);
    }
    return finite(false, bits, 0);
  }
  switch (f->kind) {
    case FormatKind::Binary: return decode_binary(*f, bits);
    case FormatKind::HiF8: return hif8_table()[bits & 0xFF];
    case FormatKind::E8M0:
      bits &= 0xFF;
      if (bits == 0xFF) return {ValueClass::QuietNaN, false, 0, 0};
      return finite(false, 1, static_cast<int>(bits) - 127);
  }
  return {};
}

}  // namespace ptosim::model::numeric
