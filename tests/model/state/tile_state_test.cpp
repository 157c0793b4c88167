// SPDX-License-Identifier: BSD-3-Clause
// Tile descriptors, layouts, register names, PE masks and the two allocation policies.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "model/common/pe_mask.h"
#include "model/state/definedness.h"
#include "model/state/tile_descriptor.h"
#include "model/state/tile_ref.h"
#include "model/state/tile_state.h"

using namespace ptosim::model;

namespace {

TileDescriptor row_major(DataType t, std::uint32_t capacity, std::uint32_t cols, std::uint32_t vr, std::uint32_t vc) {
  TileDescriptor d;
  d.dtype = t;
  d.capacity_bytes = capacity;
  d.cols = cols;
  d.rows = *derived_rows(t, capacity, cols);
  d.valid_rows = vr;
  d.valid_cols = vc;
  d.pe_mask = PeMask::all();
  return d;
}

}  // namespace

TEST_CASE("PE masks: PE0 is the high bit and PEMode decodes to the eight encodable masks", "[state]") {
  CHECK(PeMask::from_pe_mode(0).bits() == 0x0);
  CHECK(PeMask::from_pe_mode(1).to_string() == "1000");
  CHECK(PeMask::from_pe_mode(4).to_string() == "0001");
  CHECK(PeMask::from_pe_mode(5).to_string() == "1100");
  CHECK(PeMask::from_pe_mode(6).to_string() == "1110");
  CHECK(PeMask::from_pe_mode(7).to_string() == "1111");
  CHECK(PeMask::parse("1000")->has(0));
  CHECK_FALSE(PeMask::parse("1000")->has(3));
  CHECK_FALSE(PeMask::parse("0101")->pe_mode().has_value());  // {PE1, PE3} cannot be encoded
  CHECK(PeMask::parse("0010")->pe_mode() == 3u);
  CHECK_FALSE(PeMask::parse("10x0").has_value());
  CHECK_FALSE(PeMask::parse("100").has_value());
}

TEST_CASE("Register names: T#1 is Local 0, N#16 is 63, S names are absolute", "[state]") {
  CHECK(TileRef::parse("T#1")->index == 0);
  CHECK(TileRef::parse("U#1")->index == 16);
  CHECK(TileRef::parse("N#16")->index == 63);
  CHECK(TileRef::parse("S0")->is_shared());
  CHECK(TileRef::parse("S255")->index == 255);
  CHECK_FALSE(TileRef::parse("S256"));
  CHECK_FALSE(TileRef::parse("T#0"));
  CHECK_FALSE(TileRef::parse("T#17"));
  CHECK_FALSE(TileRef::parse("X#1"));
  CHECK(TileRef::local(33).name() == "M#2");
  CHECK(TileRef::shared(7).name() == "S7");
  CHECK(TileRef::local(63) < TileRef::shared(0));
}

TEST_CASE("A destination's SizeCode hint names the smallest larger B.IOT size that holds it", "[state]") {
  CHECK(size_code_hint(128, DataType::FP32, 64, 1) == " (needs SizeCode 2, 256 B)");  // one 256-byte row
  CHECK(size_code_hint(128, DataType::FP32, 64, 64) == " (needs SizeCode 8, 16384 B)");
  CHECK(size_code_hint(4096, DataType::FP32, 64, 64) == " (needs SizeCode 8, 16384 B)");
  CHECK(size_code_hint(256, DataType::FP32, 0, 0, 1024) == " (needs SizeCode 4, 1024 B)");  // by bytes (CUBE CELLs)
  CHECK(size_code_hint(128, DataType::FP32, 3, 1) == "");          // Col not a power of two
  CHECK(size_code_hint(128, DataType::FP32, 64, 1024) == "");      // beyond SizeCode 10
  CHECK(size_code_hint(65536, DataType::S8, 1, 2) == "");          // too many rows: larger would not help
  CHECK(size_code_hint(16384, DataType::FP32, 64, 1) == "");       // it fits already: no hint
}

