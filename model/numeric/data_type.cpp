// SPDX-License-Identifier: BSD-3-Clause
#include "model/numeric/data_type.h"

#include <array>
#include <cctype>

#include "model/common/text.h"

namespace ptosim::model {

namespace {

struct Info {
  DataType type;
  const char* name;
  unsigned bits;
  TypeClass cls;
};

// Facts from asl/arch/data-types/tile-data-types.asl and the format units (spec/numerics.md §1).
constexpr Info kInfo[kDataTypeCount] = {
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
constexpr std::array<std::int8_t, 32> kIndexByCode = [] {
  std::array<std::int8_t, 32> index{};
  for (auto& i : index) i = -1;
  for (int i = 0; i < kDataTypeCount; ++i) index[static_cast<unsigned>(kInfo[i].type)] = static_cast<std::int8_t>(i);
  return index;
}();

const Info& info(DataType t) { return kInfo[kIndexByCode[static_cast<unsigned>(t) & 31]]; }

}  // namespace

const DataType kAllDataTypes[kDataTypeCount] = {
    DataType::FP64, DataType::FP32,   DataType::TF32,   DataType::HF32, DataType::FP16,
    DataType::BF16, DataType::HiF8,   DataType::E4M3,   DataType::E5M2, DataType::E3M2,
    DataType::E2M3, DataType::E2M1X2, DataType::E1M2X2, DataType::E8M0, DataType::HiF4X2,
    DataType::S64,  DataType::S32,    DataType::S16,    DataType::S8,   DataType::S4X2,
    DataType::U64,  DataType::U32,    DataType::U16,    DataType::U8,   DataType::U4X2,
};

std::optional<DataType> data_type_from_code(unsigned code) {
  if (code >= kIndexByCode.size() || kIndexByCode[code] < 0) return std::nullopt;
  return kInfo[kIndexByCode[code]].type;
}

std::optional<DataType> data_type_from_name(std::string_view name) {
  for (const Info& i : kInfo)
    if (name == i.name) return i.type;
  for (const Info& i : kInfo)
    if (iequal(name, i.name)) return i.type;
  return std::nullopt;
}

const char* data_type_name(DataType t) { return info(t).name; }
unsigned element_bits(DataType t) { return info(t).bits; }
TypeClass type_class(DataType t) { return info(t).cls; }

}  // namespace ptosim::model
