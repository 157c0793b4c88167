// SPDX-License-Identifier: BSD-3-Clause
// shown_text: input echoed in a message, made safe for a terminal and short enough to read.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ptosim::platforms {

/// `text` with every byte that is not part of well-formed UTF-8, and every control character but
/// the tab (C1 and bidirectional formatting characters included), written as \xNN; past `max_bytes`
/// only its two ends are kept, with how many bytes were left out between them (where a message
/// says where and why): a message that quotes a binary file or a runaway token stays readable.
std::string shown_text(std::string_view text, std::size_t max_bytes = 1000);

}  // namespace ptosim::platforms