TEST_CASE("Derived rows follow TSize*8/(Col*bits) and reject unrepresentable shapes", "[state]") {
  CHECK(derived_rows(DataType::S8, 128, 2) == 64u);
  CHECK(derived_rows(DataType::FP32, 256, 8) == 8u);
  CHECK(derived_rows(DataType::U4X2, 128, 16) == 16u);
  CHECK_FALSE(derived_rows(DataType::FP32, 256, 3));       // Col not a power of two
  CHECK_FALSE(derived_rows(DataType::FP64, 128, 32));      // 1024 bits < one 2048-bit row
  CHECK_FALSE(derived_rows(DataType::U8, 65536, 1));       // 65536 rows do not fit 16 bits
}

TEST_CASE("Layouts map [r,c] to storage order", "[state]") {
  TileDescriptor d = row_major(DataType::FP32, 4096, 32, 32, 32);
  CHECK(storage_index(d, 1, 2) == 34);
  d.layout = Layout::ColumnMajor;
  CHECK(storage_index(d, 1, 2) == 2 * 32 + 1);
  // ZN: 16 x 8 FP32 fractal blocks, blocks row-major, column-major inside.
  d.layout = Layout::ZN;
  CHECK(storage_index(d, 17, 9) == (1 * 4 + 1) * 128 + 1 * 16 + 1);
  // NZ: blocks column-major, row-major inside.
  d.layout = Layout::NZ;
  CHECK(storage_index(d, 17, 9) == (1 * 2 + 1) * 128 + 1 * 8 + 1);
}

TEST_CASE("CELL shapes of every layout and DataType (cell_shape is served from a table)", "[state]") {
  for (int l = 0; l < 7; ++l) {
    const auto layout = static_cast<Layout>(l);
    for (DataType t : kAllDataTypes) {
      const auto cell = cell_shape(layout, t);
      const unsigned bits = element_bits(t);
      INFO(layout_name(layout) << " " << data_type_name(t));
      if (!is_cube_layout(layout) || bits == 64 || t == DataType::HiF4X2) {
        CHECK_FALSE(cell);
        continue;
      }
      REQUIRE(cell);
      CHECK(cell->rows * cell->cols * bits == kCellBytes * 8);
      if (layout == Layout::CubeN8) CHECK(cell->cols == 8);
      else CHECK(cell->rows == (layout == Layout::CubeM16 ? 16U : 32U));
    }
  }
}

TEST_CASE("A CUBE descriptor holds at most 16384 CELLs", "[state]") {
  // The ISA's rule, beyond any tile a 256 KiB capacity holds (at most 2048 CELLs of 128 bytes),
  // so it is pinned on the descriptor alone: 128 x 128 CELLs, and 128 x 129.
  const CellShape cell = *cell_shape(Layout::CubeN8, DataType::FP16);
  const auto described = [&](std::uint32_t cell_rows, std::uint32_t cell_cols) {
    TileDescriptor d;
    d.dtype = DataType::FP16;
    d.layout = Layout::CubeN8;
    d.rows = d.valid_rows = cell_rows * cell.rows;
    d.cols = d.valid_cols = cell_cols * cell.cols;
    d.capacity_bytes = 128 * cell_rows * cell_cols;
    return d;
  };
  CHECK_FALSE(descriptor_problem(described(128, 128)));
  const auto over = descriptor_problem(described(128, 129));
  REQUIRE(over);
  CHECK(over->part == DescriptorProblem::Part::ValidShape);
  CHECK(over->rule == "more than 16384 CELLs");
}

