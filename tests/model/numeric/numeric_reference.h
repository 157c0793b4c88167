// SPDX-License-Identifier: BSD-3-Clause
// Test-only numeric reference, independent of model/numeric: spec-derived decoding, rounding by
// candidate search or by MPFR, biased operand generators and case-count reporting.
#pragma once

#include <mpfr.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/numeric/data_type.h"
#include "model/numeric/flags.h"
#include "model/numeric/rounding_mode.h"

namespace ptosim::test {

using model::DataType;
using model::NumericFlags;
using model::numeric::RoundingMode;

/// Prints "numeric-cases: <op> <type> <count>" so the test log records the coverage of each run.
void report_cases(const std::string& op, const std::string& type, std::uint64_t count);

/// Field layout of the sign/exponent/fraction types, transcribed from numerics.md §2.
struct BinarySpec {
  DataType type;
  int width;
  int sign_bit;
  int exp_bits;
  int frac_bits;
  int frac_shift;  // TF32/HF32 keep their fraction above 13/12 zero bits
  int bias;
  bool has_inf;
  enum Nan { kNone, kIeee, kAllOnesOnly } nan;
  std::uint64_t canonical_nan;
  std::uint64_t max_finite;
  int emin() const { return 1 - bias; }
};
/// nullptr for HiF8, E8M0 and integer types.
const BinarySpec* binary_spec(DataType t);

enum class Kind { Zero, Finite, Inf, QNaN, SNaN };
struct RefValue {
  Kind kind;
  bool negative;
  double value;  // signed; +-0 and +-inf included
};
/// Decodes floating and scale encodings from the spec's formulas (HiF8 from its dot-prefix table).
RefValue ref_decode(DataType t, std::uint64_t bits);
/// The encoding of a representable finite value (or +-0) of floating type t.
std::uint64_t ref_encode(DataType t, double v);
/// The canonical NaN of a floating or scale type that has one (numerics.md §2), else nullopt.
std::optional<std::uint64_t> ref_canonical_nan(DataType t);
/// The infinity of a type that has one (HiF8 0x6F/0xEF, binary: exponent all ones, fraction 0).
std::uint64_t ref_infinity(DataType t, bool negative);

struct RefResult {
  std::uint64_t bits;
  NumericFlags flags;
  bool operator==(const RefResult& o) const { return bits == o.bits && flags == o.flags; }
};

/// Rounds a nonzero real to floating type t under the HWP rules: IEEE 754 rounding with the
/// unbounded-exponent overflow rule, tininess after rounding, the format's Inf/NaN/saturation
/// substitutes. `x` holds the value, `dir` the sign of (true value - x) when x is only an
/// approximation (0: x is exact). E8M0 follows asl/arch/profile/e8m0-conversion.asl.
/// Types up to 16 bits use a search over all their encodings; wider types use MPFR directed
/// roundings and require dir == 0.
RefResult ref_round(DataType t, mpfr_srcptr x, int dir, RoundingMode rm, bool saturate);

enum class BinOp { Add, Sub, Mul, Div };
/// a op b for floating or scale types of up to 16 bits: IEEE 754 special cases written from the
/// standard, the exact value from MPFR, then ref_round. NaN-less formats answer an invalid
/// operation with +0 and a division by zero with the largest finite value; E8M0 zero or negative
/// results are NaN with NV (the E8M0 conversion rule).
RefResult ref_binary(DataType t, BinOp op, std::uint64_t a, std::uint64_t b, RoundingMode rm);
/// TMAX/TMIN per the numerics.md §6 table, zeros as asl HardwareNumericMinMaxSpecial words them
/// (a positive zero result is the all-zero encoding, a negative one the operand's own bits).
RefResult ref_min_max(DataType t, std::uint64_t a, std::uint64_t b, bool is_max);
/// e^a (RNE) for types up to 16 bits: special values of ADR 0080 Decision 073, otherwise a
/// 300-bit MPFR approximation rounded by ref_round.
RefResult ref_exp(DataType t, std::uint64_t a);

/// Round-to-nearest-even through MPFR's own subnormal emulation (mpfr_set_emin + mpfr_subnormalize)
/// for the binary types with infinities (FP16, BF16, TF32, HF32, FP32, FP64).
RefResult mpfr_binary(DataType t, BinOp op, std::uint64_t a, std::uint64_t b);
/// e^a the same way (RNE).
RefResult mpfr_exp(DataType t, std::uint64_t a);
/// c + (a * b) * 2^scale_exp with one RNE rounding to `dst` (mpfr_fma); a, b of any floating types.
RefResult mpfr_fused(DataType dst, std::uint64_t c, DataType ta, std::uint64_t a, DataType tb, std::uint64_t b,
                     int scale_exp);

/// RAII MPFR variable.
struct Mp {
  explicit Mp(mpfr_prec_t prec = 64) { mpfr_init2(v, prec); }
  ~Mp() { mpfr_clear(v); }
  Mp(const Mp&) = delete;
  Mp& operator=(const Mp&) = delete;
  mpfr_t v;
};

/// xoshiro256** (fast, good quality; std::mt19937_64 dominated the profile).
class Rng {
 public:
  explicit Rng(std::uint64_t seed);
  std::uint64_t operator()() {
    const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
    const std::uint64_t t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = rotl(m_s[3], 45);
    return result;
  }
  /// Uniform in [0, n) without a division (Lemire's multiply-shift; the bias is below 2^-40).
  std::uint64_t below(std::uint64_t n) { return static_cast<std::uint64_t>((static_cast<U128>((*this)()) * n) >> 64); }

