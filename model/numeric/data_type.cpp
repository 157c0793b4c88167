// SPDX-License-Identifier: BSD-3-Clause
#include "model/numeric/data_type.h"

#include "model/common/text.h"

namespace ptosim::model {

using data_type_detail::Info;
using data_type_detail::kIndexByCode;
using data_type_detail::kInfo;

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
  static constexpr auto kNames = names_of(kInfo, [](const Info& i) { return i.name; });
  for (std::size_t k = 0; k < kNames.size(); ++k)
    if (name == kNames[k]) return kInfo[k].type;
  for (std::size_t k = 0; k < kNames.size(); ++k)
    if (iequal(name, kNames[k])) return kInfo[k].type;
  return std::nullopt;
}

}  // namespace ptosim::model