TEST_CASE("CUBE CELL layouts: storage shapes and CELL index mapping", "[state]") {
  // M16 FP16: CELL 16 x 4; a 16 x 10 valid shape stores 16 x 12 (3 CELLs).
  auto m16 = cube_storage_shape(Layout::CubeM16, DataType::FP16, 16, 10);
  REQUIRE(m16);
  CHECK(m16->rows == 16);
  CHECK(m16->cols == 12);
  CHECK_FALSE(cube_storage_shape(Layout::CubeM16, DataType::FP16, 17, 4));
  CHECK_FALSE(cube_storage_shape(Layout::CubeM32, DataType::FP64, 4, 4));
  CHECK_FALSE(cube_storage_shape(Layout::CubeN8, DataType::HiF4X2, 4, 4));
  // N8 S8: CELL K16 x N8; K = 20 pads to 32 rows, N = 9 pads to 16 columns.
  auto n8 = cube_storage_shape(Layout::CubeN8, DataType::S8, 20, 9);
  REQUIRE(n8);
  CHECK(n8->rows == 32);
  CHECK(n8->cols == 16);

  TileDescriptor a;
  a.dtype = DataType::FP16;
  a.layout = Layout::CubeM16;
  a.rows = 16;
  a.cols = 12;
  a.valid_rows = 16;
  a.valid_cols = 10;
  a.capacity_bytes = 512;
  CHECK_FALSE(descriptor_problem(a));
  CHECK(storage_index(a, 3, 5) == 1 * 64 + 3 * 4 + 1);  // CELL 1, row-major inside
  TileDescriptor b;
  b.dtype = DataType::S8;
  b.layout = Layout::CubeN8;
  b.rows = 32;
  b.cols = 16;
  b.valid_rows = 20;
  b.valid_cols = 9;
  b.capacity_bytes = 512;
  CHECK_FALSE(descriptor_problem(b));
  // K-fast CELL order: CELL (n_cell 1, k_cell 1) = 1 * K_repeat(2) + 1; column-major inside.
  CHECK(storage_index(b, 17, 9) == 3 * 128 + 1 * 16 + 1);
  // M16 with 4-bit lanes swaps inner columns 4..7 with 8..11.
  TileDescriptor p;
  p.dtype = DataType::S4X2;
  p.layout = Layout::CubeM16;
  p.rows = 16;
  p.cols = 16;
  p.valid_rows = 16;
  p.valid_cols = 16;
  p.capacity_bytes = 128;
  CHECK(storage_index(p, 0, 5) == 9);
  CHECK(storage_index(p, 0, 9) == 5);
  CHECK(storage_index(p, 0, 13) == 13);
  b.capacity_bytes = 256;
  CHECK(descriptor_problem(b));  // 4 CELLs need 512 bytes
}

TEST_CASE("ASL allocation: lowest free register of the hand, never released", "[state]") {
  TileState s(AllocationPolicy::Asl);
  const TileDescriptor d = row_major(DataType::FP32, 128, 1, 32, 1);
  s.install_local(0, d);  // T#1 taken
  auto names = s.allocate({{0, d}, {0, d}, {2, d}});
  REQUIRE(names);
  CHECK((*names)[0].name() == "T#2");
  CHECK((*names)[1].name() == "T#3");
  CHECK((*names)[2].name() == "M#1");
  for (int i = 0; i < 13; ++i) REQUIRE(s.allocate({{0, d}}));
  auto full = s.allocate({{0, d}});
  REQUIRE_FALSE(full);
  CHECK(full.fault().code == FaultCode::TileAllocation);
  CHECK(full.fault().rule.find("hand T") != std::string::npos);
}

TEST_CASE("Allocation is all-or-nothing and charges TSize on every PE of the mask against TILE_CAPACITY", "[state]") {
  TileState s(AllocationPolicy::Asl);
  TileDescriptor big = row_major(DataType::FP32, 65536, 64, 256, 64);
  for (int i = 0; i < 4; ++i) REQUIRE(s.allocate({{0, big}}));  // 4 x 64 KiB fill every PE's 256 KiB
  CHECK(s.capacity_in_use() == 262144);
  CHECK(s.capacity_in_use(2) == 262144);
  TileDescriptor small = row_major(DataType::FP32, 128, 1, 32, 1);
  auto r = s.allocate({{1, small}});
  REQUIRE_FALSE(r);
  CHECK(r.fault().code == FaultCode::TileAllocation);
  CHECK(r.fault().rule.find("PE0") != std::string::npos);
  CHECK_FALSE(s.local(16).allocated);
  s.set_tile_capacity(262144 + 128);
  small.pe_mask = PeMask(0x8);
  CHECK(s.allocate({{1, small}}));   // PE0 only: 128 bytes
  CHECK(s.capacity_in_use(0) == 262144 + 128);
  CHECK(s.capacity_in_use(1) == 262144);
}

