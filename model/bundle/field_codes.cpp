// SPDX-License-Identifier: BSD-3-Clause
#include "model/bundle/field_codes.h"

#include "model/common/text.h"
#include "model/numeric/data_type.h"

namespace ptosim::model {

namespace {

struct NamedCode {
  std::string_view name;  ///< measured once: the assembler looks names up on every line
  unsigned code;
};

// Assigned Layout codes (ASL TileDataLayoutCodeAccepted / TileDataLayoutOfCode).
constexpr NamedCode kLayouts[] = {
    {"NORM", 0},    {"ND2DN", 1},   {"ND2ZN", 3},   {"ND2NZ", 4},   {"DN2ND", 6},
    {"DN2ZN", 8},   {"DN2NZ", 9},   {"ZN2ND", 17},  {"ZN2DN", 18},  {"ZN2NZ", 20},
    {"ND2M32", 21}, {"ND2M16", 22}, {"ND2N8", 23},  {"M322ND", 24}, {"M162ND", 25},
    {"N82ND", 26},  {"NZ2ND", 27},  {"NZ2DN", 28},  {"NZ2ZN", 30},
};

constexpr const char* kCModes[] = {"eq", "ne", "lt", "gt", "le", "ge"};
constexpr const char* kRModes[] = {"none", "rne", "rtz", "rdn", "rup", "rna", "rto", "rhb"};
constexpr const char* kPads[] = {"zero", "max", "min", "null"};

// ABI names of the B.IOR GPR-selector field domain that no other part of the spec contradicts.
// "sp" (1 in the field domain, 2 in the frame model) and "a0" (2 in the field domain, the frame
// model's sp) are ambiguous and rejected with an explanation.
constexpr NamedCode kAbiNames[] = {
    {"zero", 0}, {"a1", 3},  {"a2", 4},  {"a3", 5},  {"a4", 6},  {"a5", 7},  {"a6", 8},
    {"a7", 9},   {"ra", 10}, {"s0", 11}, {"s1", 12}, {"s2", 13}, {"s3", 14}, {"s4", 15},
    {"s5", 16},  {"s6", 17}, {"s7", 18}, {"s8", 19}, {"x0", 20}, {"x1", 21}, {"x2", 22},
    {"x3", 23},
};

}  // namespace

bool bstart_data_type_assigned(unsigned code) { return data_type_from_code(code).has_value(); }

bool datr_data_type_assigned(unsigned code) {
  return code == kDataTypeNoneCode || bstart_data_type_assigned(code);
}

std::string data_type_text(unsigned code) {
  if (code == kDataTypeNoneCode) return "none";
  if (const auto t = data_type_from_code(code)) return data_type_name(*t);
  return std::to_string(code);
}

std::optional<unsigned> parse_data_type(std::string_view text) {
  if (iequal(text, "none") || iequal(text, "DTYPE_NONE")) return kDataTypeNoneCode;
  if (const auto t = data_type_from_name(text)) return data_type_code(*t);
  const auto code = parse_unsigned(text);
  if (code && *code < 32) return static_cast<unsigned>(*code);
  return std::nullopt;
}

const char* datr_layout_name(unsigned code) {
  for (const NamedCode& l : kLayouts)
    if (l.code == code) return l.name.data();  // a literal: NUL-terminated
  return nullptr;
}

std::optional<unsigned> datr_layout_from_name(std::string_view name) {
  for (const NamedCode& l : kLayouts)
    if (iequal(name, l.name)) return l.code;
  return std::nullopt;
}

const char* cmode_name(unsigned code) { return code < 6 ? kCModes[code] : nullptr; }
const char* rmode_name(unsigned code) { return kRModes[code & 7]; }
const char* pad_name(unsigned code) { return kPads[code & 3]; }

std::string gpr_name(unsigned selector) {
  return selector == 0 ? std::string("zero") : "r" + std::to_string(selector);
}

std::optional<unsigned> parse_gpr(std::string_view text, std::string* why) {
  if (text.size() >= 2 && (text[0] == 'r' || text[0] == 'R')) {
    const auto n = parse_decimal(text.substr(1));
    if (n && *n < 32) return static_cast<unsigned>(*n);
  }
  for (const NamedCode& n : kAbiNames)
    if (iequal(text, n.name)) return n.code;
  if (why && (iequal(text, "sp") || iequal(text, "a0")))
    *why = "ABI name '" + std::string(text) +
           "' is ambiguous in the spec (the B.IOR field domain has sp=1, a0=2; the frame model uses "
           "GPR 2 as sp); write r1 or r2";
  return std::nullopt;
}

unsigned long size_code_to_bytes(unsigned code) { return code == 0 ? 0UL : 128UL << (code - 1); }

std::optional<unsigned> bytes_to_size_code(unsigned long bytes) {
  for (unsigned code = 1; code < 16; ++code)
    if (size_code_to_bytes(code) == bytes) return code;
  return std::nullopt;
}

}  // namespace ptosim::model
