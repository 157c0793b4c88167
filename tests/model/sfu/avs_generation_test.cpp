// SPDX-License-Identifier: BSD-3-Clause
// Equivalents of the pto-spec AVS tests of TFILLPAD, TCONCAT, TCI, TTRI and THISTOGRAM
// (tests/asl/tile/layout-and-rearrangement/{initialization/TFILLPAD,layout/TCONCAT},
// tests/asl/tile/irregular-and-complex/initialization/{TCI,TTRI,THISTOGRAM}, tests/asl/tile/
// model/execution/generation). Each TEST_CASE is named after its AVS file.
#include <catch2/catch.hpp>

#include "tests/model/sfu/sfu_test_util.h"

namespace ptosim::model {
namespace {

using sfu_test::at;
using sfu_test::Machine;

TEST_CASE("tile-exec-tfillpad-scalar-001", "[sfu][avs]") {
  Machine m;
  m.tile("T#2", DataType::U8, 128, 4, 1, 2, {1, 2});
  m.gpr(5, 0x1AA);
  const unsigned d = m.commit("BSTART.SFU TFILLPAD, U8\nB.DIM zero, 3, ->LB0\nB.DIM zero, 2, ->LB1\nB.DIM zero, 4, ->LB2\n"
                              "B.IOR r5, zero, zero, ->zero\nB.IOT T#2, mask=1111, last, ->T<1>\nBSTOP\n");
  const TileDescriptor& dd = m.desc(d);
  CHECK(dd.valid_rows == 2);
  CHECK(dd.valid_cols == 3);
  const auto out = m.read(d);
  CHECK(at(out, dd, 0, 0) == 1u);
  CHECK(at(out, dd, 0, 1) == 2u);
  CHECK(at(out, dd, 0, 2) == 0xAAu);  // low U8 bits of the GPR
  CHECK(at(out, dd, 1, 1) == 0xAAu);
  CHECK(at(out, dd, 31, 3) == 0xAAu);  // the whole physical tile is defined
  for (const auto& e : out) CHECK(e);
  CHECK(m.read(1)[0] == 1u);
}

TEST_CASE("tile-exec-tconcat-columns-001", "[sfu][avs]") {
  Machine m;
  m.tile("T#2", DataType::U8, 128, 2, 2, 2, {1, 2, 3, 4});
  m.tile("T#3", DataType::U8, 128, 1, 2, 1, {5, 6});
  const unsigned d = m.commit("BSTART.SFU TCONCAT, U8\nB.DIM zero, 3, ->LB0\nB.DIM zero, 2, ->LB1\nB.DIM zero, 4, ->LB2\n"
                              "B.IOT T#2, T#3, mask=1111, last, ->T<1>\nBSTOP\n");
  const TileDescriptor& dd = m.desc(d);
  const auto out = m.read(d);
  CHECK(at(out, dd, 0, 0) == 1u);
  CHECK(at(out, dd, 0, 1) == 2u);
  CHECK(at(out, dd, 0, 2) == 5u);
  CHECK(at(out, dd, 1, 0) == 3u);
  CHECK(at(out, dd, 1, 1) == 4u);
  CHECK(at(out, dd, 1, 2) == 6u);
  CHECK_FALSE(at(out, dd, 0, 3));  // Null padding
}

const char* const kTciHead = "BSTART.SFU TCI, U16\nB.DIM zero, 2, ->LB0\n";

TEST_CASE("tile-bound-tci-shape-001", "[sfu][avs]") {
  Machine m;
  const unsigned d = m.commit(std::string(kTciHead) + "B.IOT mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(m.desc(d).valid_rows == 1);
  CHECK(m.desc(d).dtype == DataType::U16);
  m.reject(std::string(kTciHead) + "B.DIM zero, 2, ->LB1\nB.IOT mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "exactly one row");
  m.reject("BSTART.SFU TCI, U8\nB.DIM zero, 2, ->LB0\nB.IOT mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "U8 is not a legal TCI DataType");
  // A column-major destination would need B.DATR Layout, which TCI does not accept.
  m.reject(std::string(kTciHead) + "B.DATR layout=ND2DN\nB.IOT mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "B.DATR Layout");
}

TEST_CASE("tile-exec-tci-bundle-001", "[sfu][avs]") {
  Machine m;
  const unsigned d = m.commit(std::string(kTciHead) + "B.IOT mask=1111, last, ->T<1>\nBSTOP\n");
  const TileDescriptor& dd = m.desc(d);
  CHECK(dd.valid_cols == 2);
  const auto out = m.read(d);
  CHECK(at(out, dd, 0, 0) == 0u);
  CHECK(at(out, dd, 0, 1) == 1u);
  CHECK_FALSE(at(out, dd, 1, 0));  // Null padding
}

TEST_CASE("tile-exec-tci-wrap-001", "[sfu][avs]") {
  Machine m;
  m.gpr(3, ~std::uint64_t{0});
  m.gpr(4, 1);
  const unsigned up = m.commit(std::string(kTciHead) + "B.IOR r3, zero, zero, ->zero\nB.IOT mask=1111, last, ->T<1>\nBSTOP\n");
  const unsigned down = m.commit(std::string(kTciHead) + "B.IOR r3, r4, zero, ->zero\nB.IOT mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(m.read(up)[0] == 0xFFFFu);
  CHECK(m.read(up)[1] == 0u);
  CHECK(m.read(down)[0] == 0xFFFFu);
  CHECK(m.read(down)[1] == 0xFFFEu);
}

TEST_CASE("tile-fault-tci-direction-001", "[sfu][avs]") {
  Machine m;
  m.gpr(2, 2);
  m.reject(std::string(kTciHead) + "B.IOR zero, r2, zero, ->zero\nB.IOT mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "direction) is 2");
  CHECK_FALSE(m.allocated(0));
}

const char* const kTtriHead = "BSTART.SFU TTRI, FP16\nB.DIM zero, 3, ->LB0\nB.DIM zero, 2, ->LB1\nB.DIM zero, 4, ->LB2\n";

TEST_CASE("tile-bound-ttri-shape-001", "[sfu][avs]") {
  Machine m;
  const unsigned d = m.commit(std::string(kTtriHead) + "B.IOT mask=1111, last, ->T<1>\nBSTOP\n");
  CHECK(m.desc(d).layout == Layout::RowMajor);
  m.reject("BSTART.SFU TTRI, U8\nB.DIM zero, 3, ->LB0\nB.IOT mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "U8 is not a legal TTRI DataType");
  m.reject(std::string(kTtriHead) + "B.DATR layout=ND2DN\nB.IOT mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "B.DATR Layout");
}

TEST_CASE("tile-exec-ttri-bundle-001", "[sfu][avs]") {
  Machine m;
  const unsigned d = m.commit(std::string(kTtriHead) + "B.IOT mask=1111, last, ->T<1>\nBSTOP\n");
  const TileDescriptor& dd = m.desc(d);
  CHECK(dd.dtype == DataType::FP16);
  CHECK(dd.valid_rows == 2);
  CHECK(dd.valid_cols == 3);
  const auto out = m.read(d);
  CHECK(at(out, dd, 0, 0) == 0x3C00u);
  CHECK(at(out, dd, 0, 1) == 0u);
  CHECK(at(out, dd, 1, 1) == 0x3C00u);
  CHECK_FALSE(at(out, dd, 0, 3));
}

TEST_CASE("tile-exec-ttri-edge-001", "[sfu][avs]") {
  Machine m;
  m.gpr(6, static_cast<std::uint64_t>(-65535));
  m.gpr(7, 1);
  const unsigned lower = m.commit(std::string(kTtriHead) + "B.IOR r6, zero, zero, ->zero\nB.IOT mask=1111, last, ->T<1>\nBSTOP\n");
  const unsigned upper = m.commit(std::string(kTtriHead) + "B.IOR r6, r7, zero, ->zero\nB.IOT mask=1111, last, ->T<1>\nBSTOP\n");
  for (std::uint32_t r = 0; r < 2; ++r)
    for (std::uint32_t c = 0; c < 3; ++c) {
      CHECK(at(m.read(lower), m.desc(lower), r, c) == 0u);
      CHECK(at(m.read(upper), m.desc(upper), r, c) == 0x3C00u);
    }
}

TEST_CASE("tile-exec-ttri-typed-001", "[sfu][avs]") {
  Machine m;
  const unsigned d = m.commit(std::string(kTtriHead) + "B.IOT mask=1111, last, ->T<1>\nBSTOP\n");
  const TileDescriptor& dd = m.desc(d);
  const auto out = m.read(d);
  CHECK(at(out, dd, 0, 0) == 0x3C00u);
  CHECK(at(out, dd, 0, 1) == 0u);
  CHECK(at(out, dd, 0, 2) == 0u);
  CHECK(at(out, dd, 1, 0) == 0x3C00u);
  CHECK(at(out, dd, 1, 1) == 0x3C00u);
  CHECK(at(out, dd, 1, 2) == 0u);
  CHECK_FALSE(at(out, dd, 0, 3));
}

TEST_CASE("tile-fault-ttri-orient-001", "[sfu][avs]") {
  Machine m;
  m.gpr(2, 2);
  m.reject(std::string(kTtriHead) + "B.IOR zero, r2, zero, ->zero\nB.IOT mask=1111, last, ->T<1>\nBSTOP\n",
              FaultCode::TileLegality, "orientation) is 2");
  CHECK_FALSE(m.allocated(0));
}

std::string histogram_program(const char* type, const std::string& datr, unsigned size_code = 4) {
  return std::string("BSTART.SFU THISTOGRAM, ") + type + "\n" + datr +
         "\nB.IOT U#1, U#2, mask=1111, last, ->T<" + std::to_string(size_code) + ">\nBSTOP\n";
}

TEST_CASE("tile-bound-thistogram-schema-001", "[sfu][avs]") {
  Machine m;
  m.tile("U#1", DataType::U16, 128, 4, 1, 4, {0, 0, 0, 0});
  m.tile("U#2", DataType::U8, 128, 1, 1, 1, {0});
  const unsigned d = m.commit(histogram_program("U16", "B.DATR dtype=U32, byteid=0"));
  CHECK(m.desc(d).dtype == DataType::U32);
  CHECK(m.desc(d).cols == 256);
  CHECK(m.desc(d).valid_cols == 256);
  m.commit(histogram_program("U16", "B.DATR dtype=U32, byteid=1"));
  m.reject(histogram_program("U16", "B.DATR dtype=U32, byteid=2"), FaultCode::TileLegality,
              "ByteId 2 is not defined for a U16 source");
  // The output geometry is fixed to 256 columns by the schema; no bundle can ask for 257. A
  // destination TSize without room for the valid rows is an allocation fault.
  m.reject(histogram_program("U16", "B.DATR dtype=U32, byteid=1", 3), FaultCode::TileAllocation, "TSize 512");
  m.tile("U#2", DataType::S8, 128, 1, 1, 1, {0});
  m.reject(histogram_program("U16", "B.DATR dtype=U32, byteid=0"), FaultCode::TileLegality,
              "U8 is required");
}

TEST_CASE("tile-exec-thistogram-bundle-001", "[sfu][avs]") {
  Machine m;
  m.tile("U#1", DataType::U16, 128, 4, 1, 2, {0x0100, 0x0200});
  m.tile("U#2", DataType::U8, 128, 1, 1, 1, {0});
  const unsigned d = m.commit(histogram_program("U16", "B.DATR dtype=U32, byteid=1"));
  const TileDescriptor& dd = m.desc(d);
  CHECK(dd.dtype == DataType::U32);
  CHECK(dd.valid_rows == 1);
  CHECK(dd.valid_cols == 256);
  CHECK(dd.cols == 256);
  CHECK(at(m.read(d), dd, 0, 1) == 1u);
  CHECK(at(m.read(d), dd, 0, 2) == 2u);
}

TEST_CASE("tile-exec-thistogram-prefix-001", "[sfu][avs]") {
  Machine m;
  m.tile("U#1", DataType::U16, 128, 4, 1, 4, {0x0100, 0x0200, 0x0201, 0xFF00});
  m.tile("U#2", DataType::U8, 128, 1, 1, 1, {0});
  const unsigned d = m.commit(histogram_program("U16", "B.DATR dtype=U32, byteid=1", 5));
  const TileDescriptor& dd = m.desc(d);
  const auto out = m.read(d);
  CHECK(at(out, dd, 0, 0) == 0u);
  CHECK(at(out, dd, 0, 1) == 1u);
  CHECK(at(out, dd, 0, 2) == 3u);
  CHECK(at(out, dd, 0, 254) == 3u);
  CHECK(at(out, dd, 0, 255) == 4u);
  CHECK_FALSE(at(out, dd, 1, 0));  // Null padding
}

TEST_CASE("tile-exec-thistogram-u16-filter-001", "[sfu][avs]") {
  Machine m;
  m.tile("U#1", DataType::U16, 128, 4, 2, 2, {0xAA01, 0xBB02, 0, 0, 0xBB03, 0xAA04});
  m.tile("U#2", DataType::U8, 128, 1, 2, 1, {0xAA, 0xBB});
  const unsigned d = m.commit(histogram_program("U16", "B.DATR dtype=U32, byteid=0", 5));
  const TileDescriptor& dd = m.desc(d);
  const auto out = m.read(d);
  CHECK(at(out, dd, 0, 0) == 0u);
  CHECK(at(out, dd, 0, 1) == 1u);
  CHECK(at(out, dd, 0, 255) == 1u);
  CHECK(at(out, dd, 1, 2) == 0u);
  CHECK(at(out, dd, 1, 3) == 1u);
  CHECK(at(out, dd, 1, 255) == 1u);
}

TEST_CASE("tile-exec-thistogram-u32-prefix-001", "[sfu][avs]") {
  Machine m;
  m.tile("U#1", DataType::U32, 128, 4, 1, 4, {0xAABBCC01, 0xAABBCC02, 0xAABBDD01, 0x11223301});
  // The filter is column-major: its logical [r, 0] elements are read through its layout.
  m.tile("U#2", DataType::U8, 128, 2, 3, 1, {0xAA, std::nullopt, 0xBB, std::nullopt, 0xCC}, Layout::ColumnMajor);
  const unsigned d = m.commit(histogram_program("U32", "B.DATR dtype=U32, byteid=0"));
  const TileDescriptor& dd = m.desc(d);
  const auto out = m.read(d);
  CHECK(at(out, dd, 0, 0) == 0u);
  CHECK(at(out, dd, 0, 1) == 1u);
  CHECK(at(out, dd, 0, 2) == 2u);
  CHECK(at(out, dd, 0, 255) == 2u);
}

TEST_CASE("tile-exec-generation-operations-001", "[sfu][avs]") {
  Machine m;
  m.gpr(1, 5);
  const unsigned seq = m.commit("BSTART.SFU TCI, U32\nB.DIM zero, 4, ->LB0\nB.IOR r1, zero, zero, ->zero\n"
                                "B.IOT mask=1111, last, ->T<2>\nBSTOP\n");
  CHECK(m.read(seq)[0] == 5u);
  CHECK(m.read(seq)[3] == 8u);
  const unsigned tri = m.commit("BSTART.SFU TTRI, U32\nB.DIM zero, 2, ->LB0\nB.DIM zero, 2, ->LB1\n"
                                "B.IOT mask=1111, last, ->T<2>\nBSTOP\n");
  const auto t = m.read(tri);
  CHECK(t[0] == 1u);
  CHECK(t[1] == 0u);
  CHECK(t[3] == 1u);
  m.gpr(2, 9);
  const unsigned filled = m.commit("BSTART.SFU TFILLPAD, U32\nB.DIM zero, 3, ->LB0\nB.DIM zero, 3, ->LB1\n"
                                   "B.DIM zero, 4, ->LB2\nB.IOR r2, zero, zero, ->zero\nB.IOT T#2, mask=1111, last, ->T<3>\nBSTOP\n");
  const TileDescriptor& fd = m.desc(filled);
  const auto f = m.read(filled);
  CHECK(at(f, fd, 0, 0) == 1u);
  CHECK(at(f, fd, 0, 1) == 0u);
  CHECK(at(f, fd, 2, 2) == 9u);
}

TEST_CASE("tile-static-generation-contract-001", "[sfu][avs]") {
  // The generation unit's contract: exact results and no flags; TCI and TTRI leave padding Null
  // even when the TSize has room, TFILLPAD defines the whole physical tile.
  Machine m;
  m.gpr(1, 0xFFFFFFFF);
  const BundleOutcome tci = m.run1("BSTART.SFU TCI, U32\nB.DIM zero, 3, ->LB0\nB.DIM zero, 4, ->LB2\n"
                                   "B.IOR r1, zero, zero, ->zero\nB.IOT mask=1111, last, ->T<2>\nBSTOP\n");
  REQUIRE(tci.kind == BundleOutcome::Kind::Committed);
  CHECK(tci.flags == 0);
  const auto seq = m.read(tci.destinations[0].index);
  CHECK(seq[0] == 0xFFFFFFFFu);
  CHECK(seq[1] == 0u);
  CHECK(seq[2] == 1u);
  for (std::size_t i = 3; i < seq.size(); ++i) CHECK_FALSE(seq[i]);
  const BundleOutcome tri = m.run1("BSTART.SFU TTRI, FP32\nB.DIM zero, 1, ->LB0\nB.DIM zero, 2, ->LB1\nB.DIM zero, 2, ->LB2\n"
                                   "B.IOT mask=1111, last, ->T<1>\nBSTOP\n");
  REQUIRE(tri.kind == BundleOutcome::Kind::Committed);
  CHECK(tri.flags == 0);
  const auto t = m.read(tri.destinations[0].index);
  CHECK(t[0] == 0x3F800000u);
  CHECK(t[2] == 0x3F800000u);
  CHECK_FALSE(t[1]);
  const BundleOutcome fill = m.run1("BSTART.SFU TFILLPAD, FP32\nB.DIM zero, 2, ->LB0\nB.DIM zero, 3, ->LB1\n"
                                    "B.IOR r1, zero, zero, ->zero\nB.IOT T#2, mask=1111, last, ->T<1>\nBSTOP\n");
  REQUIRE(fill.kind == BundleOutcome::Kind::Committed);
  CHECK(fill.flags == 0);
  const auto f = m.read(fill.destinations[0].index);
  CHECK(f[0] == 0x3F800000u);
  CHECK(f[4] == 0xFFFFFFFFu);  // the raw pad scalar: an FP32 NaN encoding, copied as bits
  for (const auto& e : f) CHECK(e);
}

}  // namespace
}  // namespace ptosim::model