TEST_CASE("Destinations that fit one by one but not together leave nothing allocated", "[state]") {
  TileState s(AllocationPolicy::Asl);
  const TileDescriptor big = row_major(DataType::FP32, 65536, 64, 256, 64);
  for (int i = 0; i < 3; ++i) REQUIRE(s.allocate({{0, big}}));  // 192 KiB of every PE's 256 KiB
  const TileDescriptor small = row_major(DataType::FP32, 128, 1, 32, 1);
  // Each request fits on its own, not the two together (192 KiB + 128 B + 64 KiB).
  REQUIRE_FALSE(s.check_allocation(DestinationRequest{2, small}));
  REQUIRE_FALSE(s.check_allocation(DestinationRequest{3, big}));
  auto two = s.allocate({{2, small}, {3, big}});
  REQUIRE_FALSE(two);
  CHECK(two.fault().code == FaultCode::TileAllocation);
  CHECK(s.capacity_in_use() == 196608);
  CHECK_FALSE(s.local(32).allocated);  // M#1, which the small request alone would have taken
  CHECK_FALSE(s.local(48).allocated);
}

TEST_CASE("A single destination request is checked exactly as a one-element list", "[state]") {
  TileState s(AllocationPolicy::Queue);
  const TileDescriptor big = row_major(DataType::FP32, 65536, 64, 256, 64);
  const DestinationRequest fits{0, big};
  CHECK_FALSE(s.check_allocation(fits));
  CHECK_FALSE(s.check_allocation(std::vector<DestinationRequest>{fits}));
  for (int i = 0; i < 4; ++i) REQUIRE(s.allocate({{static_cast<unsigned>(i), big}}));  // every PE full
  const auto single = s.check_allocation(DestinationRequest{1, big});
  const auto list = s.check_allocation(std::vector<DestinationRequest>{{1, big}});
  REQUIRE(single);
  REQUIRE(list);
  CHECK(single->code == list->code);
  CHECK(single->rule == list->rule);
  TileDescriptor broken = big;
  broken.cols = 3;
  const auto illegal = s.check_allocation(DestinationRequest{2, broken});
  REQUIRE(illegal);
  CHECK(illegal->rule == s.check_allocation(std::vector<DestinationRequest>{{2, broken}})->rule);
}

TEST_CASE("A request marked desc_checked skips the descriptor check alone", "[state]") {
  TileState s(AllocationPolicy::Asl);
  const TileDescriptor big = row_major(DataType::FP32, 65536, 64, 256, 64);
  TileDescriptor broken = big;
  broken.cols = 3;
  // Unmarked (every caller but CUBE preflight's D): the descriptor is checked.
  const auto illegal = s.check_allocation(DestinationRequest{2, broken});
  REQUIRE(illegal);
  CHECK(illegal->rule.find("cannot be allocated") != std::string::npos);
  // Marked: capacity is still checked.
  for (int i = 0; i < 4; ++i) REQUIRE(s.allocate({{static_cast<unsigned>(i), big}}));
  const auto full = s.check_allocation(DestinationRequest{1, big, true});
  REQUIRE(full);
  CHECK(full->rule == s.check_allocation(DestinationRequest{1, big})->rule);
}

TEST_CASE("Requests of one call see the slots earlier ones took, and allocate_checked places like allocate", "[state]") {
  const TileDescriptor big = row_major(DataType::FP32, 65536, 64, 256, 64);
  TileState s(AllocationPolicy::Queue, 2);
  REQUIRE(s.allocate({{0, big}, {0, big}}));
  for (unsigned hand = 1; hand < 3; ++hand) REQUIRE(s.allocate({{hand, big}}));
  REQUIRE(s.capacity_in_use() == 262144);  // every PE full
  // Depth 2: the first request releases T#2, the second the T#1 before the call, so both fit.
  const std::vector<DestinationRequest> twice{{0, big}, {0, big}};
  CHECK_FALSE(s.check_allocation(twice));
  TileState placed = s;
  auto names = s.allocate(twice);
  REQUIRE(names);
  CHECK(*names == std::vector<TileRef>{TileRef::local(1), TileRef::local(0)});
  CHECK(s.capacity_in_use() == 262144);
  std::vector<TileRef> placed_names{TileRef::shared(9)};  // replaced, not appended to
  placed.allocate_checked(twice, placed_names);
  CHECK(placed_names == *names);
  CHECK(placed.capacity_in_use() == s.capacity_in_use());
  CHECK(placed.physical_index(0) == s.physical_index(0));
  CHECK(placed.physical_index(1) == s.physical_index(1));
}

