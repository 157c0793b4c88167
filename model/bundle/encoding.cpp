// SPDX-License-Identifier: BSD-3-Clause
#include "model/bundle/encoding.h"

#include <cstdio>
#include <type_traits>

#include "model/bundle/operation.h"

namespace ptosim::model {

namespace {

// Fixed bits (mask/match) of each form, from spec/data/command-forms.json.
constexpr std::uint32_t kTeplMask = 0x000FFFFF, kTeplMatch = 0x00019181;
constexpr std::uint32_t kCubeMask = 0x060FFFFF, kCubeMatch = 0x00031181;  // + Function [24:20]
constexpr std::uint32_t kDimOpcode = 0x43;                                // mask 0x707F, match 0x43 | LB << 12
constexpr std::uint32_t kDatrMask = 0x000C707F, kDatrMatch = 0x00001023;
constexpr std::uint32_t kFpatrMask = 0x00007E7F, kFpatrMatch = 0x00002023;
constexpr std::uint32_t kIorMask = 0x0600707F, kIorMatch = 0x00000013;
constexpr std::uint32_t kIosMask = 0xF00871FF, kIosMatch = 0x00001013;
constexpr std::uint32_t kIot2DstMask = 0x0000707F, kIot2Match = 0x00004013;
constexpr std::uint32_t kIot2SrcMask = 0x0007F07F;
constexpr std::uint32_t kIot1DstMask = 0xFC00707F, kIot1Match = 0x00005013;
constexpr std::uint32_t kIot1SrcMask = 0xFC07F07F;
constexpr std::uint32_t kIotDstMask = 0xFFF0707F, kIotDstMatch = 0x00006013;
constexpr std::uint32_t kBStop = 0x00000001;
constexpr std::uint16_t kCBStop = 0x0000;
constexpr std::uint16_t kCDimiMask = 0x003F, kCDimiMatch = 0x003C;
constexpr std::uint64_t kLBStop = 0x000000010000000FULL;

// Every encode_body below is written once against a Packer: FieldPacker builds the word (or the
// fault), WordPacker builds the word alone.

/// Packs checked fields into a word; the first field that does not fit becomes the error.
class FieldPacker {
 public:
  using Out = Result<Encoding>;

  explicit FieldPacker(const char* form) : m_form(form) {}

  FieldPacker& put(unsigned value, unsigned lsb, unsigned width, const char* field) {
    if (value < (1U << width))
      m_bits |= std::uint64_t{value} << lsb;
    else if (!m_error)
      m_error = too_wide(value, width, field);
    return *this;
  }

  Out done(std::uint64_t fixed, unsigned width_bits) const {
    if (m_error) return *m_error;
    return Encoding{m_bits | fixed, width_bits};
  }

  static Out fixed(std::uint64_t bits, unsigned width_bits) { return Encoding{bits, width_bits}; }
  static Out no_form(const std::string& why) { return fault(FaultCode::IllegalInstruction, why); }

 private:
  Fault too_wide(unsigned value, unsigned width, const char* field) const {
    return fault(FaultCode::IllegalInstruction, std::string(m_form) + " " + field + " " + std::to_string(value) +
                                                    " does not fit its " + std::to_string(width) + "-bit field");
  }

  const char* m_form;
  std::uint64_t m_bits = 0;
  std::optional<Fault> m_error;
};

/// FieldPacker without the fault text: the word when every field fits and the form exists (the
/// front end asks this of every instruction it decodes).
class WordPacker {
 public:
  using Out = std::optional<Encoding>;

  explicit WordPacker(const char* /*form*/) {}

  WordPacker& put(unsigned value, unsigned lsb, unsigned width, const char* /*field*/) {
    m_fits = m_fits && value < (1U << width);
    m_bits |= std::uint64_t{value} << lsb;
    return *this;
  }

  Out done(std::uint64_t fixed, unsigned width_bits) const {
    if (!m_fits) return std::nullopt;
    return Encoding{m_bits | fixed, width_bits};
  }

  static Out fixed(std::uint64_t bits, unsigned width_bits) { return Encoding{bits, width_bits}; }
  static Out no_form(const std::string& /*why*/) { return std::nullopt; }

