// SPDX-License-Identifier: BSD-3-Clause
// Writes a GTKWave save file (.gtkw) that opens a recorded trace with its signals grouped by
// module, opcodes shown through a name filter, and sensible radixes.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "traces/vcd_recorder.h"

namespace ptosim::traces {

/// `filters` maps a signal name (e.g. "opcode") to the path of a GTKWave translate file.
bool write_gtkw(const std::string& path, const std::string& dump_file, const VcdRecorder& rec,
                const std::vector<std::pair<std::string, std::string>>& filters);

/// Writes a GTKWave translate-filter file: one "value name" line per entry.
bool write_translate_filter(const std::string& path, const std::vector<std::pair<unsigned, std::string>>& names);

}  // namespace ptosim::traces
