// SPDX-License-Identifier: BSD-3-Clause
// The `ptosim run` program file: PTO assembly plus directives that declare input tiles and their
// contents (inline, from a file, or seeded random), set GPRs and flags, and name tiles to dump.
// docs/user-guide.md documents the format.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "model/bundle/bundle.h"
#include "model/exec/functional_machine.h"

namespace ptosim::platforms {

struct ProgramTile {
  model::TileRef ref;
  model::TileDescriptor desc;
  std::array<model::FragmentData, model::kPeCount> data;  ///< Shared tiles: data[0]
  model::SourceLoc loc;
};

struct GprInit {
  model::PeMask pes;
  unsigned selector = 0;
  std::uint64_t value = 0;
};

struct ProgramFile {
  std::string path;
  std::string assembly;  ///< the text with directive lines blanked, so line numbers still match
  std::vector<ProgramTile> tiles;
  std::vector<GprInit> gprs;
  model::NumericFlags status = 0;
  std::vector<model::TileRef> dumps;
  std::vector<std::string> value_files;  ///< the .file paths read, as opened
};

/// Reads and parses `path`. On error returns false with `error` = "file:line:column: message", or
/// "cannot read 'file': why" when it cannot be read (missing, a directory).
bool parse_program_file(const std::string& path, ProgramFile& out, std::string& error);
/// Parses program text (for tests); `path` names it in messages and anchors relative .file paths.
bool parse_program_text(const std::string& text, const std::string& path, ProgramFile& out, std::string& error);

}  // namespace ptosim::platforms
