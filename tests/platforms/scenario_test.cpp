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
  CHECK(error_of(R"({ "program": "", "tiles": [ { "reg": "M#1", "dtype": "FP64", "capacity": 4096, "valid_rows": 2,
                     "valid_cols": 8, "layout": "CUBE_M16", "location": "Matrix" } ] })") ==
        "tiles[0].layout: FP64 has no CELL geometry, so it never takes CUBE layouts");
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
  // Rows derived from capacity and cols: each way it can fail is named.
  CHECK(error_of(R"({ "program": "", "tiles": [ { "reg": "T#1", "dtype": "S8", "capacity": 128, "cols": 3,
                     "valid_rows": 1, "valid_cols": 1 } ] })") == "tiles[0].cols: 3 is not a power of two");
  CHECK(error_of(R"({ "program": "", "tiles": [ { "reg": "T#1", "dtype": "FP64", "capacity": 128, "cols": 32,
                     "valid_rows": 1, "valid_cols": 1 } ] })") ==
        "tiles[0].capacity/cols: capacity 128 B is less than one row of 32 FP64 elements");
  CHECK(error_of(R"({ "program": "", "tiles": [ { "reg": "T#1", "dtype": "FP32", "capacity": 300, "cols": 8,
                     "valid_rows": 1, "valid_cols": 1 } ] })") ==
        "tiles[0].capacity/cols: capacity 300 B does not divide into rows of 8 FP32 elements");
  CHECK(error_of(R"({ "program": "", "tiles": [ { "reg": "T#1", "dtype": "U8", "capacity": 65536, "cols": 1,
                     "valid_rows": 1, "valid_cols": 1 } ] })") ==
        "tiles[0].capacity/cols: capacity 65536 B in rows of 1 U8 elements gives 65536 rows, more than 65535");
  CHECK(error_of(R"({ "program": "", "gprs": { "PE0": { "24": "0x1" } } })").rfind("gprs.PE0.24:", 0) == 0);
  CHECK(error_of(R"({ "program": "", "gprs": { "PE0": { "3": 5 } } })").rfind("gprs.PE0.3:", 0) == 0);
  CHECK(error_of(R"({ "program": "", "status": ["XX"] })").rfind("status:", 0) == 0);
  // Where the contract is silent exec takes the input: a flag named twice is set.
  CHECK(error_of(R"({ "program": "", "status": ["NX", "UF", "NX"] })") == "");
  CHECK(error_of(R"({ "program": "", "tiles": [ { "reg": "T#1", "dtype": "S8", "capacity": 128, "cols": 2,
                     "valid_rows": 1, "valid_cols": 1 }, { "reg": "T#1", "dtype": "S8", "capacity": 128, "cols": 2,
                     "valid_rows": 1, "valid_cols": 1 } ] })").find("given twice") != std::string::npos);
}

TEST_CASE("Scenario input tiles together fit each PE's tile capacity, as allocated tiles must", "[scenario]") {
  // 192 KiB and 128 KiB on every PE: 320 KiB on PE0, beyond its 256 KiB.
  CHECK(error_of(R"({ "program": "", "tiles": [
      { "reg": "U#1", "dtype": "U8", "capacity": 196608, "cols": 256, "valid_rows": 1, "valid_cols": 1 },
      { "reg": "U#2", "dtype": "U8", "capacity": 131072, "cols": 256, "valid_rows": 1, "valid_cols": 1 } ] })") ==
        "tiles[1].capacity: the input tiles hold 327680 bytes on PE0, beyond its tile capacity (262144)");
  // Charged per PE of the mask: on disjoint PEs they fit, and a Shared tile counts on its PEs too.
  CHECK(error_of(R"({ "program": "", "tiles": [
      { "reg": "U#1", "dtype": "U8", "capacity": 196608, "cols": 256, "valid_rows": 1, "valid_cols": 1, "pe_mask": "1100" },
      { "reg": "U#2", "dtype": "U8", "capacity": 131072, "cols": 256, "valid_rows": 1, "valid_cols": 1, "pe_mask": "0011" },
      { "reg": "S1", "dtype": "U8", "capacity": 131072, "cols": 256, "valid_rows": 1, "valid_cols": 1, "pe_mask": "0011" } ] })") ==
        "");
  CHECK(error_of(R"({ "program": "", "tiles": [
      { "reg": "U#1", "dtype": "U8", "capacity": 196608, "cols": 256, "valid_rows": 1, "valid_cols": 1, "pe_mask": "1100" },
      { "reg": "S1", "dtype": "U8", "capacity": 131072, "cols": 256, "valid_rows": 1, "valid_cols": 1, "pe_mask": "0110" } ] })") ==
        "tiles[1].capacity: the input tiles hold 327680 bytes on PE1, beyond its tile capacity (262144)");
}
