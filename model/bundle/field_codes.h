// SPDX-License-Identifier: BSD-3-Clause
// Assigned code sets and assembly names of the bundle instruction fields (DataType, B.DATR Layout,
// CMode, RMode and PadValue, B.FPATR modes, GPR selectors, SizeCodes), shared by the instruction
// validator, the assembler and the disassembler.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ptosim::model {

constexpr unsigned kGprSelectorCount = 24;      ///< absolute GPR selectors 0..23; 24..31 reserved
constexpr unsigned kIotMaxSizeCode = 10;        ///< B.IOT destination SizeCode 1..10 (128 B .. 64 KiB)
constexpr unsigned kIosMaxSizeCode = 12;        ///< B.IOS destination SizeCode 1..12 (128 B .. 256 KiB)
constexpr unsigned kMaxTileBindings = 16;       ///< ASL PTO_BUNDLE_TILE_BINDING_COUNT
constexpr unsigned kMaxSharedBindings = 4;      ///< B.IOS stream length

/// DataType code legal in BSTART (0..14, 16..20, 24..28; never 31).
bool bstart_data_type_assigned(unsigned code);
/// DataType code legal in B.DATR (the BSTART codes plus 31 = DTYPE_NONE).
bool datr_data_type_assigned(unsigned code);
/// "FP32", "none" for 31, or the decimal code for a reserved code (assembly text).
std::string data_type_text(unsigned code);
/// Parses a DataType name (spec spelling, case-insensitive), "none"/"DTYPE_NONE" (31) or a code 0..31.
std::optional<unsigned> parse_data_type(std::string_view text);

/// Name of an assigned B.DATR Layout code ("NORM", "ND2ZN", ...); nullptr for unassigned codes.
const char* datr_layout_name(unsigned code);
std::optional<unsigned> datr_layout_from_name(std::string_view name);  ///< case-insensitive

/// B.DATR CMode: "eq" "ne" "lt" "gt" "le" "ge" for 0..5; nullptr for the reserved codes 6, 7.
const char* cmode_name(unsigned code);
/// B.DATR RMode: "none" "rne" "rtz" "rdn" "rup" "rna" "rto" "rhb" for 0..7.
const char* rmode_name(unsigned code);
/// B.DATR PadValue: "zero" "max" "min" "null" for 0..3.
const char* pad_name(unsigned code);

/// B.FPATR decode-legal field codes (ASL BundleFPATR{PreQuantMode,ReluMode,GroupNCode}Legal).
/// Inline: every B.FPATR is validated against them.
constexpr bool fpatr_prequant_mode_assigned(unsigned code) {
  return code <= 5 || code == 12 || code == 13 || (code >= 16 && code <= 20) ||
         (code >= 23 && code <= 28) || (code >= 32 && code <= 39);
}
constexpr bool fpatr_relu_mode_assigned(unsigned code) { return code <= 3; }
constexpr bool fpatr_group_n_code_assigned(unsigned code) { return code <= 9; }

/// "zero" for selector 0, "r<n>" otherwise (canonical assembly spelling).
std::string gpr_name(unsigned selector);
/// Parses "zero", "r0".."r31" and the unambiguous ABI names (see docs/assembly.md). On failure
/// returns nullopt and, when the name is a known but ambiguous ABI name, sets *why.
std::optional<unsigned> parse_gpr(std::string_view text, std::string* why);

/// Per-PE bytes of a SizeCode: 128 << (code - 1); 0 for code 0.
unsigned long size_code_to_bytes(unsigned code);
/// The SizeCode of a per-PE byte count (a power of two from 128 B), if any.
std::optional<unsigned> bytes_to_size_code(unsigned long bytes);

}  // namespace ptosim::model
