// SPDX-License-Identifier: BSD-3-Clause
#include "model/sfu/sfu_types.h"

namespace ptosim::model::sfu {

bool a16_type(DataType t) {
  switch (t) {
    case DataType::FP64: case DataType::FP32: case DataType::TF32: case DataType::HF32:
    case DataType::FP16: case DataType::BF16: case DataType::E4M3: case DataType::E5M2:
    case DataType::S64: case DataType::S32: case DataType::S16: case DataType::S8:
    case DataType::U64: case DataType::U32: case DataType::U16: case DataType::U8:
      return true;
    default:
      return false;
  }
}

bool expdif_source_type(DataType t) { return a16_type(t) && is_float(t); }

bool fillpad_type(DataType t) { return a16_type(t) && element_bits(t) <= 32; }

bool tci_type(DataType t) {
  return t == DataType::S32 || t == DataType::S16 || t == DataType::U32 || t == DataType::U16;
}

bool ttri_type(DataType t) { return tci_type(t) || t == DataType::FP32 || t == DataType::FP16; }

bool concat_type(DataType t) { return t != DataType::HiF4X2; }

bool histogram_source_type(DataType t) { return t == DataType::U16 || t == DataType::U32; }

bool accepts_type(Operation op, DataType t) {
  switch (op) {
    case Operation::TROWEXPANDEXPDIF:
    case Operation::TCOLEXPANDEXPDIF:
      return expdif_source_type(t);
    case Operation::TCONCAT: return concat_type(t);
    case Operation::TFILLPAD: return fillpad_type(t);
    case Operation::TCI: return tci_type(t);
    case Operation::TTRI: return ttri_type(t);
    case Operation::THISTOGRAM: return histogram_source_type(t);
    default: return a16_type(t);
  }
}

std::optional<DataType> expdif_destination(DataType src, const std::optional<DatrFields>& datr) {
  if (!expdif_source_type(src)) return std::nullopt;
  // A present B.DATR's DataType is the destination's, 0 included (FP64, as the ASL reads it and the
  // seeds are silent): a B.DATR that only sets PadValue carries DTYPE_NONE or the source's code.
  const unsigned code = datr ? datr->dtype_code : kDataTypeNoneCode;
  if (code == kDataTypeNoneCode || code == data_type_code(src)) return src;
  if (code == data_type_code(DataType::FP32) && (src == DataType::FP16 || src == DataType::BF16))
    return DataType::FP32;
  return std::nullopt;
}

}  // namespace ptosim::model::sfu
