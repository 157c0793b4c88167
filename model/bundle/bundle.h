// SPDX-License-Identifier: BSD-3-Clause
// Bundle: one decoded block (BSTART ... BSTOP) with every header field and its presence, as the
// block state machine leaves it at the completion boundary. This is the interface between the
// front end (decoder/assembler, BlockBuilder) and operation preflight/execution.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "model/bundle/field_codes.h"
#include "model/bundle/operation.h"
#include "model/common/bounded_vector.h"
#include "model/common/file_name.h"
#include "model/common/pe_mask.h"

namespace ptosim::model {

/// Where an instruction came from (assembly line/column, or word offset in a binary).
struct SourceLoc {
  FileName file;
  int line = 0;    ///< 1-based; 0 = unknown
  int column = 0;  ///< 1-based; 0 = unknown
  std::int64_t offset = -1;  ///< byte offset of the instruction in a binary image; -1 = not from a binary
};

/// One LB written by B.DIM (value = GPR[reg] + imm, truncated to 16 bits, resolved at preflight
/// from the participating PEs' GPRs) or by C.B.DIMI (reg = 0).
struct DimField {
  bool present = false;
  std::uint8_t reg = 0;   ///< GPR selector 0..23 (0 = zero register)
  std::uint32_t imm = 0;  ///< uimm17 (B.DIM) or imm8 (C.B.DIMI)
};

/// B.DATR fields (raw codes); a Bundle holds one only when B.DATR was present.
struct DatrFields {
  std::uint8_t cmode = 0;           ///< [31:29]
  std::uint8_t pad_or_byte_id = 0;  ///< [28:27] PadValue (00 Zero, 01 Max, 10 Min, 11 Null) or ByteId
  bool sat = false;                 ///< [26]
  bool canonicalize = false;        ///< [25]
  std::uint8_t dtype_code = 0;      ///< [24:20] DataType code; 31 = DTYPE_NONE
  std::uint8_t rmode = 0;           ///< [17:15] 0 NONE, 1 RNE, 2 RTZ, 3 RDN, 4 RUP, 5 RNA, 6 RTO, 7 RHB
  std::uint8_t layout = 0;          ///< [11:7] layout transform code (0 NORM)

  bool operator==(const DatrFields& o) const {
    return cmode == o.cmode && pad_or_byte_id == o.pad_or_byte_id && sat == o.sat && canonicalize == o.canonicalize &&
           dtype_code == o.dtype_code && rmode == o.rmode && layout == o.layout;
  }
};

/// B.FPATR fields (raw codes); CUBE blocks carry exactly one.
struct FpatrFields {
  std::uint8_t prequant_mode = 0;  ///< [31:26]
  std::uint8_t relu_mode = 0;      ///< [25:23]
  std::uint8_t group_n_code = 0;   ///< [22:19]
  bool row_max_en = false;         ///< [18]
  bool group_max_en = false;       ///< [17]
  bool row_max_init = false;       ///< [16]
  bool max_abs_en = false;         ///< [15]
  bool trans_b = false;            ///< [8]
  bool trans_a = false;            ///< [7]

  bool operator==(const FpatrFields& o) const {
    return prequant_mode == o.prequant_mode && relu_mode == o.relu_mode && group_n_code == o.group_n_code &&
           row_max_en == o.row_max_en && group_max_en == o.group_max_en && row_max_init == o.row_max_init &&
           max_abs_en == o.max_abs_en && trans_b == o.trans_b && trans_a == o.trans_a;
  }
};

/// B.IOR: GPR selectors (0 = zero register) for RegSrc0..2 and RegDst.
struct IorFields {
  std::array<std::uint8_t, 3> src{};
  std::uint8_t dst = 0;

  bool operator==(const IorFields& o) const { return src == o.src && dst == o.dst; }
};

/// One effective B.IOT (PEMode != 000): up to two Local sources and an optional new destination.
struct IotBinding {
  std::uint8_t source_count = 0;           ///< 0, 1 or 2
  std::array<std::uint8_t, 2> sources{};   ///< Local register selectors 0..63 (SrcTile0, SrcTile1)
  bool has_destination = false;
  std::uint8_t destination_hand = 0;       ///< 0 T, 1 U, 2 M, 3 N
  std::uint8_t size_code = 0;              ///< 1..10: 128 B << (code - 1) per PE
  PeMask mask;
  bool last = false;
};

/// One effective B.IOS (PEMode != 000).
struct IosBinding {
  std::uint8_t shared_id = 0;  ///< S0..S255
  std::uint8_t size_code = 0;  ///< 0 = source; 1..12 = new destination
  PeMask mask;
};

/// Kind of BSTART that opened the block.
enum class StartKind : std::uint8_t { Tepl, Cube };

struct Bundle {
  StartKind kind = StartKind::Tepl;
  std::uint8_t dtype_code = 0;  ///< BSTART DataType field (validated by the decoder: never reserved/31)
  std::uint8_t mode = 0;        ///< TEPL Mode (Tepl only)
  std::uint8_t function = 0;    ///< TEPL Function or CUBE Function
  std::string mnemonic;         ///< operation as BSTART spells it: "TROWSUM", "TMATMUL.ACC", or a TEPL catalog name
  std::optional<Operation> op;  ///< the modelled operation, if ptosim models this selector

  std::array<DimField, 3> lb{};  ///< LB0, LB1, LB2
  std::optional<DatrFields> datr;
  std::optional<FpatrFields> fpatr;
  int fpatr_count = 0;  ///< B.FPATR instructions seen (the CUBE schema needs exactly one)
  std::optional<IorFields> ior;
  BoundedVector<IotBinding, kMaxTileBindings> iot;    ///< effective B.IOTs in encoded order
  BoundedVector<IosBinding, kMaxSharedBindings> ios;  ///< effective B.IOSs in encoded order
  bool zero_mask_binding_seen = false;  ///< a B.IOT/B.IOS with PEMode 000 was seen
  bool terminated = false;              ///< an effective B.IOT with L=1 closed the binding list

  SourceLoc loc;  ///< location of the BSTART
  int index = 0;  ///< 0-based number of the block in its program (BSTARTs accepted before it)

  /// True when the block bound nothing effective but saw a zero-mask binding: a strict no-op.
  bool is_strict_noop() const { return iot.empty() && ios.empty() && zero_mask_binding_seen; }
  /// The common mask of the effective bindings (the BlockBuilder rejects unequal masks). Inline:
  /// the front end and preflight ask it several times a bundle.
  PeMask mask() const {
    if (!iot.empty()) return iot.front().mask;
    if (!ios.empty()) return ios.front().mask;
    return PeMask();
  }
};

}  // namespace ptosim::model