TEST_CASE("A bundle's destinations never release one another: more in a hand than its queue holds is a fault", "[state]") {
  const TileDescriptor d = row_major(DataType::FP32, 1024, 1, 256, 1);
  TileState s(AllocationPolicy::Queue, 1);
  REQUIRE(s.allocate({{2, d}}));
  const auto fault = s.allocate({{2, d}, {2, d}});
  REQUIRE_FALSE(fault);
  CHECK(fault.fault().code == FaultCode::TileAllocation);
  CHECK(fault.fault().rule == "hand M's queue (queue:1) cannot hold every destination this bundle puts in it");
  CHECK(s.local(32).allocated);  // nothing changed: M#1 is the tile before the call
  CHECK(s.capacity_in_use() == 1024);
  // Other hands, or a deeper queue, hold them.
  CHECK(s.allocate({{2, d}, {3, d}}));
  TileState deeper(AllocationPolicy::Queue, 2);
  CHECK(deeper.allocate({{2, d}, {2, d}}));
  CHECK_FALSE(deeper.allocate({{2, d}, {2, d}, {2, d}}));
}

TEST_CASE("Capacity in use follows tiles changed through the mutable accessors", "[state]") {
  TileState s(AllocationPolicy::Queue, 2);
  const TileDescriptor d = row_major(DataType::FP32, 1024, 1, 256, 1);
  REQUIRE(s.allocate({{0, d}, {1, d}}));
  CHECK(s.capacity_in_use() == 2048);
  s.local(16).allocated = false;  // U#1
  CHECK(s.capacity_in_use() == 1024);
  s.slot(s.physical_index(0)).desc.capacity_bytes = 4096;
  CHECK(s.capacity_in_use(3) == 4096);
  s.install_shared(7, d, PeMask::all(), PeMask::all(), true);
  CHECK(s.capacity_in_use(0) == 4096 + 1024);
  s.shared(7).allocation_mask = PeMask(0x8);
  CHECK(s.capacity_in_use(0) == 4096 + 1024);
  CHECK(s.capacity_in_use(1) == 4096);
  s.set_tile_capacity(4096 + 1024);
  auto full = s.allocate({{1, d}});  // PE0 has no room left
  REQUIRE_FALSE(full);
  CHECK(full.fault().rule.find("PE0") != std::string::npos);
  s.shared(7).allocated = false;
  CHECK(s.allocate({{1, d}}));
  CHECK(s.capacity_in_use() == 4096 + 1024);
}

TEST_CASE("Queue allocation: newest result is X#1, older ones shift, X#16 is released", "[state]") {
  TileState s(AllocationPolicy::Queue);
  TileDescriptor d = row_major(DataType::FP32, 128, 1, 32, 1);
  for (std::uint32_t i = 0; i < 20; ++i) {
    d.valid_rows = i + 1;
    auto names = s.allocate({{0, d}});
    REQUIRE(names);
    CHECK((*names)[0].name() == "T#1");
  }
  // The 20th result is T#1, the 5th is T#16, the first four were released.
  CHECK(s.local(0).desc.valid_rows == 20);
  CHECK(s.local(1).desc.valid_rows == 19);
  CHECK(s.local(15).desc.valid_rows == 5);
  CHECK(s.capacity_in_use() == 16 * 128);
  // A register's physical slot: a Local name's moves with the queue, a Shared one's is its index.
  CHECK(s.physical_slot(TileRef::local(1)) == s.physical_index(1));
  CHECK(&s.slot(s.physical_slot(TileRef::local(1))) == &s.local(1));
  CHECK(s.physical_slot(TileRef::shared(100)) == 100);
  // Two destinations in one hand: encoded order, the later one is the newer.
  d.valid_rows = 7;
  TileDescriptor e = d;
  e.valid_rows = 8;
  auto both = s.allocate({{0, d}, {0, e}});
  REQUIRE(both);
  CHECK((*both)[0].name() == "T#2");
  CHECK((*both)[1].name() == "T#1");
  CHECK(s.local(1).desc.valid_rows == 7);
}

