// SPDX-License-Identifier: BSD-3-Clause
// Property tests: every SFU operation on every DataType it accepts, over thousands of random tiles
// (1x1, 1xN, Nx1, ValidRow < Row, ValidCol < Col, one maximal tile each; all seven PE masks;
// values rich in NaN, infinities, signed zeros, subnormals and extremes), against the simple
// reference of reference.cpp: every destination element, padding, definedness and flags.
#include <catch2/catch.hpp>

#include <string>

#include "model/exec/functional_machine.h"
#include "model/numeric/float_format.h"
#include "model/numeric/scalar_ops.h"
#include "model/sfu/sfu_host_float.h"
#include "model/sfu/sfu_types.h"
#include "tests/model/sfu/reference.h"
#include "tests/model/support/machine_harness.h"

namespace ptosim::model {
namespace {

/// Random tiles per operation and DataType (the first one maximal).
constexpr int kTiles = 2000;

/// SplitMix64: fast, fixed-seed, good enough to spread test inputs.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : m_state(seed) {}
  std::uint64_t bits() {
    std::uint64_t z = (m_state += 0x9E3779B97F4A7C15);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
    return z ^ (z >> 31);
  }
  std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(bits() % n); }
  bool chance(std::uint32_t percent) { return below(100) < percent; }
  template <typename T>
  const T& pick(const std::vector<T>& v) { return v[below(static_cast<std::uint32_t>(v.size()))]; }

 private:
  std::uint64_t m_state;
};

// The special encodings of a type: zeros, ones, extremes, subnormal bounds, infinities, NaNs.
std::vector<std::uint64_t> specials(DataType t) {
  const std::uint64_t mask = element_mask(t);
  if (is_integer(t)) {
    const std::uint64_t top = std::uint64_t{1} << (element_bits(t) - 1);
    return {0, 1, 2, mask, top, top - 1, mask - 1};
  }
  const numeric::FloatFormat& f = *numeric::float_format(t);
  const std::uint64_t sign = std::uint64_t{1} << f.sign_bit;
  const std::uint64_t ulp = std::uint64_t{1} << f.frac_shift;
  std::vector<std::uint64_t> v = {0, ulp, ((std::uint64_t{1} << f.frac_bits) - 1) * ulp,
                                  ulp << f.frac_bits, numeric::one(t), f.max_finite};
  if (f.has_inf) v.push_back(f.inf);
  if (f.nan == numeric::NanStyle::Ieee) {
    v.push_back(f.canonical_nan);
    v.push_back(f.canonical_nan | ulp);                 // quiet, other payload
    v.push_back(f.inf | ulp);                           // signaling
    v.push_back(f.inf | (f.canonical_nan ^ f.inf) >> 1);  // signaling, high payload
  } else if (f.nan == numeric::NanStyle::E4M3) {
    v.push_back(f.canonical_nan);
  }
  const std::size_t n = v.size();
  for (std::size_t i = 0; i < n; ++i) v.push_back(v[i] | sign);
  for (std::uint64_t& e : v) e &= mask;
  return v;
}

/// A valid encoding of `t`: a special value, a value near one (so that folds round and
/// cancel), or random bits.
std::uint64_t random_value(Rng& g, DataType t, const std::vector<std::uint64_t>& special) {
  const std::uint32_t kind = g.below(100);
  if (kind < 20) return g.pick(special);
  if (is_integer(t)) return kind < 50 ? g.below(16) : g.bits() & element_mask(t);
  const numeric::FloatFormat& f = *numeric::float_format(t);
  if (kind < 70 && f.exp_bits > 2) {
    const std::uint64_t e_max = (std::uint64_t{1} << f.exp_bits) - 2;
    const std::uint64_t e = std::min<std::uint64_t>(std::max<std::uint64_t>(f.bias + g.below(9) - 4, 1), e_max);
    const std::uint64_t frac = g.bits() & ((std::uint64_t{1} << f.frac_bits) - 1);
    return (g.chance(50) ? std::uint64_t{1} << f.sign_bit : 0) | (e << (f.frac_bits + f.frac_shift)) |
           (frac << f.frac_shift);
  }
  return g.bits() & f.payload & element_mask(t);
}

