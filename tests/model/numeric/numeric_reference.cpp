// SPDX-License-Identifier: BSD-3-Clause
// Test-only numeric reference written from numerics.md and the ASL text, sharing no code with
// model/numeric. Real arithmetic is MPFR's.
#include "tests/model/numeric/numeric_reference.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#else
#include <cfenv>
#endif

namespace ptosim::test {

namespace {

using D = DataType;

// numerics.md §2 table (TF32/HF32: fraction above 13/12 reserved zero bits).
const BinarySpec kSpecs[] = {
    {D::FP64, 64, 63, 11, 52, 0, 1023, true, BinarySpec::kIeee, 0x7FF8000000000000, 0x7FEFFFFFFFFFFFFF},
    {D::FP32, 32, 31, 8, 23, 0, 127, true, BinarySpec::kIeee, 0x7FC00000, 0x7F7FFFFF},
    {D::TF32, 32, 31, 8, 10, 13, 127, true, BinarySpec::kIeee, 0x7FC00000, 0x7F7FE000},
    {D::HF32, 32, 31, 8, 11, 12, 127, true, BinarySpec::kIeee, 0x7FC00000, 0x7F7FF000},
    {D::FP16, 16, 15, 5, 10, 0, 15, true, BinarySpec::kIeee, 0x7E00, 0x7BFF},
    {D::BF16, 16, 15, 8, 7, 0, 127, true, BinarySpec::kIeee, 0x7FC0, 0x7F7F},
    {D::E4M3, 8, 7, 4, 3, 0, 7, false, BinarySpec::kAllOnesOnly, 0x7F, 0x7E},
    {D::E5M2, 8, 7, 5, 2, 0, 15, true, BinarySpec::kIeee, 0x7E, 0x7B},
    {D::E3M2, 8, 5, 3, 2, 0, 3, false, BinarySpec::kNone, 0, 0x1F},
    {D::E2M3, 8, 5, 2, 3, 0, 1, false, BinarySpec::kNone, 0, 0x1F},
    {D::E2M1X2, 4, 3, 2, 1, 0, 1, false, BinarySpec::kNone, 0, 0x7},
    {D::E1M2X2, 4, 3, 1, 2, 0, 1, false, BinarySpec::kNone, 0, 0x7},
    {D::HiF4X2, 4, 3, 1, 2, 0, 1, false, BinarySpec::kNone, 0, 0x7},
};

// Reused MPFR variables: the reference runs tens of millions of times per test.
struct Scratch {
  Mp x{64};
  Mp y{64};
  Mp exact{300};
  Mp absx{300};
  Mp mid{320};
  Mp unbounded{64};
  Mp rounded{64};
  Mp abs_unbounded{64};
};
Scratch& scratch() {
  static Scratch s;  // the tests are single-threaded
  return s;
}

std::uint64_t mask_of(int w) { return w >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1; }

// HiF8 per the dot-prefix table of numerics.md: bits 6:3 select the class.
RefValue decode_hif8(std::uint64_t b) {
  if (b == 0x80) return {Kind::QNaN, true, NAN};
  const bool neg = (b & 0x80) != 0;
  const unsigned body = b & 0x7F;
  if (body == 0x6F) return {Kind::Inf, neg, neg ? -HUGE_VAL : HUGE_VAL};
  int e = 0;
  unsigned mbits = 3;
  unsigned mant = 0;
  if ((body >> 3) == 0) {  // 0000: denormal 2^(M-23)
    if (body == 0) return {Kind::Zero, false, 0.0};
    const double v = std::ldexp(1.0, static_cast<int>(body) - 23);
    return {Kind::Finite, neg, neg ? -v : v};
  }
  if ((body >> 3) == 1) {  // 0001: D0
    e = 0;
    mant = body & 7;
  } else if ((body >> 4) == 1) {  // 001: D1, Se = bit 3
    e = (body & 8) ? -1 : 1;
    mant = body & 7;
  } else if ((body >> 5) == 1) {  // 01: D2, Se = bit 4, magnitude 2 + bit 3
    const int mag = 2 + static_cast<int>((body >> 3) & 1);
    e = (body & 0x10) ? -mag : mag;
    mant = body & 7;
  } else if ((body >> 5) == 2) {  // 10: D3, magnitude 4 + bits 3:2
    const int mag = 4 + static_cast<int>((body >> 2) & 3);
    e = (body & 0x10) ? -mag : mag;
    mbits = 2;
    mant = body & 3;
  } else {  // 11: D4, magnitude 8 + bits 3:1
    const int mag = 8 + static_cast<int>((body >> 1) & 7);
    e = (body & 0x10) ? -mag : mag;
    mbits = 1;
    mant = body & 1;
  }
  const double v = std::ldexp(1.0 + std::ldexp(static_cast<double>(mant), -static_cast<int>(mbits)), e);
  return {Kind::Finite, neg, neg ? -v : v};
}

struct CodeMap {
  std::map<double, std::uint64_t> by_value;  // positive magnitudes incl. 0
};

const CodeMap& hif8_codes() {
  static const CodeMap m = [] {
    CodeMap c;
    for (std::uint64_t b = 0; b < 0x80; ++b) {
      const RefValue r = decode_hif8(b);
      if (r.kind == Kind::Finite || r.kind == Kind::Zero) c.by_value.emplace(r.value, b);
    }
    return c;
  }();
  return m;
}

std::uint64_t inf_code(DataType t, bool negative) {
  if (t == D::HiF8) return negative ? 0xEF : 0x6F;
  const BinarySpec& s = *binary_spec(t);
  const std::uint64_t e = mask_of(s.exp_bits);
  return ((e << s.frac_bits) << s.frac_shift) | (negative ? std::uint64_t{1} << s.sign_bit : 0);
}

// The sign bit of a nonzero value.
std::uint64_t sign_code(DataType t, bool negative) {
  if (!negative) return 0;
  return t == D::HiF8 ? 0x80 : std::uint64_t{1} << binary_spec(t)->sign_bit;
}
// The zero of a sign (HiF8 has a single zero).
std::uint64_t zero_code(DataType t, bool negative) { return t == D::HiF8 ? 0 : sign_code(t, negative); }

std::uint64_t max_code(DataType t) { return t == D::HiF8 ? 0x6E : binary_spec(t)->max_finite; }
int frac_shift(DataType t) { return t == D::HiF8 ? 0 : binary_spec(t)->frac_shift; }
bool has_nan(DataType t) { return t == D::HiF8 || t == D::E8M0 || binary_spec(t)->nan != BinarySpec::kNone; }
bool has_inf(DataType t) { return t == D::HiF8 || (t != D::E8M0 && binary_spec(t)->has_inf); }
std::uint64_t nan_code(DataType t) {
  if (t == D::HiF8) return 0x80;
  return t == D::E8M0 ? 0xFF : binary_spec(t)->canonical_nan;
}

// The first value above the largest finite one on the format's own grid (unbounded exponent).
double virtual_next(DataType t) {
  if (t == D::HiF8) return 49152.0;  // D4 keeps one fraction bit: 2^15 + 2^14
  const BinarySpec& s = *binary_spec(t);
  const double max = ref_decode(t, s.max_finite).value;
  return max + std::ldexp(1.0, std::ilogb(max) - s.frac_bits);
}

struct Format {
  double min_normal;
  int min_normal_frac_bits;
};
Format format_of(DataType t) {
  if (t == D::HiF8) return {std::ldexp(1.0, -15), 1};
  const BinarySpec& s = *binary_spec(t);
  return {std::ldexp(1.0, s.emin()), s.frac_bits};
}

// Sign of (|true| - c) where |true| is |x| nudged by dir_abs when x is only an approximation.
int cmp_abs(mpfr_srcptr absx, double c, int dir_abs) {
  const int raw = mpfr_cmp_d(absx, c);
  return raw != 0 ? (raw > 0 ? 1 : -1) : dir_abs;
}

// Candidate choice between two adjacent magnitudes. lo_odd/hi_odd: last retained bit of each.
bool choose_up(RoundingMode rm, bool negative, int cmp_mid, bool lo_odd) {
  switch (rm) {
    case RoundingMode::RNE: return cmp_mid > 0 || (cmp_mid == 0 && lo_odd);
    case RoundingMode::RNA: return cmp_mid >= 0;
    case RoundingMode::RHB: return cmp_mid > 0 || (cmp_mid == 0 && !negative);
    case RoundingMode::RTZ: return false;
    case RoundingMode::RTP: return !negative;
    case RoundingMode::RTM: return negative;
    case RoundingMode::RTO: return !lo_odd;
  }
  std::abort();
}

RefResult overflow_result(DataType t, bool negative, RoundingMode rm, bool saturate) {
  const NumericFlags f = model::kFlagOF | model::kFlagNX;
  const std::uint64_t max = max_code(t) | sign_code(t, negative);
  if (saturate) return {max, f};
  const bool to_inf = rm == RoundingMode::RNE || rm == RoundingMode::RNA || rm == RoundingMode::RHB ||
                      (rm == RoundingMode::RTP && !negative) || (rm == RoundingMode::RTM && negative);
  if (!to_inf) return {max, f};
  if (has_inf(t)) return {inf_code(t, negative), f};
  if (has_nan(t)) return {nan_code(t), f};
  return {max, f};
}

// IEEE tininess after rounding: does |true| round (with the precision of the smallest normal
// binade and unbounded exponent) below 2^emin?
bool tiny(DataType t, mpfr_srcptr absx, int dir_abs, bool negative, RoundingMode rm) {
  const Format f = format_of(t);
  if (cmp_abs(absx, f.min_normal, dir_abs) >= 0) return false;
  const double q = std::ldexp(f.min_normal, -1 - f.min_normal_frac_bits);  // fine-grid unit below 2^emin
  const double below = f.min_normal - q;                                    // odd neighbour
  if (cmp_abs(absx, below, dir_abs) <= 0) return true;
  return !choose_up(rm, negative, cmp_abs(absx, f.min_normal - q / 2, dir_abs), true);
}

// Adjacent candidates around |true| for a type up to 16 bits, from all of its encodings.
struct Table {
  std::vector<double> values;       // ascending positive magnitudes, values[0] == 0
  std::vector<std::uint64_t> codes; // positive-sign encodings
};
const Table& table_of(DataType t) {
  static std::map<DataType, std::unique_ptr<Table>> tables;
  auto& slot = tables[t];
  if (!slot) {
    slot = std::make_unique<Table>();
    std::map<double, std::uint64_t> sorted;
    const int w = t == D::HiF8 ? 8 : binary_spec(t)->width;
    for (std::uint64_t b = 0; b <= mask_of(w); ++b) {
      if (t != D::HiF8 && (b >> binary_spec(t)->sign_bit) != 0) continue;  // positive codes only
      if (t == D::HiF8 && b >= 0x80) continue;
      const RefValue r = ref_decode(t, b);
      if (r.kind == Kind::Finite || r.kind == Kind::Zero) sorted.emplace(r.value, b);
    }
    for (const auto& [v, c] : sorted) {
      slot->values.push_back(v);
      slot->codes.push_back(c);
    }
  }
  return *slot;
}

RefResult round_e8m0(mpfr_srcptr x, int dir, RoundingMode rm, bool saturate) {
  if (mpfr_sgn(x) < 0) return {0xFF, model::kFlagNV};
  const long floor_exp = mpfr_get_exp(x) - 1;  // x = 0.1xxx * 2^E
  const bool exact_power = dir == 0 && mpfr_cmp_ui_2exp(x, 1, floor_exp) == 0;
  if (floor_exp < -127) return {saturate ? 0x00u : 0xFFu, model::kFlagUF | model::kFlagNX};
  if (floor_exp > 127 || (floor_exp == 127 && !exact_power))
    return {saturate ? 0xFEu : 0xFFu, model::kFlagOF | model::kFlagNX};
  if (exact_power) return {static_cast<std::uint64_t>(floor_exp + 127), 0};
  bool up = false;
  switch (rm) {
    case RoundingMode::RTM: up = false; break;
    case RoundingMode::RTP: up = true; break;
    case RoundingMode::RTZ: up = floor_exp < 0; break;
    case RoundingMode::RTO: up = floor_exp % 2 == 0; break;
    default: {
      Mp sq(2 * mpfr_get_prec(x) + 2);
      mpfr_sqr(sq.v, x, MPFR_RNDN);  // exact
      up = mpfr_cmp_ui_2exp(sq.v, 1, 2 * floor_exp + 1) > 0;
      break;
    }
  }
  return {static_cast<std::uint64_t>(floor_exp + (up ? 1 : 0) + 127), model::kFlagNX};
}

// One directed rounding of |x| to binary type t through MPFR's subnormal emulation.
double directed(const BinarySpec& s, mpfr_srcptr absx, mpfr_rnd_t rnd) {
  const mpfr_exp_t old_emin = mpfr_get_emin();
  Mp r(s.frac_bits + 1);
  mpfr_set_emin(s.emin() - s.frac_bits + 1);
  int t = mpfr_set(r.v, absx, rnd);
  t = mpfr_check_range(r.v, t, rnd);  // absx may lie below the emulated range
  mpfr_subnormalize(r.v, t, rnd);
  mpfr_set_emin(old_emin);
  return mpfr_get_d(r.v, MPFR_RNDN);
}

}  // namespace

void report_cases(const std::string& op, const std::string& type, std::uint64_t count) {
  std::printf("numeric-cases: %-10s %-7s %llu\n", op.c_str(), type.c_str(), static_cast<unsigned long long>(count));
  std::fflush(stdout);
}

const BinarySpec* binary_spec(DataType t) {
  for (const BinarySpec& s : kSpecs)
    if (s.type == t) return &s;
  return nullptr;
}

std::uint64_t ref_infinity(DataType t, bool negative) { return inf_code(t, negative); }

std::optional<std::uint64_t> ref_canonical_nan(DataType t) {
  if (t != D::HiF8 && t != D::E8M0 && (binary_spec(t) == nullptr || !has_nan(t))) return std::nullopt;
  return nan_code(t);
}

namespace {

RefValue decode_formula(DataType t, std::uint64_t bits) {
  if (t == D::HiF8) return decode_hif8(bits & 0xFF);
  if (t == D::E8M0) {
    const std::uint64_t b = bits & 0xFF;
    if (b == 0xFF) return {Kind::QNaN, false, NAN};
    return {Kind::Finite, false, std::ldexp(1.0, static_cast<int>(b) - 127)};
  }
  const BinarySpec& s = *binary_spec(t);
  bits &= mask_of(s.width);
  const bool neg = ((bits >> s.sign_bit) & 1) != 0;
  const std::uint64_t field = bits >> s.frac_shift;
  const std::uint64_t e = (field >> s.frac_bits) & mask_of(s.exp_bits);
  const std::uint64_t m = field & mask_of(s.frac_bits);
  const std::uint64_t e_all = mask_of(s.exp_bits);
  if (s.nan == BinarySpec::kIeee && e == e_all) {
    if (m == 0) return {Kind::Inf, neg, neg ? -HUGE_VAL : HUGE_VAL};
    return {(m >> (s.frac_bits - 1)) ? Kind::QNaN : Kind::SNaN, neg, NAN};
  }
  if (s.nan == BinarySpec::kAllOnesOnly && e == e_all && m == mask_of(s.frac_bits)) return {Kind::QNaN, neg, NAN};
  double v = e == 0 ? std::ldexp(static_cast<double>(m), s.emin() - s.frac_bits)
                    : std::ldexp(static_cast<double>(m | (std::uint64_t{1} << s.frac_bits)),
                                 static_cast<int>(e) - s.bias - s.frac_bits);
  if (neg) v = -v;
  return {e == 0 && m == 0 ? Kind::Zero : Kind::Finite, neg, v};
}

// Every encoding of a type up to 16 bits decoded once: a lookup is cheaper than the formulas' ldexp
// in the random tests.
const std::vector<RefValue>* decode_table(DataType t) {
  static std::unique_ptr<std::vector<RefValue>> tables[32];
  auto& slot = tables[static_cast<unsigned>(t) & 31];
  if (!slot) {
    const int w = t == D::HiF8 || t == D::E8M0 ? 8 : binary_spec(t) != nullptr ? binary_spec(t)->width : 64;
    if (w > 16) return nullptr;
    slot = std::make_unique<std::vector<RefValue>>();
    for (std::uint64_t b = 0; b <= mask_of(w); ++b) slot->push_back(decode_formula(t, b));
  }
  return slot.get();
}

}  // namespace

RefValue ref_decode(DataType t, std::uint64_t bits) {
  if (const std::vector<RefValue>* table = decode_table(t)) return (*table)[bits & (table->size() - 1)];
  return decode_formula(t, bits);
}

std::uint64_t ref_encode(DataType t, double v) {
  const bool neg = std::signbit(v);
  const double a = std::fabs(v);
  if (t == D::E8M0) return static_cast<std::uint64_t>(std::ilogb(a) + 127);
  if (t == D::HiF8) return a == 0 ? 0 : hif8_codes().by_value.at(a) | (neg ? 0x80 : 0);
  const BinarySpec& s = *binary_spec(t);
  const std::uint64_t sign = neg ? std::uint64_t{1} << s.sign_bit : 0;
  std::uint64_t field = 0;
  if (a == 0) {
    field = 0;
  } else if (a < std::ldexp(1.0, s.emin())) {
    field = static_cast<std::uint64_t>(std::ldexp(a, s.frac_bits - s.emin()));
  } else {
    const int e = std::ilogb(a);
    const auto m = static_cast<std::uint64_t>(std::ldexp(a, s.frac_bits - e));
    field = (static_cast<std::uint64_t>(e + s.bias) << s.frac_bits) | (m - (std::uint64_t{1} << s.frac_bits));
  }
  return (field << s.frac_shift) | sign;
}

RefResult ref_round(DataType t, mpfr_srcptr x, int dir, RoundingMode rm, bool saturate) {
  if (t == D::E8M0) return round_e8m0(x, dir, rm, saturate);
  const bool negative = mpfr_sgn(x) < 0;
  const int dir_abs = negative ? -dir : dir;
  Mp& absx = scratch().absx;
  mpfr_set_prec(absx.v, mpfr_get_prec(x));
  mpfr_abs(absx.v, x, MPFR_RNDN);
  const int shift = frac_shift(t);
  const double max = ref_decode(t, max_code(t)).value;
  const double next = virtual_next(t);
  if (cmp_abs(absx.v, next, dir_abs) >= 0) return overflow_result(t, negative, rm, saturate);

  double lo = 0;
  double hi = 0;
  std::uint64_t lo_code = 0;
  bool hi_virtual = false;
  if (cmp_abs(absx.v, max, dir_abs) > 0) {
    lo = max;
    lo_code = max_code(t);
    hi = next;
    hi_virtual = true;
  } else if (t == D::HiF8 || binary_spec(t)->width <= 16) {
    const Table& tb = table_of(t);
    // largest candidate <= |true|
    std::size_t lo_i = 0;
    std::size_t hi_i = tb.values.size() - 1;
    while (lo_i < hi_i) {
      const std::size_t mid = (lo_i + hi_i + 1) / 2;
      if (cmp_abs(absx.v, tb.values[mid], dir_abs) >= 0) lo_i = mid;
      else hi_i = mid - 1;
    }
    lo = tb.values[lo_i];
    lo_code = tb.codes[lo_i];
    if (cmp_abs(absx.v, lo, dir_abs) == 0) return {lo_code | sign_code(t, negative), 0};
    hi = tb.values[lo_i + 1];
  } else {
    if (dir != 0) std::abort();  // wide types: exact inputs only
    const BinarySpec& s = *binary_spec(t);
    lo = directed(s, absx.v, MPFR_RNDD);
    lo_code = ref_encode(t, lo);
    if (mpfr_cmp_d(absx.v, lo) == 0) return {lo_code | sign_code(t, negative), 0};
    hi = directed(s, absx.v, MPFR_RNDU);
  }
  // Neighbouring candidates always differ in their last retained bit (also across HiF8's dot
  // classes and for the virtual value above the maximum), so the lower one's parity decides ties.
  Mp& mid = scratch().mid;
  mpfr_set_d(mid.v, lo, MPFR_RNDN);
  mpfr_add_d(mid.v, mid.v, hi, MPFR_RNDN);
  mpfr_div_2ui(mid.v, mid.v, 1, MPFR_RNDN);
  int cmp_mid = mpfr_cmp(absx.v, mid.v);
  cmp_mid = cmp_mid != 0 ? (cmp_mid > 0 ? 1 : -1) : dir_abs;
  const bool lo_odd = ((lo_code >> shift) & 1) != 0;
  const bool up = choose_up(rm, negative, cmp_mid, lo_odd);
  if (up && hi_virtual) return overflow_result(t, negative, rm, saturate);
  NumericFlags flags = model::kFlagNX;
  if (tiny(t, absx.v, dir_abs, negative, rm)) flags |= model::kFlagUF;
  const double r = up ? hi : lo;
  if (r == 0) return {zero_code(t, negative), flags};
  return {ref_encode(t, negative ? -r : r), flags};
}

namespace {

int apply(BinOp op, mpfr_ptr r, mpfr_srcptr a, mpfr_srcptr b) {
  switch (op) {
    case BinOp::Add: return mpfr_add(r, a, b, MPFR_RNDN);
    case BinOp::Sub: return mpfr_sub(r, a, b, MPFR_RNDN);
    case BinOp::Mul: return mpfr_mul(r, a, b, MPFR_RNDN);
    case BinOp::Div: return mpfr_div(r, a, b, MPFR_RNDN);
  }
  std::abort();
}

// Rounds with MPFR's subnormal emulation; the unbounded-exponent result (for tininess after
// rounding) is only needed when the emulated result is at or below the smallest normal.
template <typename Compute>
RefResult mpfr_emulated(DataType t, bool operand_inf, Compute compute) {
  const BinarySpec& s = *binary_spec(t);
  const int p = s.frac_bits + 1;
  const double min_normal = std::ldexp(1.0, s.emin());
  mpfr_flags_clear(MPFR_FLAGS_ALL);
  const mpfr_exp_t old_emin = mpfr_get_emin();
  mpfr_set_emin(s.emin() - s.frac_bits + 1);
  Mp& r = scratch().rounded;
  mpfr_set_prec(r.v, p);
  int ternary = compute(r.v);
  ternary = mpfr_subnormalize(r.v, ternary, MPFR_RNDN);
  mpfr_set_emin(old_emin);
  if (mpfr_nan_p(r.v)) return {s.canonical_nan, model::kFlagNV};
  const bool negative = mpfr_signbit(r.v) != 0;
  if (mpfr_overflow_p()) return overflow_result(t, negative, RoundingMode::RNE, false);  // beyond MPFR's range
  if (mpfr_inf_p(r.v)) return {inf_code(t, negative), operand_inf ? NumericFlags{0} : model::kFlagDZ};
  const double rd = mpfr_get_d(r.v, MPFR_RNDN);  // exact: a value of the format
  if (std::fabs(rd) > ref_decode(t, s.max_finite).value) return overflow_result(t, negative, RoundingMode::RNE, false);
  if (ternary == 0) return {rd == 0 ? zero_code(t, negative) : ref_encode(t, rd), 0};
  NumericFlags flags = model::kFlagNX;
  if (std::fabs(rd) <= min_normal) {
    Mp& u = scratch().unbounded;
    mpfr_set_prec(u.v, p);
    compute(u.v);
    Mp& absu = scratch().abs_unbounded;
    mpfr_set_prec(absu.v, p);
    mpfr_abs(absu.v, u.v, MPFR_RNDN);
    if (mpfr_cmp_d(absu.v, min_normal) < 0) flags |= model::kFlagUF;
  }
  if (rd == 0) return {zero_code(t, negative), flags};
  return {ref_encode(t, rd), flags};
}

}  // namespace

RefResult mpfr_binary(DataType t, BinOp op, std::uint64_t a, std::uint64_t b) {
  const RefValue x = ref_decode(t, a);
  const RefValue y = ref_decode(t, b);
  const BinarySpec& s = *binary_spec(t);
  const bool x_nan = x.kind == Kind::QNaN || x.kind == Kind::SNaN;
  const bool y_nan = y.kind == Kind::QNaN || y.kind == Kind::SNaN;
  if (x_nan || y_nan) {
    const bool signaling = x.kind == Kind::SNaN || y.kind == Kind::SNaN;
    return {s.canonical_nan, signaling ? model::kFlagNV : NumericFlags{0}};
  }
  Mp& mx = scratch().x;
  Mp& my = scratch().y;
  mpfr_set_d(mx.v, x.value, MPFR_RNDN);
  mpfr_set_d(my.v, y.value, MPFR_RNDN);
  const bool operand_inf = x.kind == Kind::Inf || y.kind == Kind::Inf;
  return mpfr_emulated(t, operand_inf, [&](mpfr_ptr r) { return apply(op, r, mx.v, my.v); });
}

namespace {

bool is_nan(const RefValue& v) { return v.kind == Kind::QNaN || v.kind == Kind::SNaN; }

// What an operation whose IEEE result is NaN, or an exact infinity, returns in format t.
RefResult invalid_result(DataType t) {
  if (t == D::E8M0 || has_nan(t)) return {t == D::E8M0 ? 0xFFu : nan_code(t), model::kFlagNV};
  return {0, model::kFlagNV};
}
std::uint64_t infinity_result(DataType t, bool negative) {
  if (has_inf(t)) return inf_code(t, negative);
  if (has_nan(t)) return nan_code(t);
  return max_code(t) | sign_code(t, negative);
}
RefResult zero_result(DataType t, bool negative) {
  if (t == D::E8M0) return {0xFF, model::kFlagNV};
  return {zero_code(t, negative), 0};
}
std::uint64_t width_mask(DataType t) {
  if (t == D::HiF8 || t == D::E8M0) return 0xFF;
  return mask_of(binary_spec(t)->width);
}

}  // namespace

RefResult ref_binary(DataType t, BinOp op, std::uint64_t a, std::uint64_t b, RoundingMode rm) {
  const RefValue x = ref_decode(t, a);
  RefValue y = ref_decode(t, b);
  if (is_nan(x) || is_nan(y)) {
    const bool signaling = x.kind == Kind::SNaN || y.kind == Kind::SNaN;
    return {nan_code(t), signaling ? model::kFlagNV : NumericFlags{0}};
  }
  if (op == BinOp::Sub) {
    y.negative = !y.negative;
    y.value = -y.value;
  }
  const bool sign_xor = x.negative != y.negative;
  switch (op) {
    case BinOp::Add:
    case BinOp::Sub:
      if (x.kind == Kind::Inf && y.kind == Kind::Inf && x.negative != y.negative) return invalid_result(t);
      if (x.kind == Kind::Inf) return {infinity_result(t, x.negative), 0};
      if (y.kind == Kind::Inf) return {infinity_result(t, y.negative), 0};
      if (x.kind == Kind::Zero && y.kind == Kind::Zero)
        return zero_result(t, x.negative == y.negative ? x.negative : rm == RoundingMode::RTM);
      break;
    case BinOp::Mul:
      if ((x.kind == Kind::Inf && y.kind == Kind::Zero) || (x.kind == Kind::Zero && y.kind == Kind::Inf))
        return invalid_result(t);
      if (x.kind == Kind::Inf || y.kind == Kind::Inf) return {infinity_result(t, sign_xor), 0};
      if (x.kind == Kind::Zero || y.kind == Kind::Zero) return zero_result(t, sign_xor);
      break;
    case BinOp::Div:
      if ((x.kind == Kind::Inf && y.kind == Kind::Inf) || (x.kind == Kind::Zero && y.kind == Kind::Zero))
        return invalid_result(t);
      if (x.kind == Kind::Inf) return {infinity_result(t, sign_xor), 0};
      if (y.kind == Kind::Inf) return zero_result(t, sign_xor);
      if (y.kind == Kind::Zero) return {infinity_result(t, sign_xor), model::kFlagDZ};
      if (x.kind == Kind::Zero) return zero_result(t, sign_xor);
      break;
  }
  Mp& mx = scratch().x;
  Mp& my = scratch().y;
  Mp& r = scratch().exact;
  mpfr_set_d(mx.v, x.value, MPFR_RNDN);
  mpfr_set_d(my.v, y.value, MPFR_RNDN);
  const int ternary = apply(op == BinOp::Sub ? BinOp::Add : op, r.v, mx.v, my.v);
  if (mpfr_zero_p(r.v)) return zero_result(t, rm == RoundingMode::RTM);  // exact cancellation
  return ref_round(t, r.v, ternary > 0 ? -1 : ternary < 0 ? 1 : 0, rm, false);
}

RefResult ref_min_max(DataType t, std::uint64_t a, std::uint64_t b, bool is_max) {
  a &= width_mask(t);
  b &= width_mask(t);
  const RefValue x = ref_decode(t, a);
  const RefValue y = ref_decode(t, b);
  const NumericFlags nv = (x.kind == Kind::SNaN || y.kind == Kind::SNaN) ? model::kFlagNV : NumericFlags{0};
  if (is_nan(x) && is_nan(y)) return {nan_code(t), nv};
  if (is_nan(x)) return {b, nv};
  if (is_nan(y)) return {a, nv};
  if (x.kind == Kind::Zero && y.kind == Kind::Zero) {  // HardwareNumericMinMaxSpecial
    if (is_max) return {x.negative && y.negative ? a : 0, 0};
    return {x.negative ? a : y.negative ? b : 0, 0};
  }
  if (is_max) return {x.value >= y.value ? a : b, 0};
  return {x.value <= y.value ? a : b, 0};
}

RefResult ref_exp(DataType t, std::uint64_t a) {
  const RefValue x = ref_decode(t, a);
  if (is_nan(x)) return {nan_code(t), x.kind == Kind::SNaN ? model::kFlagNV : NumericFlags{0}};
  if (x.kind == Kind::Zero) return {ref_encode(t, 1.0), 0};
  if (x.kind == Kind::Inf) return {x.negative ? 0 : inf_code(t, false), 0};
  Mp& mx = scratch().x;
  Mp& r = scratch().exact;
  if (std::fabs(x.value) > 1e5) {  // beyond MPFR's exponent range: a stand-in far outside every format
    mpfr_set_ui_2exp(r.v, 1, x.value > 0 ? 200000 : -200000, MPFR_RNDN);
    return ref_round(t, r.v, x.value > 0 ? 1 : -1, RoundingMode::RNE, false);
  }
  mpfr_set_d(mx.v, x.value, MPFR_RNDN);
  const int ternary = mpfr_exp(r.v, mx.v, MPFR_RNDN);
  return ref_round(t, r.v, ternary > 0 ? -1 : 1, RoundingMode::RNE, false);
}

RefResult mpfr_exp(DataType t, std::uint64_t a) {
  const RefValue x = ref_decode(t, a);
  const BinarySpec& s = *binary_spec(t);
  if (x.kind == Kind::QNaN || x.kind == Kind::SNaN)
    return {s.canonical_nan, x.kind == Kind::SNaN ? model::kFlagNV : NumericFlags{0}};
  Mp& mx = scratch().x;
  mpfr_set_d(mx.v, x.value, MPFR_RNDN);
  return mpfr_emulated(t, x.kind == Kind::Inf, [&](mpfr_ptr r) { return mpfr_exp(r, mx.v, MPFR_RNDN); });
}

Rng::Rng(std::uint64_t seed) {
  for (auto& s : m_s) {  // splitmix64 seeding
    seed += 0x9E3779B97F4A7C15;
    std::uint64_t z = seed;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
    s = z ^ (z >> 31);
  }
}

RefResult mpfr_fused(DataType dst, std::uint64_t c, DataType ta, std::uint64_t a, DataType tb, std::uint64_t b,
                     int scale_exp) {
  const RefValue x = ref_decode(ta, a);
  const RefValue y = ref_decode(tb, b);
  const RefValue z = ref_decode(dst, c);
  const BinarySpec& s = *binary_spec(dst);
  if (is_nan(x) || is_nan(y) || is_nan(z)) {
    const bool signaling = x.kind == Kind::SNaN || y.kind == Kind::SNaN || z.kind == Kind::SNaN;
    return {s.canonical_nan, signaling ? model::kFlagNV : NumericFlags{0}};
  }
  Mp mx(64);
  Mp my(64);
  Mp mz(64);
  mpfr_set_d(mx.v, x.value, MPFR_RNDN);
  mpfr_mul_2si(mx.v, mx.v, scale_exp, MPFR_RNDN);  // exact: MPFR's exponent range is far wider
  mpfr_set_d(my.v, y.value, MPFR_RNDN);
  mpfr_set_d(mz.v, z.value, MPFR_RNDN);
  const bool operand_inf = x.kind == Kind::Inf || y.kind == Kind::Inf || z.kind == Kind::Inf;
  return mpfr_emulated(dst, operand_inf, [&](mpfr_ptr r) { return mpfr_fma(r, mx.v, my.v, mz.v, MPFR_RNDN); });
}

EdgeGenerator::EdgeGenerator(DataType t, std::uint64_t seed) : m_spec(*binary_spec(t)), m_rng(seed) {
  const std::uint64_t e_all = mask_of(m_spec.exp_bits);
  const std::uint64_t f_all = mask_of(m_spec.frac_bits);
  const std::uint64_t quiet = std::uint64_t{1} << (m_spec.frac_bits - 1);
  for (const bool neg : {false, true}) {
    m_specials.push_back(make(neg, 0, 0));                       // zero
    m_specials.push_back(make(neg, 0, 1));                       // min subnormal
    m_specials.push_back(make(neg, 0, f_all));                   // max subnormal
    m_specials.push_back(make(neg, 1, 0));                       // min normal
    m_specials.push_back(make(neg, 1, 1));
    m_specials.push_back(make(neg, static_cast<std::uint64_t>(m_spec.bias), 0));  // one
    m_specials.push_back(make(neg, static_cast<std::uint64_t>(m_spec.bias), 1));
    m_specials.push_back(make(neg, static_cast<std::uint64_t>(m_spec.bias) - 1, f_all));
    m_specials.push_back(m_spec.max_finite | (neg ? std::uint64_t{1} << m_spec.sign_bit : 0));
    m_specials.push_back((m_spec.max_finite - (std::uint64_t{1} << m_spec.frac_shift)) |
                         (neg ? std::uint64_t{1} << m_spec.sign_bit : 0));
    if (m_spec.has_inf) m_specials.push_back(make(neg, e_all, 0));
  }
  m_specials.push_back(m_spec.canonical_nan);
  m_specials.push_back(make(true, e_all, quiet));
  m_specials.push_back(make(false, e_all, quiet | 1));
  m_specials.push_back(make(false, e_all, 1));      // signaling
  m_specials.push_back(make(true, e_all, f_all >> 1));  // signaling, full payload
}

std::uint64_t EdgeGenerator::make(bool negative, std::uint64_t exp_field, std::uint64_t frac) const {
  const std::uint64_t field = (exp_field << m_spec.frac_bits) | (frac & mask_of(m_spec.frac_bits));
  return (field << m_spec.frac_shift) | (negative ? std::uint64_t{1} << m_spec.sign_bit : 0);
}

std::uint64_t EdgeGenerator::next() {
  const std::uint64_t e_all = mask_of(m_spec.exp_bits);
  const bool neg = (m_rng() & 1) != 0;
  const int fb = m_spec.frac_bits;
  switch (m_rng() % 8) {
    case 0:
      if (m_spec.nan == BinarySpec::kIeee && (m_rng() & 3) == 0) return make(neg, e_all, bits(fb) | 1);  // any payload
      return m_specials[m_rng.below(m_specials.size())];
    case 1: return make(neg, 0, bits(fb) | 1);  // subnormal
    case 2: {                                   // extreme exponents
      const std::uint64_t e = (m_rng() & 1) ? 1 + m_rng() % 3 : e_all - 1 - m_rng() % 3;
      return make(neg, e, bits(fb));
    }
    case 3:
    case 4: {  // short significand: exact and halfway results
      const int k = static_cast<int>(m_rng.below(static_cast<std::uint64_t>(std::min(fb, 6) + 1)));
      return make(neg, 1 + m_rng.below(e_all - 1), bits(k) << (fb - k));
    }
    case 5: {  // exponents near one: the common working range
      const std::uint64_t span = std::min<std::uint64_t>(8, static_cast<std::uint64_t>(m_spec.bias) - 1);
      return make(neg, static_cast<std::uint64_t>(m_spec.bias) - span + m_rng.below(2 * span + 1), bits(fb));
    }
    default: return make(neg, m_rng.below(e_all + 1), bits(fb));
  }
}

std::uint64_t EdgeGenerator::related(std::uint64_t a) {
  const int fb = m_spec.frac_bits;
  const std::uint64_t e_all = mask_of(m_spec.exp_bits);
  const std::uint64_t field = (a >> m_spec.frac_shift) & mask_of(m_spec.exp_bits + fb);
  const auto e = static_cast<std::int64_t>(field >> fb);
  const bool neg = ((a >> m_spec.sign_bit) & 1) != 0;
  if (static_cast<std::uint64_t>(e) == e_all || e == 0) return next();
  const bool flip = (m_rng() & 1) != 0;
  switch (m_rng() % 6) {
    case 0: return flip ? a ^ (std::uint64_t{1} << m_spec.sign_bit) : a;  // exact cancellation or doubling
    case 1: {                                                               // a few units away
      const std::uint64_t delta = (1 + m_rng() % 4) << m_spec.frac_shift;
      const std::uint64_t mag = a & ~(std::uint64_t{1} << m_spec.sign_bit);
      const std::uint64_t b = (m_rng() & 1) ? mag + delta : (mag > delta ? mag - delta : mag);
      return b | ((neg != flip) ? std::uint64_t{1} << m_spec.sign_bit : 0);
    }
    case 2:
    case 3: {  // exponent offset around the precision: halfway and sticky alignments
      const std::int64_t off =
          static_cast<std::int64_t>(m_rng.below(static_cast<std::uint64_t>(2 * fb + 7))) - (fb + 3);
      const std::int64_t e2 = std::clamp<std::int64_t>(e + off, 1, static_cast<std::int64_t>(e_all) - 1);
      const int k = static_cast<int>(m_rng() % 3);
      return make(neg != flip, static_cast<std::uint64_t>(e2), bits(k) << (fb - k));
    }
    case 4: {  // exactly half an ulp of a (or a quarter): a tie or sticky-only addend
      const std::int64_t e2 = e - fb - 1 - static_cast<std::int64_t>(m_rng() % 2);
      if (e2 < 1) return next();
      return make(neg != flip, static_cast<std::uint64_t>(e2), 0);
    }
    default: return next();
  }
}

std::uint64_t EdgeGenerator::toward_boundary(std::uint64_t a, BinOp op) {
  const RefValue x = ref_decode(m_spec.type, a);
  if (x.kind != Kind::Finite) return next();
  const double max = ref_decode(m_spec.type, m_spec.max_finite).value;
  double target = 0;
  switch (m_rng() % 3) {
    case 0: target = std::ldexp(1.0, m_spec.emin()); break;
    case 1: target = max; break;
    default: target = std::ldexp(static_cast<double>(1 + m_rng() % 5), m_spec.emin() - m_spec.frac_bits); break;
  }
  if (m_rng() & 1) target = -target;
  double want = 0;
  switch (op) {
    case BinOp::Add: want = target - x.value; break;
    case BinOp::Sub: want = x.value - target; break;
    case BinOp::Mul: want = target / x.value; break;
    case BinOp::Div: want = x.value / target; break;
  }
  if (!std::isfinite(want)) return next();
  // The encoding just below |want| (positive encodings count up the grid: binade, then fraction).
  const int shift = m_spec.frac_shift;
  const double mag = std::fabs(want);
  const int fb = m_spec.frac_bits;
  const int e = mag == 0 ? m_spec.emin() : std::max(std::ilogb(mag), m_spec.emin());
  const auto units = static_cast<std::uint64_t>(std::ldexp(mag, fb - e));  // of 2^(e - fb)
  const std::uint64_t lo =
      std::min((static_cast<std::uint64_t>(e - m_spec.emin()) << fb) + units, m_spec.max_finite >> shift);
  const std::uint64_t offset = m_rng() % 5;
  const std::uint64_t k = (m_rng() & 1) ? std::min(lo + offset, m_spec.max_finite >> shift) : (lo > offset ? lo - offset : 0);
  return (k << shift) | (want < 0 ? std::uint64_t{1} << m_spec.sign_bit : 0);
}

std::pair<std::uint64_t, std::uint64_t> EdgeGenerator::halfway(BinOp op) {
  const int fb = m_spec.frac_bits;
  const int p = fb + 1;
  const auto e_all = static_cast<std::int64_t>(mask_of(m_spec.exp_bits));
  const bool na = (m_rng() & 1) != 0;
  const bool nb = (m_rng() & 1) != 0;
  if (op == BinOp::Mul) {
    // Odd A (ka bits) * odd B (kb bits), ka + kb = p + 2: the odd product has p + 1 or p + 2 bits;
    // with p + 1 it lies exactly halfway between two neighbours of the precision.
    const int ka = 2 + static_cast<int>(m_rng.below(static_cast<std::uint64_t>(p - 1)));
    const int kb = p + 2 - ka;
    auto odd = [&](int k) { return (std::uint64_t{1} << (k - 1)) | bits(k - 1) | 1; };
    const std::uint64_t A = odd(ka);
    const std::uint64_t B = odd(kb);
    // Exponents around one, or with a sum near the bottom of the normal range (a tie there may
    // become a subnormal result).
    const std::int64_t bias = m_spec.bias;
    std::int64_t ea = bias - 8 + static_cast<std::int64_t>(m_rng() % 17);
    std::int64_t eb = bias - 8 + static_cast<std::int64_t>(m_rng() % 17);
    if (m_rng() & 1) {
      ea = 1 + static_cast<std::int64_t>(m_rng.below(static_cast<std::uint64_t>(bias)));
      eb = 1 + bias - ea + static_cast<std::int64_t>(m_rng() % 4) - 2;
    }
    ea = std::clamp<std::int64_t>(ea, 1, e_all - 1);
    eb = std::clamp<std::int64_t>(eb, 1, e_all - 1);
    return {make(na, static_cast<std::uint64_t>(ea), A << (p - ka)),
            make(nb, static_cast<std::uint64_t>(eb), B << (p - kb))};
  }
  if (op == BinOp::Div) {
    // A short significand near the bottom of the range, divided by 2^j, lands on or next to a
    // midpoint of the subnormal grid.
    const int k = 1 + static_cast<int>(m_rng.below(static_cast<std::uint64_t>(std::min(fb, 8))));
    const std::uint64_t ea = m_rng() % 4;
    const std::uint64_t a = make(na, ea, (bits(k) | 1) << (fb - k));  // nonzero even when ea == 0
    const std::int64_t j = 1 + static_cast<std::int64_t>(m_rng.below(static_cast<std::uint64_t>(fb + 3)));
    return {a, make(nb, static_cast<std::uint64_t>(std::min<std::int64_t>(m_spec.bias + j, e_all - 1)), 0)};
  }
  const std::uint64_t a = next();
  return {a, related(a)};
}

std::pair<std::uint64_t, std::uint64_t> EdgeGenerator::pair(BinOp op, std::uint64_t i) {
  if ((i & 3) == 3) return halfway(op);
  const std::uint64_t a = next();
  switch (i & 3) {
    case 1: return {a, related(a)};
    case 2: return {a, toward_boundary(a, op)};
    default: return {a, next()};
  }
}

void HostStatus::clear() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_setcsr(_mm_getcsr() & ~0x3Fu);
#else
  std::feclearexcept(FE_ALL_EXCEPT);
#endif
}

