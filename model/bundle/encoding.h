// SPDX-License-Identifier: BSD-3-Clause
// Exact binary encoding and decoding of bundle instructions (spec/bundle-encoding.md, catalog
// mask/match pairs of spec/data/command-forms.json), and decoding of little-endian byte streams.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/bundle/instruction.h"
#include "model/common/result.h"

namespace ptosim::model {

/// One encoded instruction unit. `bits` is right-aligned; 64-bit units are (high word << 32) | low
/// word, so the little-endian byte image of `bits` is the memory image (low word first).
struct Encoding {
  std::uint64_t bits = 0;
  unsigned width_bits = 32;  ///< 16, 32, 48 or 64

  bool operator==(const Encoding& o) const { return bits == o.bits && width_bits == o.width_bits; }
};

/// Length of the instruction unit whose first halfword is `first_halfword`, from its low nibble
/// (the rule every form of the command and scalar catalogs follows): 1111 -> 64, 1110 -> 48,
/// other odd -> 32, other even -> 16.
unsigned unit_length_bits(std::uint16_t first_halfword);

/// Encodes `body`. Fails (Fault_IllegalInstruction naming the field) when a field value does not
/// fit its bit field or the combination has no form (e.g. a B.IOT with neither source nor
/// destination, B.DIM ->LB3). Reserved-but-representable values (B.DIM r24, SizeCode 11, ...)
/// encode; validate() rejects them.
Result<Encoding> encode(const InstructionBody& body);
/// encode(body) without the fault text: the word, or nothing. validate() asks it of every
/// instruction it sees.
std::optional<Encoding> encoding(const InstructionBody& body);

/// Decodes one instruction unit. Precondition: width_bits == unit_length_bits(bits & 0xFFFF) and
/// `bits` fits in width_bits. Words that match no modelled form decode to RawUnit; reserved field
/// values are kept (validate() rejects them). encode(decode(x)) == x for every unit.
InstructionBody decode(std::uint64_t bits, unsigned width_bits);

/// The encoding in lowercase hex digits of its width: 4, 8, 12 or 16 digits, no prefix.
std::string hex_digits(const Encoding& e);

/// Appends the memory image of `e` (little-endian, 64-bit units low word first).
void append_bytes(const Encoding& e, std::vector<std::uint8_t>& out);

/// A decoded byte stream: every complete instruction unit, and an error when the stream ends
/// inside a unit.
struct DecodedProgram {
  std::vector<Instruction> instructions;  ///< loc.offset = byte offset of each unit
  std::optional<std::string> error;       ///< e.g. "truncated 32-bit instruction at offset 0x8: 2 bytes left"
};

DecodedProgram decode_program(const std::vector<std::uint8_t>& bytes, const std::string& file_name);

}  // namespace ptosim::model