/// A source tile as every PE holds it (contents differ per PE): the elements of its valid rows,
/// the columns beyond ValidCol zero.
struct Input {
  TileDescriptor desc;
  std::array<sfu_ref::Tile, kPeCount> pe;
};

Input make_input(Rng& g, DataType t, std::uint32_t capacity, std::uint32_t cols, std::uint32_t valid_rows,
                 std::uint32_t valid_cols, Layout layout = Layout::RowMajor) {
  Input in;
  in.desc.dtype = t;
  in.desc.capacity_bytes = capacity;
  in.desc.cols = cols;
  in.desc.rows = *derived_rows(t, capacity, cols);
  in.desc.valid_rows = valid_rows;
  in.desc.valid_cols = valid_cols;
  in.desc.layout = layout;
  in.desc.pe_mask = PeMask::all();
  const auto special = specials(t);
  for (auto& p : in.pe) {
    p.desc = in.desc;
    p.e.assign(std::size_t{valid_rows} * cols, 0);  // the valid rows; later rows stay undefined
    for (std::uint32_t r = 0; r < valid_rows; ++r)
      for (std::uint32_t c = 0; c < valid_cols; ++c) p.e[std::size_t{r} * cols + c] = random_value(g, t, special);
  }
  return in;
}

/// A machine whose tile capacity never limits the maximal tiles (capacity has its own tests).
FunctionalMachine machine() {
  FunctionalMachine m;
  m.state().set_tile_capacity(std::uint64_t{1} << 30);
  return m;
}

void install(FunctionalMachine& m, unsigned index, const Input& in) {
  std::array<FragmentData, kPeCount> data;
  for (int pe = 0; pe < kPeCount; ++pe) data[pe].assign(in.pe[pe].e.begin(), in.pe[pe].e.end());
  m.load_local(index, in.desc, data);
}

/// A random valid shape for a `t` tile: capacity, Col (a power of two), ValidRow, ValidCol.
struct Shape {
  std::uint32_t capacity, cols, valid_rows, valid_cols;
};

/// `maximal`: the largest B.IOT TSize (64 KiB, or `maximal_bytes`) filled completely.
Shape random_shape(Rng& g, DataType t, bool maximal, std::uint32_t maximal_bytes = 65536) {
  const unsigned bits = element_bits(t);
  if (maximal) {
    const std::uint32_t cols = std::min<std::uint32_t>(maximal_bytes * 8 / bits / 4, 256);
    return {maximal_bytes, cols, *derived_rows(t, maximal_bytes, cols), cols};
  }
  const std::uint32_t capacity = 128U << g.below(4);
  const std::uint32_t max_cols = std::min<std::uint32_t>(capacity * 8 / bits, 32);
  std::uint32_t cols = 1U << g.below(6);
  while (cols > max_cols) cols >>= 1;
  const std::uint32_t rows = *derived_rows(t, capacity, cols);
  const std::uint32_t row_cap = std::min<std::uint32_t>(rows, 16);
  switch (g.below(5)) {
    case 0: return {capacity, cols, 1, 1};
    case 1: return {capacity, cols, 1, 1 + g.below(cols)};
    case 2: return {capacity, cols, 1 + g.below(row_cap), 1};
    default: return {capacity, cols, 1 + g.below(row_cap), 1 + g.below(cols)};
  }
}

/// The smallest power-of-two capacity from 128 B whose `cols`-column rows hold `valid_rows`.
std::uint32_t capacity_for(DataType t, std::uint32_t cols, std::uint32_t valid_rows) {
  std::uint32_t capacity = 128;
  while (derived_rows(t, capacity, cols).value_or(0) < valid_rows) capacity *= 2;
  return capacity;
}

/// The smallest destination SizeCode whose TSize holds `valid_rows` rows of `cols` `t` elements.
unsigned size_code_for(DataType t, std::uint32_t cols, std::uint32_t valid_rows) {
  for (unsigned code = 1; code <= 10; ++code) {
    const auto rows = derived_rows(t, size_code_bytes(code), cols);
    if (rows && *rows >= valid_rows) return code;
  }
  FAIL("no SizeCode holds the destination");
  return 0;
}

