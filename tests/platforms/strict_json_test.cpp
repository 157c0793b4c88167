// SPDX-License-Identifier: BSD-3-Clause
// The command line's one JSON reader: the value a plain parse builds, and an error naming the path
// of what a plain parse would let through.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "platforms/strict_json.h"

using ptosim::platforms::JsonRules;
using ptosim::platforms::parse_strict_json;

namespace {

const JsonRules kRules{"the document", 4, "nothing is that deep", false};

/// The first problem, or "(parsed)".
std::string problem(const std::string& text, const JsonRules& rules = kRules) {
  std::vector<std::string> problems;
  const auto parsed = parse_strict_json(text, rules, problems);
  if (!problems.empty()) return problems.front();
  return parsed ? "(parsed)" : "(no value, no problem)";
}

/// Whether the parse ended at its first problem: no document.
bool unreadable(const std::string& text) {
  std::vector<std::string> problems;
  return !parse_strict_json(text, kRules, problems);
}

}  // namespace

TEST_CASE("A strict JSON parse builds what a plain parse builds", "[json]") {
  for (const char* text : {R"({"a": {"b": [1, -2, 3.5, true, null, "x", [], {}]}, "c": 18446744073709551615})", "[]",
                           R"("text")", "0", "-0.0", "1e-300", R"([[1, [2, [3]]], {"k": [{"m": 0}]}])"}) {
    std::vector<std::string> problems;
    const auto parsed = parse_strict_json(text, kRules, problems);
    REQUIRE(parsed);
    CHECK(problems.empty());
    CHECK(*parsed == nlohmann::json::parse(text));
    CHECK(parsed->dump() == nlohmann::json::parse(text).dump());
  }
}

TEST_CASE("A strict JSON parse names the path of a key given twice, at any depth", "[json]") {
  CHECK(problem(R"({"a": 1, "a": 1})") == "key 'a' given twice");
  CHECK(problem(R"({"a": [{}, {"b": {"c": 1, "c": 2}}]})") == "key 'a[1].b.c' given twice");
  CHECK(problem(R"([0, {"": 1, "": 2}])") == "key '[1].' given twice");
  // The same key in sibling objects is no repetition.
  CHECK(problem(R"({"a": {"k": 1}, "b": {"k": 1}, "c": [{"k": 1}, {"k": 2}]})") == "(parsed)");
}

TEST_CASE("A strict JSON parse refuses a number that would read as 0, and names where it is", "[json]") {
  CHECK(problem(R"({"a": [1, 2, 1e-400]})") == "a[2]: '1e-400' is too small to hold (it would read as 0)");
  CHECK(problem("-2.5E-999") == "'-2.5E-999' is too small to hold (it would read as 0)");
  for (const char* zero : {"0e-400", "-0.000e-999", "0.0", "1e-300", "4.9e-324"}) CHECK(problem(zero) == "(parsed)");
}

TEST_CASE("A strict JSON parse stops at its depth limit, and keeps the rest of its rules", "[json]") {
  CHECK(problem(R"({"a": {"b": {"c": {"d": 1}}}})") == "(parsed)");
  CHECK(problem(R"({"a": {"b": {"c": {"d": {}}}}})") == "'a.b.c.d' nests deeper than 4 levels; nothing is that deep");
  CHECK(problem("[[[[[") == "the document nests deeper than 4 levels; nothing is that deep");
  CHECK(problem(R"({"a.b": 1})") == "key 'a.b' has a dot: nest it ({\"a\": {\"b\": ...}} for a.b)");
  CHECK(problem(R"({"a.b": 1})", JsonRules{"the document", 4, "", true}) == "(parsed)");
  // Syntax and range errors keep nlohmann's words, after the path where they stopped the parse.
  CHECK(problem(R"({"a": [1, 2,)").rfind("a[2]: invalid JSON: [json.exception.parse_error.101]", 0) == 0);
  CHECK(problem(R"({"a": 1e400})").rfind("a: invalid JSON: [json.exception.out_of_range.406] number overflow", 0) == 0);
  CHECK(problem("{} x").rfind("invalid JSON: [json.exception.parse_error.101]", 0) == 0);
}

