// SPDX-License-Identifier: BSD-3-Clause
// Input echoed in messages: valid UTF-8 kept, other bytes and controls escaped, long text cut.
#include <catch2/catch.hpp>

#include "platforms/shown_text.h"

using ptosim::platforms::shown_text;

TEST_CASE("Echoed input keeps valid UTF-8 and escapes other bytes and controls", "[text]") {
  CHECK(shown_text("T#1 caf\xc3\xa9 \xe2\x86\x92 ok\tdone") == "T#1 caf\xc3\xa9 \xe2\x86\x92 ok\tdone");
  CHECK(shown_text("got '\xff\xfe'") == "got '\\xff\\xfe'");
  CHECK(shown_text("a\x1b[2Jb\x7f") == "a\\x1b[2Jb\\x7f");
  CHECK(shown_text("cut \xc3") == "cut \\xc3");            // a sequence missing its continuation
  CHECK(shown_text("stray \x80 \xc0\xaf") == "stray \\x80 \\xc0\\xaf");  // continuation alone, overlong lead
}

TEST_CASE("Echoed input past the limit is cut, saying how much was left out", "[text]") {
  const std::string token(100000, 'x');
  const std::string shown = shown_text("expected key=value, got '" + token + "'", 400);
  CHECK(shown.size() < 450);
  CHECK(shown.rfind("... (99626 more bytes)") == shown.size() - std::string("... (99626 more bytes)").size());
  CHECK(shown_text(std::string(400, 'y'), 400) == std::string(400, 'y'));
}
