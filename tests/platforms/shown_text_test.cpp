// SPDX-License-Identifier: BSD-3-Clause
// Input echoed in messages: printable UTF-8 kept, other bytes and controls escaped, long text cut
// in the middle.
#include <catch2/catch.hpp>

#include "platforms/shown_text.h"

using ptosim::platforms::shown_text;

TEST_CASE("Echoed input keeps printable UTF-8 and escapes other bytes and controls", "[text]") {
  CHECK(shown_text("T#1 caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x99\x82 ok\tdone") ==
        "T#1 caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x99\x82 ok\tdone");
  CHECK(shown_text("got '\xff\xfe'") == "got '\\xff\\xfe'");
  CHECK(shown_text("a\x1b[2Jb\x7f") == "a\\x1b[2Jb\\x7f");
  CHECK(shown_text("cut \xc3") == "cut \\xc3");                          // a sequence missing its end
  CHECK(shown_text("stray \x80 \xc0\xaf") == "stray \\x80 \\xc0\\xaf");  // continuation alone, overlong lead
  CHECK(shown_text("\xe0\x80\xaf") == "\\xe0\\x80\\xaf");                 // overlong in three bytes
  CHECK(shown_text("\xed\xa0\x80") == "\\xed\\xa0\\x80");                 // a surrogate
  CHECK(shown_text("\xf4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");        // past U+10FFFF
  CHECK(shown_text("\xc2\x9b") == "\\xc2\\x9b");                          // C1 control (CSI)
  CHECK(shown_text("\xe2\x80\xae") == "\\xe2\\x80\\xae");                 // right-to-left override
}

TEST_CASE("Echoed input past the limit keeps its two ends, saying how much was left out", "[text]") {
  const std::string token(100000, 'x');
  const std::string shown = shown_text("p.pto:1:7: error: got '" + token + "': not a value", 400);
  CHECK(shown.size() < 460);
  CHECK(shown.rfind("p.pto:1:7: error: got 'xx", 0) == 0);
  CHECK(shown.find(" bytes left out) ... ") != std::string::npos);
  CHECK(shown.substr(shown.size() - 14) == "': not a value");
  CHECK(shown_text(std::string(400, 'y'), 400) == std::string(400, 'y'));
  // A cut never splits a UTF-8 sequence.
  std::string accents;
  for (int i = 0; i < 300; ++i) accents += "\xc3\xa9";
  CHECK(shown_text(accents, 101).find("\\x") == std::string::npos);
}