unsigned code_of_bytes(std::uint32_t bytes) {
  unsigned code = 1;
  while (size_code_bytes(code) < bytes) ++code;
  return code;
}

const PeMask kMasks[] = {PeMask(0b1000), PeMask(0b0100), PeMask(0b0010), PeMask(0b0001),
                         PeMask(0b1100), PeMask(0b1110), PeMask(0b1111)};

/// A bundle built field by field (the front end has its own tests).
Bundle make_bundle(Operation op, DataType t, PeMask mask) {
  Bundle b;
  b.kind = StartKind::Tepl;
  b.dtype_code = static_cast<std::uint8_t>(data_type_code(t));
  b.mode = operation_info(op).mode;
  b.function = operation_info(op).function;
  b.mnemonic = operation_mnemonic(op);
  b.op = op;
  b.terminated = true;
  IotBinding io;
  io.has_destination = true;
  io.destination_hand = 0;
  io.mask = mask;
  io.last = true;
  b.iot.push_back(io);
  return b;
}

void set_lb(Bundle& b, int i, std::uint32_t v) { b.lb[i] = DimField{true, 0, v}; }

/// A random PadValue: nullopt = no B.DATR, else the 2-bit code.
std::optional<unsigned> random_pad(Rng& g) {
  const std::uint32_t k = g.below(5);
  return k == 4 ? std::nullopt : std::optional<unsigned>(k);
}
std::optional<std::uint64_t> pad_value(std::optional<unsigned> pad, DataType t) {
  if (!pad || *pad == 3) return std::nullopt;
  return *pad == 0 ? numeric::zero(t) : *pad == 1 ? numeric::pad_max(t) : numeric::pad_min(t);
}

/// What a bundle must do: fault with `fault` (and change nothing), or commit `desc` with per-PE `data` and `flags`.
struct Expected {
  std::optional<FaultCode> fault;
  TileDescriptor desc;
  std::array<FragmentData, kPeCount> data;
  NumericFlags flags = 0;
};

/// Executes `b` and compares; returns false (after reporting) on the first difference.
bool check(FunctionalMachine& m, const Bundle& b, const Expected& e, const std::string& what) {
  const test::Snapshot before = e.fault ? test::snapshot(m) : test::Snapshot{};
  const BundleOutcome o = m.execute(b);
  INFO(what);
  const std::string rule = o.fault ? o.fault->rule : "";
  INFO(rule);
  if (e.fault) {
    CHECK(o.kind == BundleOutcome::Kind::Faulted);
    CHECK((o.fault && o.fault->code == *e.fault));
    const bool unchanged = test::snapshot(m) == before;  // a rejection has no architectural effect
    CHECK(unchanged);
    return o.kind == BundleOutcome::Kind::Faulted && o.fault->code == *e.fault && unchanged;
  }
  REQUIRE(o.kind == BundleOutcome::Kind::Committed);
  const unsigned d = o.destinations[0].index;
  const TileDescriptor& got = m.state().local(d).desc;
  bool ok = got == e.desc && o.flags == e.flags;
  CHECK(got == e.desc);
  CHECK(int(o.flags) == int(e.flags));
  for (int pe = 0; pe < kPeCount; ++pe) {
    if (!e.desc.pe_mask.has(pe)) continue;
    const FragmentData actual = m.read_local(d, pe);
    if (actual == e.data[pe]) continue;
    for (std::size_t i = 0; i < actual.size(); ++i)
      if (actual[i] != e.data[pe][i]) {
        INFO("PE" << pe << " element " << i << ": got " << (actual[i] ? std::to_string(*actual[i]) : "undefined")
                  << ", expected " << (e.data[pe][i] ? std::to_string(*e.data[pe][i]) : "undefined"));
        CHECK(false);
        break;
      }
    ok = false;
  }
  return ok;
}

std::string describe(Operation op, DataType t, int tile, const Shape& s) {
  return std::string(operation_mnemonic(op)) + " " + data_type_name(t) + " tile " + std::to_string(tile) + " (" +
         std::to_string(s.valid_rows) + "x" + std::to_string(s.valid_cols) + " of Col " + std::to_string(s.cols) +
         ", " + std::to_string(s.capacity) + " B)";
}

