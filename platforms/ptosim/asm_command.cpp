// SPDX-License-Identifier: BSD-3-Clause
// ptosim asm / ptosim disasm: bundle assembly text <-> binary, with canonical disassembly.
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "model/bundle/assembler.h"
#include "model/bundle/disassembler.h"
#include "model/bundle/encoding.h"
#include "platforms/files.h"
#include "platforms/ptosim/commands.h"
#include "platforms/shown_text.h"

namespace ptosim::platforms {

using namespace ptosim::model;

namespace {

void asm_usage(std::ostream& os) {
  os << "usage: ptosim asm FILE.s [-o FILE.bin] [--hex]\n"
        "  Assembles bundle assembly (docs/assembly.md).\n"
        "  -o FILE.bin  write the binary (little-endian units, 64-bit forms low word first)\n"
        "  --hex        print one line per instruction: its encoding in hex (4, 8, 12 or 16 digits),\n"
        "               two spaces, then its canonical assembly\n"
        "  At least one of -o and --hex is required. Errors are reported as file:line:column and\n"
        "  exit with status 1; instructions with reserved field values are assembled with a warning.\n";
}

void disasm_usage(std::ostream& os) {
  os << "usage: ptosim disasm FILE.bin [--hex]\n"
        "  Prints the canonical assembly of every instruction, one per line.\n"
        "  --hex  prefix each line with its encoding in hex and two spaces (as ptosim asm --hex)\n"
        "  Words that match no modelled form, or carry reserved values, print as\n"
        "  '.word 0x...  ; <reason>', which assembles back to the same bits.\n";
}

std::optional<std::string> read_input(const std::string& path, const char* command) {
  std::string error;
  auto contents = read_file(path, error);
  if (!contents) std::cerr << "ptosim " << command << ": " << error << "\n";
  return contents;
}

/// Command-line options of asm and disasm.
struct Options {
  std::string input;
  std::string output;
  bool hex = false;
  bool help = false;
};

/// Parses "FILE [options]"; nullopt (after a message) when they are unusable.
std::optional<Options> parse_options(const Args& args, bool allow_output, const char* command,
                                     void (*usage)(std::ostream&)) {
  Options o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-h" || a == "--help") {
      o.help = true;
    } else if (a == "--hex") {
      o.hex = true;
    } else if (allow_output && a == "-o") {
      if (i + 1 == args.size()) {
        std::cerr << "ptosim " << command << ": -o needs a file name\n";
        return std::nullopt;
      }
      if (!o.output.empty()) {
        std::cerr << "ptosim " << command << ": -o given twice\n";
        return std::nullopt;
      }
      o.output = args[++i];
    } else if (!a.empty() && a[0] == '-') {
      std::cerr << "ptosim " << command << ": unknown option '" << a << "'\n";
      usage(std::cerr);
      return std::nullopt;
    } else if (o.input.empty()) {
      o.input = a;
    } else {
      std::cerr << "ptosim " << command << ": more than one input file ('" << o.input << "', '" << a << "')\n";
      return std::nullopt;
    }
  }
  if (!o.help && o.input.empty()) {
    std::cerr << "ptosim " << command << ": missing input file\n";
    usage(std::cerr);
    return std::nullopt;
  }
  return o;
}

}  // namespace

void report_errors(const std::string& prefix, const std::vector<std::string>& errors) {
  for (std::size_t i = 0; i < errors.size() && i < kShownErrors; ++i)
    std::cerr << shown_text(prefix) << shown_text(errors[i]) << "\n";
  if (errors.size() > kShownErrors)
    std::cerr << shown_text(prefix) << "... and " << errors.size() - kShownErrors << " more error"
              << (errors.size() == kShownErrors + 1 ? "" : "s") << "\n";
}

void report_asm_errors(const std::string& prefix, const std::vector<model::AsmError>& errors) {
  std::vector<std::string> lines;
  for (const model::AsmError& e : errors) lines.push_back(format_error(e));
  report_errors(prefix, lines);
}

int asm_command(const Args& args) {
  const auto options = parse_options(args, true, "asm", asm_usage);
  if (!options) return 2;
  if (options->help) {
    asm_usage(std::cout);
    return 0;
  }
  if (!options->output.empty() && same_file(options->output, options->input)) {
    std::cerr << "ptosim asm: -o '" << options->output << "' is the input file\n";
    return 2;
  }
  if (options->output.empty() && !options->hex) {
    std::cerr << "ptosim asm: nothing to do: give -o FILE.bin and/or --hex\n";
    return 2;
  }
  const auto text = read_input(options->input, "asm");
  if (!text) return 1;
  const Assembly program = assemble(*text, options->input);
  report_asm_errors("", program.errors);
  if (!program.ok()) return 1;

  std::vector<std::uint8_t> binary;
  std::ostringstream hex;
  for (const Instruction& inst : program.instructions) {
    const Result<Encoding> encoding = encode(inst.body);
    if (!encoding) {
      std::cerr << format_location(inst.loc) << ": error: " << encoding.fault().rule << "\n";
      return 1;
    }
    if (const Status illegal = validate(inst.body))
      std::cerr << format_location(inst.loc) << ": warning: assembled an instruction that raises Fault_"
                << fault_code_name(illegal->code) << ": " << illegal->rule << "\n";
    append_bytes(*encoding, binary);
    hex << hex_digits(*encoding) << "  " << disassemble(inst.body) << "\n";
  }
  if (!options->output.empty()) {
    std::string error;
    if (!write_file(options->output, std::string(binary.begin(), binary.end()), error)) {
      std::cerr << "ptosim asm: " << error << "\n";
      return 1;
    }
  }
  if (options->hex) std::cout << hex.str();
  return 0;
}

int disasm_command(const Args& args) {
  const auto options = parse_options(args, false, "disasm", disasm_usage);
  if (!options) return 2;
  if (options->help) {
    disasm_usage(std::cout);
    return 0;
  }
  const auto bytes = read_input(options->input, "disasm");
  if (!bytes) return 1;
  const DecodedProgram program = decode_program(std::vector<std::uint8_t>(bytes->begin(), bytes->end()), options->input);
  for (const Instruction& inst : program.instructions) {
    if (options->hex) std::cout << hex_digits(*encode(inst.body)) << "  ";
    std::cout << disassemble(inst.body) << "\n";
  }
  if (program.error) {
    std::cerr << options->input << ": error: " << *program.error << "\n";
    return 1;
  }
  return 0;
}

}  // namespace ptosim::platforms