TEST_CASE("A strict JSON parse reports every problem that leaves the document readable, and where", "[json]") {
  std::vector<std::string> problems;
  ptosim::platforms::JsonNotes notes;
  const auto parsed = parse_strict_json(R"({"s": {"k": 1}, "s": 3, "c": {"p": 1e-999, "x.y": 1, "q": 2}, "d": [1, 2e-400]})",
                                        kRules, problems, &notes);
  REQUIRE(parsed);  // readable, to be checked further, never to be used
  CHECK(problems == std::vector<std::string>{"key 's' given twice", "c.p: '1e-999' is too small to hold (it would read as 0)",
                                             "key 'c.x.y' has a dot: nest it ({\"a\": {\"b\": ...}} for a.b)",
                                             "d[1]: '2e-400' is too small to hold (it would read as 0)"});
  CHECK(notes.refused == std::set<std::string>{"s", "c.p", "d[1]"});
  CHECK((*parsed)["c"]["q"] == 2);
  // What ends the parse leaves no document.
  CHECK(unreadable(R"({"a": [1, 2,)"));
  CHECK(unreadable(R"({"a": 1e400})"));
  CHECK(unreadable(R"({"a": {"b": {"c": {"d": {}}}}})"));
  CHECK_FALSE(unreadable(R"({"a": 1, "a": 2})"));
}

TEST_CASE("A syntax error between an object's members names the object, not the member before", "[json]") {
  CHECK(problem(R"({"clock": {"period_ps": 541, "period_ps: 2}})").rfind("clock: invalid JSON:", 0) == 0);
  CHECK(problem(R"({"a": 1, "b: 2})").rfind("invalid JSON:", 0) == 0);
  CHECK(problem(R"({"a": {"b": 1}, "c" 2})").rfind("c: invalid JSON:", 0) == 0);  // a member without its ':'
  CHECK(problem(R"({"a": [1, {"b": 1} x]})").rfind("a[2]: invalid JSON:", 0) == 0);  // after an array's second element
}

TEST_CASE("A number's text says whether it is whole, which its value alone cannot", "[json]") {
  using ptosim::platforms::number_text_is_whole;
  for (const char* whole : {"0", "-0", "12", "-0.0", "1e3", "1.5e1", "10e-1", "2.000", "1E+2", " 7 ", "1e999999999999999999", "0e-5"})
    CHECK(number_text_is_whole(whole));
  for (const char* not_whole : {"0.99999999999999999", "4096.0000000000001", "1e-1", "1.25e1", "-2.5", "1e-999999999999999999",
                                "", "x", "1.", ".5", "1e", "--1", "1 2", "0x10"})
    CHECK_FALSE(number_text_is_whole(not_whole));
}

TEST_CASE("A strict JSON parse names the numbers that read as whole though they are not", "[json]") {
  std::vector<std::string> problems;
  ptosim::platforms::JsonNotes notes;
  const auto parsed = parse_strict_json(R"({"a": {"b": 0.99999999999999999, "c": 2.0, "d": 0.5}, "e": [4096.0000000000001]})",
                                        kRules, problems, &notes);
  REQUIRE(parsed);
  CHECK(problems.empty());
  CHECK(notes.refused.empty());
  CHECK(notes.rounded_to_whole ==
        std::map<std::string, std::string>{{"a.b", "0.99999999999999999"}, {"e[0]", "4096.0000000000001"}});
  CHECK((*parsed)["a"]["b"] == 1.0);  // the value stays what a plain parse reads
}

TEST_CASE("A strict JSON parse keeps the document's member order when asked for ordered JSON", "[json]") {
  const std::string text = R"({"z": 1, "a": {"y": [2, {"c": 3, "b": 4}], "x": null}})";
  std::vector<std::string> problems;
  const auto ordered = parse_strict_json<nlohmann::ordered_json>(text, kRules, problems);
  REQUIRE(ordered);
  CHECK(problems.empty());
  CHECK(ordered->dump() == R"({"z":1,"a":{"y":[2,{"c":3,"b":4}],"x":null}})");
  CHECK(parse_strict_json(text, kRules, problems)->dump() == R"({"a":{"x":null,"y":[2,{"b":4,"c":3}]},"z":1})");
  // Its checks are the same.
  CHECK_FALSE(parse_strict_json<nlohmann::ordered_json>(R"({"a": 1, "b": {"c": 1, "c": 2}})", kRules, problems)->empty());
  CHECK(problems == std::vector<std::string>{"key 'b.c' given twice"});
}