TileDescriptor dest_desc(DataType t, unsigned size_code, std::uint32_t cols, std::uint32_t valid_rows,
                         std::uint32_t valid_cols, PeMask mask, Layout layout = Layout::RowMajor) {
  TileDescriptor d;
  d.dtype = t;
  d.capacity_bytes = size_code_bytes(size_code);
  d.cols = cols;
  d.rows = *derived_rows(t, d.capacity_bytes, cols);
  d.valid_rows = valid_rows;
  d.valid_cols = valid_cols;
  d.layout = layout;
  d.location = Location::Any;
  d.pe_mask = mask;
  return d;
}

std::vector<DataType> types_of(Operation op) {
  std::vector<DataType> out;
  for (DataType t : kAllDataTypes)
    if (sfu::accepts_type(op, t)) out.push_back(t);
  return out;
}

const Operation kReductions[] = {Operation::TROWSUM,    Operation::TROWMAX,    Operation::TROWMIN,
                                 Operation::TROWPROD,   Operation::TROWARGMAX, Operation::TROWARGMIN,
                                 Operation::TCOLSUM,    Operation::TCOLMAX,    Operation::TCOLMIN,
                                 Operation::TCOLPROD,   Operation::TCOLARGMAX, Operation::TCOLARGMIN};

/// `ops` on `types` (every type an operation accepts when empty), `tiles` random tiles each.
void check_reductions(const std::vector<Operation>& ops, const std::vector<DataType>& types, int tiles,
                      std::uint64_t seed) {
  Rng g(seed);
  for (Operation op : ops) {
    const bool row = op <= Operation::TROWARGMIN;
    const bool arg = op == Operation::TROWARGMAX || op == Operation::TROWARGMIN || op == Operation::TCOLARGMAX ||
                     op == Operation::TCOLARGMIN;
    for (DataType t : types.empty() ? types_of(op) : types) {
      for (int tile = 0; tile < tiles; ++tile) {
        const Shape s = random_shape(g, t, tile == 0);
        const Input src = make_input(g, t, s.capacity, s.cols, s.valid_rows, s.valid_cols);
        const PeMask mask = tile == 0 ? PeMask(0b1000) : kMasks[g.below(7)];
        Bundle b = make_bundle(op, t, mask);
        set_lb(b, 0, s.valid_cols);
        if (s.valid_rows != 1 || g.chance(50)) set_lb(b, 1, s.valid_rows);
        if (s.cols != s.valid_cols || g.chance(50)) set_lb(b, 2, s.cols);
        const auto pad = random_pad(g);
        if (pad) b.datr = DatrFields{0, static_cast<std::uint8_t>(*pad), false, false, 0, 0, 0};
        b.iot[0].source_count = 1;
        b.iot[0].sources[0] = 16;  // U#1
        const DataType dt = arg ? DataType::U32 : t;
        const unsigned code = size_code_for(dt, row ? 1 : s.cols, row ? s.valid_rows : 1);
        b.iot[0].size_code = static_cast<std::uint8_t>(code);
        Expected e;
        e.desc = row ? dest_desc(dt, code, 1, s.valid_rows, 1, mask) : dest_desc(dt, code, s.cols, 1, s.valid_cols, mask);
        for (int pe = 0; pe < kPeCount; ++pe) {
          if (!mask.has(pe)) continue;
          const sfu_ref::Values v = sfu_ref::reduce(op, src.pe[pe]);
          e.flags |= v.flags;
          e.data[pe] = sfu_ref::publish(e.desc, v, pad_value(pad, dt));
        }
        FunctionalMachine m = machine();
        install(m, 16, src);
        if (!check(m, b, e, describe(op, t, tile, s))) return;
      }
    }
  }
}

const Operation kExpansions[] = {
    Operation::TROWEXPAND,    Operation::TROWEXPANDADD, Operation::TROWEXPANDSUB,    Operation::TROWEXPANDMUL,
    Operation::TROWEXPANDDIV, Operation::TROWEXPANDMAX, Operation::TROWEXPANDMIN,    Operation::TROWEXPANDEXPDIF,
    Operation::TCOLEXPAND,    Operation::TCOLEXPANDADD, Operation::TCOLEXPANDSUB,    Operation::TCOLEXPANDMUL,
    Operation::TCOLEXPANDDIV, Operation::TCOLEXPANDMAX, Operation::TCOLEXPANDMIN,    Operation::TCOLEXPANDEXPDIF};

