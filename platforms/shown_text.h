// SPDX-License-Identifier: BSD-3-Clause
// shown_text: input echoed in a message, made safe for a terminal and short enough to read.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ptosim::platforms {

/// `text` with every byte that is not part of valid UTF-8, and every control character but the
/// tab, written as \xNN, cut after about `max_bytes` with how many bytes were left out: a message
/// that quotes a binary file or a runaway token stays one readable line.
std::string shown_text(std::string_view text, std::size_t max_bytes = 400);

}  // namespace ptosim::platforms