 private:
  __extension__ typedef unsigned __int128 U128;
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t m_s[4];
};

/// Random encodings biased toward the edge cases of a binary type: zeros, subnormals, extreme
/// exponents, max finite, infinities, NaNs with random payloads, short significands (exact and
/// halfway results), and second operands related to the first (cancellation, sticky and halfway
/// alignments).
class EdgeGenerator {
 public:
  EdgeGenerator(DataType t, std::uint64_t seed);
  std::uint64_t next();
  std::uint64_t related(std::uint64_t a);
  /// A b for which a op b lands within a few units of +-min normal (tininess after rounding),
  /// +-max finite (overflow threshold) or a small multiple of the smallest subnormal.
  std::uint64_t toward_boundary(std::uint64_t a, BinOp op);
  /// A pair whose exact result is a rounding tie (or just off one): MUL of two odd significands
  /// whose product has exactly one bit more than the precision; DIV of a short significand by a
  /// power of two into the subnormal range; ADD/SUB a half-ulp addend (related()).
  std::pair<std::uint64_t, std::uint64_t> halfway(BinOp op);
  /// Operand pairs mixing the above: next/related/toward_boundary/halfway.
  std::pair<std::uint64_t, std::uint64_t> pair(BinOp op, std::uint64_t i);

 private:
  std::uint64_t make(bool negative, std::uint64_t exp_field, std::uint64_t frac) const;
  std::uint64_t bits(int n) { return n == 0 ? 0 : (m_rng() >> (64 - n)); }
  const BinarySpec& m_spec;
  Rng m_rng;
  std::vector<std::uint64_t> m_specials;
};

/// Host IEEE status of one binary32/binary64 operation (x86 MXCSR: tininess after rounding).
struct HostStatus {
  void clear();
  NumericFlags read() const;
};

/// Switches the host's binary32/binary64 rounding to RNE, RTZ, RTM or RTP for its lifetime.
class HostRounding {
 public:
  explicit HostRounding(RoundingMode rm);
  ~HostRounding();
  HostRounding(const HostRounding&) = delete;
  HostRounding& operator=(const HostRounding&) = delete;

 private:
  unsigned m_saved;
};

}  // namespace ptosim::test
