// SPDX-License-Identifier: BSD-3-Clause
// Whole-file reads and writes for the command line's inputs and outputs: every failure (a missing
// file, a directory, an I/O error, a full disk) comes back as a message naming the path.
#pragma once

#include <optional>
#include <string>

namespace ptosim::platforms {

/// The contents of file `path`; nothing, with `error` ("cannot read 'P': is a directory"), when it
/// cannot be read to its end.
std::optional<std::string> read_file(const std::string& path, std::string& error);

/// Writes `contents` as file `path`; false, with `error` ("cannot write 'P': No space left on
/// device"), unless every byte reached it.
bool write_file(const std::string& path, const std::string& contents, std::string& error);

}  // namespace ptosim::platforms