TEST_CASE("A shallower queue releases X#depth, the policy text names it", "[state]") {
  CHECK(allocation_spec_from_text("asl")->policy == AllocationPolicy::Asl);
  CHECK(allocation_spec_from_text("queue")->queue_depth == 16);
  CHECK(allocation_spec_from_text("queue:2")->queue_depth == 2);
  CHECK_FALSE(allocation_spec_from_text("queue:0"));
  CHECK_FALSE(allocation_spec_from_text("queue:17"));
  CHECK_FALSE(allocation_spec_from_text("queue:x"));
  CHECK_FALSE(allocation_spec_from_text("lifo"));
  TileState s(AllocationPolicy::Queue, 2);
  TileDescriptor d = row_major(DataType::FP32, 65536, 64, 256, 64);
  for (int i = 0; i < 10; ++i) REQUIRE(s.allocate({{0, d}}));  // 64 KiB results: only two stay alive
  CHECK(s.capacity_in_use() == 2 * 65536);
  CHECK(s.local(0).allocated);
  CHECK(s.local(1).allocated);
  CHECK_FALSE(s.local(2).allocated);
}

TEST_CASE("Definedness answers rectangle queries exactly through copies and later writes", "[state]") {
  Definedness d(8 * 4, false);  // 8 rows of stride 4
  d.set_rect(3, 2, 4);
  CHECK(d.rect_defined(3, 2, 4));
  CHECK(d.rect_defined(2, 2, 4));
  CHECK_FALSE(d.rect_defined(3, 3, 4));
  CHECK_FALSE(d.rect_defined(9, 1, 4));  // beyond the fragment
  const Definedness copy = d;
  d.set(4, false);  // [1,0]
  CHECK_FALSE(d.rect_defined(3, 2, 4));
  CHECK(d.first_undefined_in_rect(3, 2, 4) == 4);
  CHECK(copy.rect_defined(3, 2, 4));
  Definedness assigned(1, true);
  assigned = d;
  CHECK_FALSE(assigned.rect_defined(3, 2, 4));
  assigned.set(4, true);
  CHECK(assigned.rect_defined(3, 2, 4));
  Definedness whole(8 * 4, true);
  CHECK(whole.rect_defined(8, 4, 4));
  whole.set(31, false);
  CHECK_FALSE(whole.rect_defined(8, 4, 4));
  CHECK(whole.rect_defined(7, 4, 4));
}

TEST_CASE("Definedness cleared over defined bits reads undefined everywhere until written", "[state]") {
  Definedness d(100, true);
  d.assign(100, false);  // the old words are left in place until a write needs them
  CHECK_FALSE(d.test(0));
  CHECK_FALSE(d[99]);
  CHECK_FALSE(d.rect_defined(1, 1, 10));
  CHECK(d.first_undefined_in_rect(2, 2, 10) == 0);
  CHECK(d == Definedness(100, false));
  CHECK(d != Definedness(100, true));
  const Definedness copy = d;
  CHECK(copy == Definedness(100, false));
  d.set(11, true);
  CHECK(d.test(11));
  CHECK_FALSE(d.test(10));
  CHECK_FALSE(d.test(12));
  d.assign(100, false);
  d.set_rect(2, 3, 10);
  CHECK(d.rect_defined(2, 3, 10));
  CHECK_FALSE(d.test(3));
  CHECK_FALSE(d.test(99));
  CHECK(d.first_undefined_in_rect(3, 3, 10) == 20);
  // Whole rows of a cleared fragment, ending inside a word and on a word boundary.
  for (const std::uint32_t rows : {7U, 8U}) {
    Definedness rect(100, true);
    rect.assign(100, false);
    rect.set_rect(rows, 8, 8);
    CHECK(rect.rect_defined(rows, 8, 8));
    CHECK(rect.first_undefined_in_rect(12, 8, 8) == rows * 8);
    CHECK_FALSE(rect.test(99));
    Definedness bits(100, false);
    for (std::uint32_t i = 0; i < rows * 8; ++i) bits.set(i, true);
    CHECK(rect == bits);
  }
}