void check_expansions(const std::vector<Operation>& ops, const std::vector<DataType>& types, int tiles,
                      std::uint64_t seed) {
  Rng g(seed);
  for (Operation op : ops) {
    const bool row = op <= Operation::TROWARGMIN;
    const bool copy = op == Operation::TROWEXPAND || op == Operation::TCOLEXPAND;
    const bool expdif = op == Operation::TROWEXPANDEXPDIF || op == Operation::TCOLEXPANDEXPDIF;
    const bool div = op == Operation::TROWEXPANDDIV || op == Operation::TCOLEXPANDDIV;
    // (source type, destination type): EXPDIF also takes the mixed FP16/BF16 -> FP32 pairs.
    std::vector<std::pair<DataType, DataType>> pairs;
    for (DataType t : types.empty() ? types_of(op) : types) pairs.emplace_back(t, t);
    if (expdif && types.empty()) {
      pairs.emplace_back(DataType::FP16, DataType::FP32);
      pairs.emplace_back(DataType::BF16, DataType::FP32);
    }
    for (const auto& [t, dt] : pairs) {
      for (int tile = 0; tile < tiles; ++tile) {
        const Shape s = random_shape(g, t, tile == 0, dt == t ? 65536 : 32768);
        const PeMask mask = tile == 0 ? PeMask(0b1000) : kMasks[g.below(7)];
        const Input src = make_input(g, t, s.capacity, s.cols, s.valid_rows, s.valid_cols);
        Input bcast = row ? make_input(g, t, capacity_for(t, 1, s.valid_rows), 1, s.valid_rows, 1)
                          : make_input(g, t, s.capacity, s.cols, 1, s.valid_cols);
        bool zero_divisor = false;
        if (div && is_integer(t)) {
          // Mostly non-zero divisors; sometimes one zero on one PE, which must fault.
          const bool inject = g.chance(10);
          for (int pe = 0; pe < kPeCount; ++pe)
            for (auto& e : bcast.pe[pe].e) e = e == 0 ? 1 : e;
          if (inject) {
            const int pe = static_cast<int>(g.below(4));
            const std::uint32_t i = g.below(row ? s.valid_rows : s.valid_cols);
            bcast.pe[pe].e[row ? std::size_t{i} * bcast.desc.cols : i] = 0;
            zero_divisor = mask.has(pe);
          }
        }
        Bundle b = make_bundle(op, t, mask);
        set_lb(b, 0, s.valid_cols);
        if (s.valid_rows != 1 || g.chance(50)) set_lb(b, 1, s.valid_rows);
        if (s.cols != s.valid_cols || g.chance(50)) set_lb(b, 2, s.cols);
        auto pad = random_pad(g);
        if (dt != t && !pad) pad = 3;  // the mixed pair needs B.DATR for its DataType
        if (pad) b.datr = DatrFields{0, static_cast<std::uint8_t>(*pad), false, false, 0, 0, 0};
        // An EXPDIF B.DATR types the destination: the mixed pair's FP32, else (a PadValue alone)
        // DTYPE_NONE or the source's own type.
        if (expdif && b.datr)
          b.datr->dtype_code = static_cast<std::uint8_t>(dt != t || g.chance(50) ? data_type_code(dt) : kDataTypeNoneCode);
        b.iot[0].source_count = copy ? 1 : 2;
        b.iot[0].sources = copy ? std::array<std::uint8_t, 2>{17, 0} : std::array<std::uint8_t, 2>{16, 17};
        // Same physical rows as the full-shape source: the same TSize, twice it for a mixed pair.
        const std::uint32_t dst_capacity = s.capacity * element_bits(dt) / element_bits(t);
        const unsigned code = copy ? size_code_for(dt, s.cols, s.valid_rows) : code_of_bytes(dst_capacity);
        b.iot[0].size_code = static_cast<std::uint8_t>(code);
        Expected e;
        if (zero_divisor) {
          e.fault = FaultCode::TileLegality;
        } else {
          e.desc = dest_desc(dt, code, s.cols, s.valid_rows, s.valid_cols, mask);
          for (int pe = 0; pe < kPeCount; ++pe) {
            if (!mask.has(pe)) continue;
            const sfu_ref::Values v = sfu_ref::expand(op, dt, src.pe[pe], bcast.pe[pe], s.valid_rows, s.valid_cols);
            e.flags |= v.flags;
            e.data[pe] = sfu_ref::publish(e.desc, v, pad_value(pad, dt));
          }
        }
        FunctionalMachine m = machine();
        install(m, 16, src);
        install(m, 17, bcast);
        if (!check(m, b, e, describe(op, t, tile, s) + " -> " + data_type_name(dt))) return;
      }
    }
  }
}