 private:
  bool m_fits = true;
  std::uint64_t m_bits = 0;
};

template <class Packer>
typename Packer::Out encode_body(const BStartTepl& s) {
  return Packer("BSTART.TEPL")
      .put(s.dtype, 27, 5, "DataType")
      .put(s.mode, 25, 2, "Mode")
      .put(s.function, 20, 5, "Function")
      .done(kTeplMatch, 32);
}

template <class Packer>
typename Packer::Out encode_body(const BStartCube& s) {
  return Packer("CUBE BSTART")
      .put(s.dtype, 27, 5, "DataType")
      .put(s.function, 20, 5, "Function")
      .done(kCubeMatch, 32);
}

template <class Packer>
typename Packer::Out encode_body(const BDim& d) {
  if (d.lb > 2) return Packer::no_form("B.DIM has forms for LB0..LB2 only, not LB" + std::to_string(d.lb));
  if (d.imm >= (1U << 17))
    return Packer::no_form("B.DIM uimm17 " + std::to_string(d.imm) + " does not fit its 17-bit field");
  return Packer("B.DIM")
      .put(d.imm & 0xFFF, 20, 12, "uimm17[11:0]")
      .put(d.reg, 15, 5, "RegSrc")
      .put(d.lb, 12, 3, "LB")
      .put(d.imm >> 12, 7, 5, "uimm17[16:12]")
      .done(kDimOpcode, 32);
}

template <class Packer>
typename Packer::Out encode_body(const CBDimi& d) {
  return Packer("C.B.DIMI").put(d.lb, 14, 2, "LoopNest").put(d.imm, 6, 8, "imm8").done(kCDimiMatch, 16);
}

template <class Packer>
typename Packer::Out encode_body(const BDatr& d) {
  const DatrFields& f = d.fields;
  return Packer("B.DATR")
      .put(f.cmode, 29, 3, "CMode")
      .put(f.pad_or_byte_id, 27, 2, "PadValueOrByteId")
      .put(f.sat, 26, 1, "Sat")
      .put(f.canonicalize, 25, 1, "Canonicalize")
      .put(f.dtype_code, 20, 5, "DataType")
      .put(f.rmode, 15, 3, "RMode")
      .put(f.layout, 7, 5, "Layout")
      .done(kDatrMatch, 32);
}

template <class Packer>
typename Packer::Out encode_body(const BFpatr& d) {
  const FpatrFields& f = d.fields;
  return Packer("B.FPATR")
      .put(f.prequant_mode, 26, 6, "PreQuantMode")
      .put(f.relu_mode, 23, 3, "ReluMode")
      .put(f.group_n_code, 19, 4, "GroupNCode")
      .put(f.row_max_en, 18, 1, "RowMaxEn")
      .put(f.group_max_en, 17, 1, "GroupMaxEn")
      .put(f.row_max_init, 16, 1, "RowMaxInit")
      .put(f.max_abs_en, 15, 1, "MaxAbsEn")
      .put(f.trans_b, 8, 1, "TransB")
      .put(f.trans_a, 7, 1, "TransA")
      .done(kFpatrMatch, 32);
}

template <class Packer>
typename Packer::Out encode_body(const BIor& d) {
  const IorFields& f = d.fields;
  return Packer("B.IOR")
      .put(f.src[2], 27, 5, "RegSrc2")
      .put(f.src[1], 20, 5, "RegSrc1")
      .put(f.src[0], 15, 5, "RegSrc0")
      .put(f.dst, 7, 5, "RegDst")
      .done(kIorMatch, 32);
}

template <class Packer>
typename Packer::Out encode_body(const BIot& d) {
  if (d.source_count > 2) return Packer::no_form("B.IOT takes at most two source tiles");
  if (d.source_count == 0 && !d.has_destination)
    return Packer::no_form("B.IOT with neither a source nor a destination has no encoding");
  if (d.has_destination && d.source_count > 0 && d.size_code == 0)
    return Packer::no_form("B.IOT SizeCode 0 with sources encodes the source-only form, not a destination");
  Packer p("B.IOT");
  p.put(d.pe_mode, 9, 3, "PEMode").put(d.last, 19, 1, "L");
  if (d.source_count >= 1) p.put(d.sources[0], 20, 6, "SrcTile0");
  if (d.source_count == 2) p.put(d.sources[1], 26, 6, "SrcTile1");
  if (d.has_destination)
    p.put(d.size_code, 15, 4, "SizeCode").put(d.hand, 7, 2, "DstTile");
  else
    p.put(d.ignored_bits, 7, 2, "ignored bits [8:7]");
  const std::uint32_t match = d.source_count == 2 ? kIot2Match : d.source_count == 1 ? kIot1Match : kIotDstMatch;
  return p.done(match, 32);
}

template <class Packer>
typename Packer::Out encode_body(const BIos& d) {
  return Packer("B.IOS")
      .put(d.shared_id, 20, 8, "SharedTID")
      .put(d.size_code, 15, 4, "SizeCode")
      .put(d.pe_mode, 9, 3, "PEMode")
      .done(kIosMatch, 32);
}

template <class Packer>
typename Packer::Out encode_body(const BStop&) { return Packer::fixed(kBStop, 32); }
template <class Packer>
typename Packer::Out encode_body(const CBStop&) { return Packer::fixed(kCBStop, 16); }
template <class Packer>
typename Packer::Out encode_body(const LBStop&) { return Packer::fixed(kLBStop, 64); }

template <class Packer>
typename Packer::Out encode_body(const RawUnit& r) {
  const unsigned w = r.width_bits;
  if (w != 16 && w != 32 && w != 48 && w != 64) return Packer::no_form("raw unit width " + std::to_string(w) + " is not 16, 32, 48 or 64");
  if (w < 64 && (r.bits >> w) != 0) return Packer::no_form("raw unit value does not fit " + std::to_string(w) + " bits");
  if (unit_length_bits(static_cast<std::uint16_t>(r.bits)) != w)
    return Packer::no_form("raw unit's low nibble encodes a " +
                   std::to_string(unit_length_bits(static_cast<std::uint16_t>(r.bits))) + "-bit unit, not " +
                   std::to_string(w) + "-bit");
  if (!std::holds_alternative<RawUnit>(decode(r.bits, w)))
    return Packer::no_form("raw unit holds an instruction of a modelled form; decode() it instead");
  return Packer::fixed(r.bits, w);
}

InstructionBody decode16(std::uint16_t h) {
  if (h == kCBStop) return CBStop{};
  if ((h & kCDimiMask) == kCDimiMatch)
    return CBDimi{static_cast<std::uint8_t>(h >> 14), static_cast<std::uint8_t>((h >> 6) & 0xFF)};
  return RawUnit{h, 16};
}

std::uint8_t field(std::uint32_t w, unsigned lsb, unsigned width) {
  return static_cast<std::uint8_t>((w >> lsb) & ((1U << width) - 1));
}

InstructionBody decode_iot(std::uint32_t w, std::uint8_t sources, bool destination) {
  BIot b;
  b.source_count = sources;
  b.sources = {field(w, 20, 6), sources == 2 ? field(w, 26, 6) : std::uint8_t{0}};
  b.has_destination = destination;
  b.last = (w >> 19) & 1U;
  b.pe_mode = field(w, 9, 3);
  if (destination) {
    b.size_code = field(w, 15, 4);
    b.hand = field(w, 7, 2);
  } else {
    b.ignored_bits = field(w, 7, 2);
  }
  return b;
}

InstructionBody decode32(std::uint32_t w) {
  if (w == kBStop) return BStop{};
  if ((w & kTeplMask) == kTeplMatch) return BStartTepl{field(w, 27, 5), field(w, 25, 2), field(w, 20, 5)};
  if ((w & kCubeMask) == kCubeMatch && cube_operation(field(w, 20, 5)))
    return BStartCube{field(w, 27, 5), field(w, 20, 5)};
  if ((w & 0x7F) == kDimOpcode && field(w, 12, 3) <= 2)
    return BDim{field(w, 12, 3), field(w, 15, 5), ((w >> 20) & 0xFFFU) | (std::uint32_t{field(w, 7, 5)} << 12)};
  if ((w & kDatrMask) == kDatrMatch) {
    DatrFields f;
    f.cmode = field(w, 29, 3);
    f.pad_or_byte_id = field(w, 27, 2);
    f.sat = (w >> 26) & 1U;
    f.canonicalize = (w >> 25) & 1U;
    f.dtype_code = field(w, 20, 5);
    f.rmode = field(w, 15, 3);
    f.layout = field(w, 7, 5);
    return BDatr{f};
  }
  if ((w & kFpatrMask) == kFpatrMatch) {
    FpatrFields f;
    f.prequant_mode = field(w, 26, 6);
    f.relu_mode = field(w, 23, 3);
    f.group_n_code = field(w, 19, 4);
    f.row_max_en = (w >> 18) & 1U;
    f.group_max_en = (w >> 17) & 1U;
    f.row_max_init = (w >> 16) & 1U;
    f.max_abs_en = (w >> 15) & 1U;
    f.trans_b = (w >> 8) & 1U;
    f.trans_a = (w >> 7) & 1U;
    return BFpatr{f};
  }
  if ((w & kIorMask) == kIorMatch) {
    IorFields f;
    f.src = {field(w, 15, 5), field(w, 20, 5), field(w, 27, 5)};
    f.dst = field(w, 7, 5);
    return BIor{f};
  }
  if ((w & kIosMask) == kIosMatch) return BIos{field(w, 20, 8), field(w, 15, 4), field(w, 9, 3)};
  // B.IOT: the source-only forms (SizeCode fixed to 0) are the narrow forms of the catalog's
  // reviewed overlaps and win over the destination forms.
  if ((w & kIot2SrcMask) == kIot2Match) return decode_iot(w, 2, false);
  if ((w & kIot2DstMask) == kIot2Match) return decode_iot(w, 2, true);
  if ((w & kIot1SrcMask) == kIot1Match) return decode_iot(w, 1, false);
  if ((w & kIot1DstMask) == kIot1Match) return decode_iot(w, 1, true);
  if ((w & kIotDstMask) == kIotDstMatch) return decode_iot(w, 0, true);
  return RawUnit{w, 32};
}

std::string hex_offset(std::size_t offset) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%zx", offset);
  return buf;
}

}  // namespace