TEST_CASE("Definedness kept as a defined prefix answers exactly as one written bit by bit", "[state]") {
  // 10 rows of stride 10; prefixes ending mid-row, on a row, mid-word and on a word boundary.
  for (const std::uint64_t length : {0ULL, 7ULL, 30ULL, 64ULL, 65ULL, 100ULL}) {
    Definedness prefix(100, false);  // the bits stay a prefix: no word is written
    if (length == 100) prefix.assign(100, true);
    if (length % 10 == 0 && length < 100) prefix.set_rect(static_cast<std::uint32_t>(length / 10), 10, 10);
    if (length % 10 != 0) {  // rows of stride 1: a longer rectangle, then a shorter one inside it
      prefix.set_rect(static_cast<std::uint32_t>(length), 1, 1);
      prefix.set_rect(1, 1, 1);
    }
    Definedness written(100, false);
    for (std::uint64_t i = 0; i < length; ++i) written.set(i, true);
    CHECK(prefix == written);
    for (std::uint64_t i = 0; i < 100; ++i) CHECK(prefix.test(i) == (i < length));
    for (std::uint32_t rows = 0; rows <= 11; ++rows)
      for (std::uint32_t cols = 0; cols <= 10; ++cols) {
        const Definedness fresh_prefix = prefix, fresh_written = written;  // no cached answers
        CHECK(fresh_prefix.rect_defined(rows, cols, 10) == fresh_written.rect_defined(rows, cols, 10));
        CHECK(prefix.first_undefined_in_rect(rows, cols, 10) == written.first_undefined_in_rect(rows, cols, 10));
      }
    // Assigned over written words, the prefix is what counts; a later write starts from it.
    Definedness copy(100, false);
    copy.set(99, true);
    copy = prefix;
    CHECK(copy == written);
    copy.set(99, true);
    written.set(99, true);
    CHECK(copy == written);
    // A partial rectangle writes the words first.
    Definedness partial = prefix;
    partial.set_rect(10, 3, 10);
    for (std::uint64_t i = 0; i < 100; ++i) CHECK(partial.test(i) == (i < length || i % 10 < 3));
  }
}

TEST_CASE("Installing a tile that cannot be stored is refused before any change, while an illegal one installs", "[state]") {
  TileState s;
  const TileDescriptor good = row_major(DataType::FP32, 256, 8, 8, 8);
  CHECK_FALSE(TileState::install_problem(TileRef::Space::Local, 63, good));
  CHECK(TileState::install_problem(TileRef::Space::Local, 64, good) == "Local register index 64 is past the 64 registers");
  CHECK(TileState::install_problem(TileRef::Space::Shared, 256, good) ==
        "Shared register index 256 is past the 256 registers");
  TileDescriptor overfull = good;
  overfull.capacity_bytes = 64;
  CHECK(TileState::install_problem(TileRef::Space::Local, 0, overfull) ==
        "8x8 FP32 elements need more than the capacity of 64 B");
  TileDescriptor vast = good;
  vast.rows = vast.cols = 0xFFFFFFFFU;  // rows x cols x bits would overflow 64 bits
  CHECK(TileState::install_problem(TileRef::Space::Local, 0, vast));
  TileDescriptor huge = good;
  huge.capacity_bytes = 2 * kMaxTileBytes;
  CHECK(TileState::install_problem(TileRef::Space::Local, 0, huge) == "capacity 524288 B exceeds the largest tile, 262144 B");
  CHECK_THROWS_AS(s.install_local(0, overfull), std::invalid_argument);
  CHECK_THROWS_AS(s.install_shared(0, overfull, PeMask::all(), PeMask::all(), true), std::invalid_argument);
  CHECK_FALSE(s.local(0).allocated);
  CHECK_FALSE(s.shared(0).allocated);
  // Storable but illegal (valid columns past Col): installed, and left to preflight to reject.
  TileDescriptor illegal = good;
  illegal.valid_cols = 9;
  s.install_local(0, illegal);
  CHECK(s.local(0).allocated);
  CHECK_FALSE(s.local(0).installed_legal(illegal));
}

TEST_CASE("A GPR to set exists on PEs 0..3 as r1..r23 (r0 reads as zero and is none)", "[state]") {
  CHECK_FALSE(TileState::gpr_problem(0, 1));
  CHECK_FALSE(TileState::gpr_problem(3, kGprCount - 1));
  CHECK(TileState::gpr_problem(0, 0) == "PE 0 GPR 0 does not exist (PEs 0..3, GPRs 1..23)");
  CHECK(TileState::gpr_problem(0, kGprCount) == "PE 0 GPR 24 does not exist (PEs 0..3, GPRs 1..23)");
  CHECK(TileState::gpr_problem(-1, 1) == "PE -1 GPR 1 does not exist (PEs 0..3, GPRs 1..23)");
  CHECK(TileState::gpr_problem(kPeCount, 1) == "PE 4 GPR 1 does not exist (PEs 0..3, GPRs 1..23)");
}