TEST_CASE("SFU property: reductions and ARG against the reference fold", "[sfu][property]") {
#if defined(__x86_64__) || defined(__SSE2__)
  // IEEE binary32/64 arithmetic with SSE2: the host fast path is taken, so this test covers it.
  CHECK(sfu_detail::host_float_enabled());
#endif
  check_reductions({std::begin(kReductions), std::end(kReductions)}, {}, kTiles, 0x5F0);
}

TEST_CASE("SFU property: expansions and broadcast arithmetic against the reference", "[sfu][property]") {
  check_expansions({std::begin(kExpansions), std::end(kExpansions)}, {}, kTiles, 0xE4A);
}

TEST_CASE("SFU property: FP32/FP64 arithmetic on the portable path, without the host fast path", "[sfu][property]") {
  // The kernels a host that fails host_float_matches_profile() runs instead of host arithmetic.
  struct PortablePath {
    PortablePath() { sfu_detail::set_host_float_enabled(false); }
    ~PortablePath() { sfu_detail::set_host_float_enabled(true); }
  } portable;
  CHECK_FALSE(sfu_detail::host_float_enabled());
  const std::vector<DataType> types = {DataType::FP32, DataType::FP64};
  check_reductions({Operation::TROWSUM, Operation::TCOLSUM, Operation::TROWPROD, Operation::TCOLPROD}, types, 500,
                   0xB0D);
  check_expansions({Operation::TROWEXPANDADD, Operation::TCOLEXPANDSUB, Operation::TROWEXPANDMUL,
                    Operation::TCOLEXPANDDIV},
                   types, 500, 0xB0E);
}

TEST_CASE("SFU property: TCI and TTRI against the reference", "[sfu][property]") {
  Rng g(0x7C1);
  for (Operation op : {Operation::TCI, Operation::TTRI}) {
    for (DataType t : types_of(op)) {
      for (int tile = 0; tile < kTiles; ++tile) {
        Shape s = random_shape(g, t, tile == 0);
        if (op == Operation::TCI) s.valid_rows = 1;
        const PeMask mask = tile == 0 ? PeMask(0b1000) : kMasks[g.below(7)];
        Bundle b = make_bundle(op, t, mask);
        set_lb(b, 0, s.valid_cols);
        if (s.valid_rows != 1 || g.chance(50)) set_lb(b, 1, s.valid_rows);
        if (s.cols != s.valid_cols || g.chance(50)) set_lb(b, 2, s.cols);
        std::array<std::array<std::uint64_t, 2>, kPeCount> scalars{};
        bool illegal = false;
        if (g.chance(80)) {
          b.ior = IorFields{{1, 2, 0}, 0};
          for (int pe = 0; pe < kPeCount; ++pe) {
            scalars[pe][0] = op == Operation::TCI ? g.bits()
                                                  : static_cast<std::uint64_t>(std::int64_t{g.below(140001)} - 70000);
            scalars[pe][1] = g.chance(97) ? g.below(2) : 2 + g.below(5);
            const auto diagonal = static_cast<std::int64_t>(scalars[pe][0]);
            if (mask.has(pe) && (scalars[pe][1] > 1 || (op == Operation::TTRI && (diagonal < -65535 || diagonal > 65535))))
              illegal = true;
          }
        }
        const unsigned code = size_code_for(t, s.cols, s.valid_rows);
        b.iot[0].size_code = static_cast<std::uint8_t>(code);
        Expected e;
        if (illegal) e.fault = FaultCode::TileLegality;
        e.desc = dest_desc(t, code, s.cols, s.valid_rows, s.valid_cols, mask);
        for (int pe = 0; pe < kPeCount; ++pe)
          if (mask.has(pe))
            e.data[pe] = sfu_ref::publish(
                e.desc,
                op == Operation::TCI ? sfu_ref::tci(t, s.valid_cols, scalars[pe][0], scalars[pe][1])
                                     : sfu_ref::ttri(t, s.valid_rows, s.valid_cols, scalars[pe][0], scalars[pe][1]),
                std::nullopt);
        FunctionalMachine m = machine();
        for (int pe = 0; pe < kPeCount; ++pe) {
          m.state().set_gpr(pe, 1, scalars[pe][0]);
          m.state().set_gpr(pe, 2, scalars[pe][1]);
        }
        if (!check(m, b, e, describe(op, t, tile, s))) return;
      }
    }
  }
}

