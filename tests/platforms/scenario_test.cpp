// SPDX-License-Identifier: BSD-3-Clause
// The scenario contract's input side: descriptors, data arrays and field-naming errors.
#include <catch2/catch.hpp>

#include "platforms/ptosim/scenario.h"

using namespace ptosim;
using Json = nlohmann::json;

namespace {

std::string error_of(const char* doc) {
  platforms::Scenario s;
  return platforms::parse_scenario(Json::parse(doc), s);
}

}  // namespace

TEST_CASE("Scenario tiles: ordinary and CUBE descriptors, data and per-PE overrides", "[scenario]") {
  platforms::Scenario s;
  const auto doc = Json::parse(R"({
    "allocation": "queue",
    "tiles": [
      { "reg": "T#1", "dtype": "S8", "capacity": 128, "cols": 2, "rows": 64, "valid_rows": 2, "valid_cols": 2,
        "layout": "RowMajor", "location": "Any", "pe_mask": "1111",
        "data": ["ff", "05", "01", "fe"], "data_per_pe": { "PE2": ["00", "00", "00", "00"] } },
      { "reg": "M#3", "dtype": "FP16", "capacity": 512, "valid_rows": 16, "valid_cols": 10, "layout": "CUBE_M16",
        "location": "Matrix" },
      { "reg": "S4", "dtype": "U4X2", "capacity": 128, "cols": 16, "valid_rows": 1, "valid_cols": 3, "data": ["f", "1", null] }
    ],
    "gprs": { "PE1": { "2": "0x10", "23": "ffffffffffffffff" } },
    "status": ["NX"],
    "program": "" })");
  REQUIRE(platforms::parse_scenario(doc, s) == "");
  CHECK(s.allocation.policy == model::AllocationPolicy::Queue);
  CHECK(s.allocation.queue_depth == 16);
  CHECK(s.tiles[0].data[0][0] == 0xFFu);
  CHECK(s.tiles[0].data[2][0] == 0u);
  CHECK_FALSE(s.tiles[0].data[0][4].has_value());
  CHECK(s.tiles[1].desc.rows == 16);
  CHECK(s.tiles[1].desc.cols == 12);
  CHECK(s.tiles[2].ref.is_shared());
  CHECK(s.tiles[2].data[0][0] == 0xFu);
  CHECK(s.gprs[1][2] == 0x10u);
  CHECK(s.gprs[1][23] == ~0ULL);
  CHECK(s.status == 16);
}

TEST_CASE("Scenario errors name the field", "[scenario]") {
  CHECK(error_of(R"({ "tiles": [] })") == "program: required string");
  CHECK(error_of(R"({ "program": "", "extra": 1 })") == "extra: unknown field");
  CHECK(error_of(R"({ "program": "", "allocation": "lifo" })").rfind("allocation:", 0) == 0);
  CHECK(error_of(R"({ "program": "", "tiles": [ { "reg": "T#0" } ] })").rfind("tiles[0].reg:", 0) == 0);
  CHECK(error_of(R"({ "program": "", "tiles": [ { "reg": "T#1", "dtype": "S8", "capacity": 128, "cols": 2, "rows": 32,
                     "valid_rows": 1, "valid_cols": 1 } ] })").rfind("tiles[0].rows:", 0) == 0);
  CHECK(error_of(R"({ "program": "", "tiles": [ { "reg": "T#1", "dtype": "S8", "capacity": 128, "cols": 2,
                     "valid_rows": 1, "valid_cols": 1, "data": ["fff"] } ] })").rfind("tiles[0].data[0]:", 0) == 0);
  CHECK(error_of(R"({ "program": "", "tiles": [ { "reg": "T#1", "dtype": "FP16", "capacity": 128, "valid_rows": 20,
                     "valid_cols": 4, "layout": "CUBE_M16" } ] })").rfind("tiles[0].valid_rows/valid_cols:", 0) == 0);
  // Descriptor rules are named by the input field at fault (rows and cols are derived).
  CHECK(error_of(R"({ "program": "", "tiles": [ { "reg": "M#1", "dtype": "FP16", "capacity": 64, "valid_rows": 2,
                     "valid_cols": 2, "layout": "CUBE_M16", "location": "Matrix" } ] })") ==
        "tiles[0].capacity: CELL bytes exceed the capacity");
  CHECK(error_of(R"({ "program": "", "tiles": [ { "reg": "T#1", "dtype": "U8", "capacity": 128, "cols": 4,
                     "valid_rows": 33, "valid_cols": 4 } ] })") ==
        "tiles[0].valid_rows: valid rectangle exceeds the physical shape");
  CHECK(error_of(R"({ "program": "", "tiles": [ { "reg": "T#1", "dtype": "U8", "capacity": 128, "cols": 4,
                     "valid_rows": 1, "valid_cols": 5 } ] })") ==
        "tiles[0].valid_cols: valid rectangle exceeds the physical shape");
  CHECK(error_of(R"({ "program": "", "tiles": [ { "reg": "T#1", "dtype": "U8", "capacity": 128, "cols": 32,
                     "valid_rows": 1, "valid_cols": 1, "layout": "ZN" } ] })")
            .rfind("tiles[0].layout: ZN/NZ layouts need", 0) == 0);
  CHECK(error_of(R"({ "program": "", "tiles": [ { "reg": "T#1", "dtype": "S8", "capacity": 128, "cols": 2,
                     "valid_rows": 1, "valid_cols": 1, "pe_mask": "11" } ] })").rfind("tiles[0].pe_mask:", 0) == 0);
  CHECK(error_of(R"({ "program": "", "tiles": [ { "reg": "T#1", "dtype": "S8", "capacity": 128, "cols": 2,
                     "valid_rows": 1, "valid_cols": 1, "pe_mask": "1000", "data_per_pe": { "PE3": ["01"] } } ] })") ==
        "tiles[0].data_per_pe.PE3: PE3 is not in pe_mask 1000, so it holds no fragment of this tile");
  CHECK(error_of(R"({ "program": "", "gprs": { "PE0": { "24": "0x1" } } })").rfind("gprs.PE0.24:", 0) == 0);
  CHECK(error_of(R"({ "program": "", "gprs": { "PE0": { "3": 5 } } })").rfind("gprs.PE0.3:", 0) == 0);
  CHECK(error_of(R"({ "program": "", "status": ["XX"] })").rfind("status:", 0) == 0);
  CHECK(error_of(R"({ "program": "", "tiles": [ { "reg": "T#1", "dtype": "S8", "capacity": 128, "cols": 2,
                     "valid_rows": 1, "valid_cols": 1 }, { "reg": "T#1", "dtype": "S8", "capacity": 128, "cols": 2,
                     "valid_rows": 1, "valid_cols": 1 } ] })").find("given twice") != std::string::npos);
}