NumericFlags HostStatus::read() const {
  NumericFlags f = 0;
#if defined(__x86_64__) || defined(__i386__)
  const unsigned csr = _mm_getcsr();
  if (csr & 0x01) f |= model::kFlagNV;  // IE
  if (csr & 0x04) f |= model::kFlagDZ;  // ZE
  if (csr & 0x08) f |= model::kFlagOF;  // OE
  if (csr & 0x10) f |= model::kFlagUF;  // UE
  if (csr & 0x20) f |= model::kFlagNX;  // PE
#else
  const int e = std::fetestexcept(FE_ALL_EXCEPT);
  if (e & FE_INVALID) f |= model::kFlagNV;
  if (e & FE_DIVBYZERO) f |= model::kFlagDZ;
  if (e & FE_OVERFLOW) f |= model::kFlagOF;
  if (e & FE_UNDERFLOW) f |= model::kFlagUF;
  if (e & FE_INEXACT) f |= model::kFlagNX;
#endif
  return f;
}

HostRounding::HostRounding(RoundingMode rm) {
#if defined(__x86_64__) || defined(__i386__)
  m_saved = _mm_getcsr();
  unsigned rc = 0;  // MXCSR RC (bits 14:13): 00 nearest, 01 down, 10 up, 11 toward zero
  switch (rm) {
    case RoundingMode::RNE: rc = 0; break;
    case RoundingMode::RTM: rc = 1; break;
    case RoundingMode::RTP: rc = 2; break;
    case RoundingMode::RTZ: rc = 3; break;
    default: std::abort();  // no host mode
  }
  _mm_setcsr((m_saved & ~0x6000u) | (rc << 13));
#else
  m_saved = static_cast<unsigned>(std::fegetround());
  switch (rm) {
    case RoundingMode::RNE: std::fesetround(FE_TONEAREST); break;
    case RoundingMode::RTM: std::fesetround(FE_DOWNWARD); break;
    case RoundingMode::RTP: std::fesetround(FE_UPWARD); break;
    case RoundingMode::RTZ: std::fesetround(FE_TOWARDZERO); break;
    default: std::abort();
  }
#endif
}

HostRounding::~HostRounding() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_setcsr((_mm_getcsr() & ~0x6000u) | (m_saved & 0x6000u));
#else
  std::fesetround(static_cast<int>(m_saved));
#endif
}

}  // namespace ptosim::test