TEST_CASE("SFU property: TFILLPAD against the reference", "[sfu][property]") {
  Rng g(0xF11);
  for (DataType t : types_of(Operation::TFILLPAD)) {
    for (int tile = 0; tile < kTiles; ++tile) {
      const Shape s = random_shape(g, t, tile == 0);
      const PeMask mask = tile == 0 ? PeMask(0b1000) : kMasks[g.below(7)];
      const Input src = make_input(g, t, s.capacity, s.cols, s.valid_rows, s.valid_cols,
                                   g.chance(30) ? Layout::ColumnMajor : Layout::RowMajor);
      Bundle b = make_bundle(Operation::TFILLPAD, t, mask);
      b.iot[0].source_count = 1;
      b.iot[0].sources[0] = 16;
      // In-place (no LBs: the source's shape) or expand form (every LB at least the source's).
      std::uint32_t vr = s.valid_rows, vc = s.valid_cols, cols = s.cols;
      if (tile > 0 && g.chance(60)) {
        cols = s.cols << g.below(2);
        vc = s.valid_cols + g.below(cols - s.valid_cols + 1);
        vr = s.valid_rows + g.below(4);
        set_lb(b, 0, vc);
        set_lb(b, 1, vr);
        set_lb(b, 2, cols);
      }
      const Layout layout = g.chance(30) ? Layout::ColumnMajor : Layout::RowMajor;
      if (layout == Layout::ColumnMajor) b.datr = DatrFields{0, 0, false, false, 0, 0, 1};  // ND2DN
      const std::uint32_t src_rows = *derived_rows(t, s.capacity, s.cols);
      unsigned code = size_code_for(t, cols, std::max(vr, src_rows));
      b.iot[0].size_code = static_cast<std::uint8_t>(code);
      std::array<std::uint64_t, kPeCount> scalar{};
      if (g.chance(80)) {
        b.ior = IorFields{{3, 0, 0}, 0};
        for (auto& v : scalar) v = g.bits();
      }
      Expected e;
      e.desc = dest_desc(t, code, cols, vr, vc, mask, layout);
      for (int pe = 0; pe < kPeCount; ++pe) {
        if (!mask.has(pe)) continue;
        const auto all = sfu_ref::fillpad(src.pe[pe], e.desc, scalar[pe]);
        e.data[pe].assign(all.begin(), all.end());
      }
      FunctionalMachine m = machine();
      install(m, 16, src);
      for (int pe = 0; pe < kPeCount; ++pe) m.state().set_gpr(pe, 3, scalar[pe]);
      if (!check(m, b, e, describe(Operation::TFILLPAD, t, tile, s))) return;
    }
  }
}

