// SPDX-License-Identifier: BSD-3-Clause
// Whole-file reads and writes for the command line's inputs and outputs: every failure (a missing
// file, a directory, an I/O error, a full disk) comes back as a message naming the path.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace ptosim::platforms {

/// The largest input read: far beyond any program, configuration or value file (a 100000-bundle
/// program is some 20 MB of text), small enough that an endless one fails fast.
constexpr std::size_t kMaxInputBytes = std::size_t{256} << 20;

/// The contents of file `path`; nothing, with `error` ("cannot read 'P': is a directory"), when it
/// cannot be read to its end or is longer than kMaxInputBytes.
std::optional<std::string> read_file(const std::string& path, std::string& error);

/// Whether two paths name one file: the same existing file (links included), or the same path once
/// made absolute and normal ("x" and "./x" before either exists).
bool same_file(const std::string& a, const std::string& b);

/// Writes `contents` as file `path`; false, with `error` ("cannot write 'P': No space left on
/// device"), unless every byte reached it.
bool write_file(const std::string& path, const std::string& contents, std::string& error);

}  // namespace ptosim::platforms