TEST_CASE("An install's capacity check counts the register's current tile as replaced and charges each PE of the mask",
          "[state]") {
  TileState s;
  // 192 KiB on every PE: another 128 KiB beyond the 256 KiB tile capacity, on the first PE it would charge.
  const TileDescriptor big = row_major(DataType::U8, 196608, 256, 1, 1), half = row_major(DataType::U8, 131072, 256, 1, 1);
  s.install_local(16, big);
  CHECK(s.install_capacity_problem(TileRef::Space::Local, 17, half) ==
        "the tiles would hold 327680 bytes on PE0, beyond its tile capacity (262144)");
  // Replacing the big tile itself frees its bytes first.
  CHECK_FALSE(s.install_capacity_problem(TileRef::Space::Local, 16, half));
  // On PEs the big tile does not use, it fits; a Shared tile is charged on its allocation's PEs.
  TileDescriptor low_pes = half;
  low_pes.pe_mask = *PeMask::parse("0011");
  s.install_local(16, [&] {
    TileDescriptor d = big;
    d.pe_mask = *PeMask::parse("1100");
    return d;
  }());
  CHECK_FALSE(s.install_capacity_problem(TileRef::Space::Local, 17, low_pes));
  CHECK_FALSE(s.install_capacity_problem(TileRef::Space::Shared, 3, low_pes));
  s.install_shared(3, low_pes, low_pes.pe_mask, low_pes.pe_mask, true);
  TileDescriptor pe1 = half;
  pe1.pe_mask = *PeMask::parse("0100");
  CHECK(s.install_capacity_problem(TileRef::Space::Local, 17, pe1) ==
        "the tiles would hold 327680 bytes on PE1, beyond its tile capacity (262144)");
  s.install_local(17, low_pes);  // exactly the capacity on PE2 and PE3
  CHECK(s.capacity_in_use(2) == 262144);
  CHECK(s.install_capacity_problem(TileRef::Space::Shared, 4, low_pes) ==
        "the tiles would hold 393216 bytes on PE2, beyond its tile capacity (262144)");
}

TEST_CASE("An input tile given field by field is checked as a program file's: storable, legal, rows derived, within "
          "the tile capacity",
          "[state]") {
  TileState s;
  const TileDescriptor good = row_major(DataType::FP32, 256, 8, 4, 8);  // 8 rows of 8
  CHECK_FALSE(s.input_tile_problem(TileRef::Space::Local, 0, good));
  CHECK_FALSE(s.input_tile_problem(TileRef::Space::Shared, 255, good));
  CHECK(s.input_tile_problem(TileRef::Space::Local, 64, good) == "Local register index 64 is past the 64 registers");
  TileDescriptor wide = good;
  wide.valid_cols = 9;
  CHECK(s.input_tile_problem(TileRef::Space::Local, 0, wide) == "valid rectangle exceeds the physical shape");
  TileDescriptor short_rows = good;
  short_rows.rows = 4;
  CHECK(s.input_tile_problem(TileRef::Space::Local, 0, short_rows) == "4 rows are not the 8 the capacity holds");
  TileDescriptor odd = good;
  odd.capacity_bytes = 300;
  CHECK(s.input_tile_problem(TileRef::Space::Local, 0, odd) ==
        "capacity 300 B does not divide into 1..65535 rows of 8 FP32 elements");
  TileDescriptor cube = good;
  cube.dtype = DataType::FP16;
  cube.layout = Layout::CubeM16;
  const auto shape = cube_storage_shape(Layout::CubeM16, DataType::FP16, 16, 16);
  REQUIRE(shape);
  cube.rows = shape->rows;
  cube.cols = shape->cols;
  cube.valid_rows = cube.valid_cols = 16;
  cube.capacity_bytes = 512;
  CHECK_FALSE(s.input_tile_problem(TileRef::Space::Local, 0, cube));  // a CUBE tile's rows are its CELL storage's
  CHECK(s.input_tile_problem(TileRef::Space::Shared, 0, cube) == "Shared tiles never use CUBE layouts");
  s.install_local(1, row_major(DataType::U8, 262144, 256, 1, 1));
  CHECK(s.input_tile_problem(TileRef::Space::Local, 0, good) ==
        "the tiles would hold 262400 bytes on PE0, beyond its tile capacity (262144)");
}