TEST_CASE("SFU property: TCONCAT against the reference", "[sfu][property]") {
  Rng g(0xC0C);
  for (DataType t : types_of(Operation::TCONCAT)) {
    for (int tile = 0; tile < kTiles; ++tile) {
      // The maximal case concatenates two halves of a maximal destination.
      Shape s = random_shape(g, t, tile == 0);
      if (tile == 0) {
        s.capacity /= 2;
        s.cols /= 2;
        s.valid_cols = s.cols;
      }
      const PeMask mask = tile == 0 ? PeMask(0b1000) : kMasks[g.below(7)];
      const Input left = make_input(g, t, s.capacity, s.cols, s.valid_rows, s.valid_cols);
      const std::uint32_t right_cols = tile == 0 ? s.cols : 1U << g.below(4);
      const std::uint32_t right_vc = tile == 0 ? s.cols : 1 + g.below(right_cols);
      const Input right = make_input(g, t, capacity_for(t, right_cols, s.valid_rows) << g.below(2), right_cols,
                                     s.valid_rows, right_vc);
      const std::uint32_t vc = s.valid_cols + right.desc.valid_cols;
      std::uint32_t cols = 1;
      while (cols < vc) cols <<= 1;
      Bundle b = make_bundle(Operation::TCONCAT, t, mask);
      b.iot[0].source_count = 2;
      b.iot[0].sources = {16, 17};
      set_lb(b, 0, vc);
      set_lb(b, 1, s.valid_rows);
      set_lb(b, 2, cols);
      const unsigned code = size_code_for(t, cols, s.valid_rows);
      b.iot[0].size_code = static_cast<std::uint8_t>(code);
      Expected e;
      e.desc = dest_desc(t, code, cols, s.valid_rows, vc, mask);
      for (int pe = 0; pe < kPeCount; ++pe)
        if (mask.has(pe)) e.data[pe] = sfu_ref::publish(e.desc, sfu_ref::concat(left.pe[pe], right.pe[pe]), std::nullopt);
      FunctionalMachine m = machine();
      install(m, 16, left);
      install(m, 17, right);
      if (!check(m, b, e, describe(Operation::TCONCAT, t, tile, s))) return;
    }
  }
}

TEST_CASE("SFU property: THISTOGRAM against the reference", "[sfu][property]") {
  Rng g(0x415);
  for (DataType t : {DataType::U16, DataType::U32}) {
    for (int tile = 0; tile < kTiles; ++tile) {
      Shape s = random_shape(g, t, tile == 0);
      s.valid_rows = std::min<std::uint32_t>(s.valid_rows, 64);  // 64 KiB of U32 histogram rows at most
      const PeMask mask = tile == 0 ? PeMask(0b1000) : kMasks[g.below(7)];
      Input src = make_input(g, t, s.capacity, s.cols, s.valid_rows, s.valid_cols);
      const unsigned byte = t == DataType::U16 ? g.below(2) : g.below(4);
      // Filter rows copied from source bytes (U16: the row's high byte; U32: a global prefix) so
      // that the filters accept some elements.
      Input filter = make_input(g, DataType::U8, 128, 1, std::max<std::uint32_t>(s.valid_rows, 3), 1,
                                g.chance(30) ? Layout::ColumnMajor : Layout::RowMajor);
      for (int pe = 0; pe < kPeCount; ++pe) {
        const std::uint64_t v = src.pe[pe].at(g.below(s.valid_rows), 0);
        for (std::uint32_t r = 0; r < filter.desc.valid_rows; ++r)
          filter.pe[pe].e[r] = t == DataType::U16 ? (src.pe[pe].at(std::min(r, s.valid_rows - 1), 0) >> 8) & 0xFF
                                                  : (v >> (24 - 8 * std::min<std::uint32_t>(r, 2))) & 0xFF;
      }
      Bundle b = make_bundle(Operation::THISTOGRAM, t, mask);
      b.iot[0].source_count = 2;
      b.iot[0].sources = {16, 17};
      b.datr = DatrFields{0, static_cast<std::uint8_t>(byte), false, false, 25, 0, 0};
      const unsigned code = size_code_for(DataType::U32, 256, s.valid_rows);
      b.iot[0].size_code = static_cast<std::uint8_t>(code);
      Expected e;
      e.desc = dest_desc(DataType::U32, code, 256, s.valid_rows, 256, mask);
      for (int pe = 0; pe < kPeCount; ++pe)
        if (mask.has(pe))
          e.data[pe] = sfu_ref::publish(e.desc, sfu_ref::histogram(src.pe[pe], filter.pe[pe], byte), std::nullopt);
      FunctionalMachine m = machine();
      install(m, 16, src);
      install(m, 17, filter);
      if (!check(m, b, e, describe(Operation::THISTOGRAM, t, tile, s))) return;
    }
  }
}

}  // namespace
}  // namespace ptosim::model
