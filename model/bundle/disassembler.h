// SPDX-License-Identifier: BSD-3-Clause
// Disassembler: the canonical assembly text of one instruction (docs/assembly.md), which the
// assembler accepts back bit-identically.
#pragma once

#include <string>

#include "model/bundle/encoding.h"
#include "model/bundle/instruction.h"

namespace ptosim::model {

/// Assembly text of `body` field by field, whatever the legality of its values (reserved values
/// print numerically, e.g. "B.DIM r24, 0, ->LB0", "BSTART.TEPL 2, 14, FP32").
std::string instruction_text(const InstructionBody& body);

/// Canonical disassembly. A legal instruction prints as instruction_text(). A RawUnit, an
/// instruction with a reserved field value, or a source-only B.IOT with non-zero undecoded bits
/// [8:7] prints as ".word 0x<hex>  ; <what it is> -- <problem>", which assembles to the same bits.
/// An instruction with no encoding at all (only constructible in code) prints its text followed by
/// "  ; not encodable: <reason>".
std::string disassemble(const InstructionBody& body);

}  // namespace ptosim::model
