// SPDX-License-Identifier: BSD-3-Clause
// The 25 PTO DataTypes of the 5-bit DataType field: codes, names, widths and classes.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ptosim::model {

/// DataType codes as encoded in BSTART[31:27] and B.DATR[24:20]. Codes 15, 21..23, 29, 30 are
/// reserved; 31 (DTYPE_NONE) is a B.DATR sentinel, not a type.
enum class DataType : std::uint8_t {
  FP64 = 0, FP32 = 1, TF32 = 2, HF32 = 3, FP16 = 4, BF16 = 5, HiF8 = 6, E4M3 = 7, E5M2 = 8,
  E3M2 = 9, E2M3 = 10, E2M1X2 = 11, E1M2X2 = 12, E8M0 = 13, HiF4X2 = 14,
  S64 = 16, S32 = 17, S16 = 18, S8 = 19, S4X2 = 20,
  U64 = 24, U32 = 25, U16 = 26, U8 = 27, U4X2 = 28,
};

constexpr unsigned kDataTypeNoneCode = 31;
constexpr int kDataTypeCount = 25;

enum class TypeClass : std::uint8_t { Float, Scale, Signed, Unsigned };

/// Every assigned DataType in code order.
extern const DataType kAllDataTypes[kDataTypeCount];

/// The DataType a 5-bit code names; nullopt for reserved codes and for 31 (DTYPE_NONE).
std::optional<DataType> data_type_from_code(unsigned code);
/// The DataType a spec name names ("FP32", "HiF8", "E2M1X2", ...); case-sensitive as the spec spells it,
/// with a case-insensitive fallback.
std::optional<DataType> data_type_from_name(std::string_view name);

namespace data_type_detail {

struct Info {
  DataType type;
  const char* name;
  unsigned bits;
  TypeClass cls;
};

// Facts from asl/arch/data-types/tile-data-types.asl and the format units (spec/numerics.md §1).
// In the header: element widths are asked per element and per operand of every bundle.
inline constexpr Info kInfo[kDataTypeCount] = {
    {DataType::FP64, "FP64", 64, TypeClass::Float},     {DataType::FP32, "FP32", 32, TypeClass::Float},
    {DataType::TF32, "TF32", 32, TypeClass::Float},     {DataType::HF32, "HF32", 32, TypeClass::Float},
    {DataType::FP16, "FP16", 16, TypeClass::Float},     {DataType::BF16, "BF16", 16, TypeClass::Float},
    {DataType::HiF8, "HiF8", 8, TypeClass::Float},      {DataType::E4M3, "E4M3", 8, TypeClass::Float},
    {DataType::E5M2, "E5M2", 8, TypeClass::Float},      {DataType::E3M2, "E3M2", 8, TypeClass::Float},
    {DataType::E2M3, "E2M3", 8, TypeClass::Float},      {DataType::E2M1X2, "E2M1X2", 4, TypeClass::Float},
    {DataType::E1M2X2, "E1M2X2", 4, TypeClass::Float},  {DataType::E8M0, "E8M0", 8, TypeClass::Scale},
    {DataType::HiF4X2, "HiF4X2", 4, TypeClass::Float},  {DataType::S64, "S64", 64, TypeClass::Signed},
    {DataType::S32, "S32", 32, TypeClass::Signed},      {DataType::S16, "S16", 16, TypeClass::Signed},
    {DataType::S8, "S8", 8, TypeClass::Signed},         {DataType::S4X2, "S4X2", 4, TypeClass::Signed},
    {DataType::U64, "U64", 64, TypeClass::Unsigned},    {DataType::U32, "U32", 32, TypeClass::Unsigned},
    {DataType::U16, "U16", 16, TypeClass::Unsigned},    {DataType::U8, "U8", 8, TypeClass::Unsigned},
    {DataType::U4X2, "U4X2", 4, TypeClass::Unsigned},
};

// Index into kInfo by code (-1 = reserved), so per-element queries are one load.
inline constexpr std::array<std::int8_t, 32> kIndexByCode = [] {
  std::array<std::int8_t, 32> index{};
  for (auto& i : index) i = -1;
  for (int i = 0; i < kDataTypeCount; ++i) index[static_cast<unsigned>(kInfo[i].type)] = static_cast<std::int8_t>(i);
  return index;
}();

constexpr const Info& info(DataType t) { return kInfo[kIndexByCode[static_cast<unsigned>(t) & 31]]; }

}  // namespace data_type_detail

constexpr const char* data_type_name(DataType t) { return data_type_detail::info(t).name; }
constexpr unsigned data_type_code(DataType t) { return static_cast<unsigned>(t); }

/// Bits per logical element: 64, 32, 16, 8 or 4 (packed X2 types count one nibble per lane;
/// E3M2/E2M3 use an 8-bit carrier).
constexpr unsigned element_bits(DataType t) { return data_type_detail::info(t).bits; }
constexpr TypeClass type_class(DataType t) { return data_type_detail::info(t).cls; }
inline bool is_float(DataType t) { return type_class(t) == TypeClass::Float; }
inline bool is_integer(DataType t) {
  return type_class(t) == TypeClass::Signed || type_class(t) == TypeClass::Unsigned;
}
inline bool is_signed_integer(DataType t) { return type_class(t) == TypeClass::Signed; }
/// Two 4-bit lanes per byte (E2M1X2, E1M2X2, HiF4X2, S4X2, U4X2).
inline bool is_packed4(DataType t) { return element_bits(t) == 4; }
/// All-ones mask of the element width.
inline std::uint64_t element_mask(DataType t) {
  const unsigned bits = element_bits(t);
  return bits >= 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << bits) - 1);
}

}  // namespace ptosim::model