unsigned unit_length_bits(std::uint16_t first_halfword) {
  const unsigned nibble = first_halfword & 0xFU;
  if (nibble == 0xF) return 64;
  if (nibble == 0xE) return 48;
  return (nibble & 1U) ? 32 : 16;
}

Result<Encoding> encode(const InstructionBody& body) {
  return std::visit([](const auto& b) { return encode_body<FieldPacker>(b); }, body);
}

std::optional<Encoding> encoding(const InstructionBody& body) {
  return std::visit([](const auto& b) { return encode_body<WordPacker>(b); }, body);
}

InstructionBody decode(std::uint64_t bits, unsigned width_bits) {
  switch (width_bits) {
    case 16: return decode16(static_cast<std::uint16_t>(bits));
    case 32: return decode32(static_cast<std::uint32_t>(bits));
    case 64: if (bits == kLBStop) return LBStop{}; break;
    default: break;
  }
  return RawUnit{bits, static_cast<std::uint8_t>(width_bits)};
}

std::string hex_digits(const Encoding& e) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%0*llx", static_cast<int>(e.width_bits / 4), static_cast<unsigned long long>(e.bits));
  return buf;
}

void append_bytes(const Encoding& e, std::vector<std::uint8_t>& out) {
  for (unsigned i = 0; i < e.width_bits / 8; ++i) out.push_back(static_cast<std::uint8_t>(e.bits >> (8 * i)));
}

DecodedProgram decode_program(const std::vector<std::uint8_t>& bytes, const std::string& file_name) {
  DecodedProgram program;
  const FileName file(file_name);
  std::size_t offset = 0;
  while (offset < bytes.size()) {
    const std::size_t left = bytes.size() - offset;
    if (left < 2) {
      program.error = "truncated instruction at offset " + hex_offset(offset) + ": 1 byte left";
      break;
    }
    const auto first = static_cast<std::uint16_t>(bytes[offset] | (bytes[offset + 1] << 8));
    const unsigned width = unit_length_bits(first);
    if (left < width / 8) {
      program.error = "truncated " + std::to_string(width) + "-bit instruction at offset " + hex_offset(offset) +
                      ": " + std::to_string(left) + " bytes left";
      break;
    }
    std::uint64_t bits = 0;
    for (unsigned i = 0; i < width / 8; ++i) bits |= std::uint64_t{bytes[offset + i]} << (8 * i);
    SourceLoc loc;
    loc.file = file;
    loc.offset = static_cast<std::int64_t>(offset);
    program.instructions.push_back(Instruction{decode(bits, width), loc});
    offset += width / 8;
  }
  return program;
}

}  // namespace ptosim::model
