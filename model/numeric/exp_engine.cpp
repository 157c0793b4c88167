// SPDX-License-Identifier: BSD-3-Clause
// Correctly rounded exponential: table-driven binary64 and double-double evaluations with
// rigorous error bounds, a fixed-point fallback, and Ziv's rounding test on exact enclosures.
#include "model/numeric/exp_engine.h"

#include <cmath>

#include "model/numeric/double_double.h"
#include "model/numeric/rounding.h"

namespace ptosim::model::numeric {

namespace {

// Argument reduction x = (64 k + j) * ln2/64 + r, |r| <= ln2/128 (plus rounding slack).
constexpr double kInvL = 0x1.71547652b82fep+6;  // 64/ln2 rounded; only used to pick n
// ln2/64 = C1 + C2 + C3 + C4 (error < 2^-177). C1..C3 have 36 significant bits, so n * Ci is
// exact for |n| < 2^17 (|x| <= 1100 gives |n| <= 101 600).
constexpr double kC1 = 0x1.62e42fefa0000p-7;
constexpr double kC2 = 0x1.cf79abc9e0000p-46;
constexpr double kC3 = 0x1.d9cc01f980000p-85;
constexpr double kC4 = -0x1.2a17e1979b31bp-123;

// The double-double stage reduces further: x = (4096 k + 64 j + i) * ln2/4096 + r with
// |r| <= ln2/8192. ln2/4096 = F1 + F2 + F3 + F4 (error < 2^-169), F1..F3 of 30 bits so that
// n * Fi is exact for |n| < 2^23 (|x| <= 1100 gives |n| <= 6.5e6).
constexpr double kInvFineL = 0x1.71547652b82fep+12;  // 4096/ln2 rounded; only used to pick n
constexpr double kF1 = 0x1.62e42ff000000p-13;
constexpr double kF2 = -0x1.718432a000000p-47;
constexpr double kF3 = -0x1.b0e2634000000p-79;
constexpr double kF4 = 0x1.f97b57a079a19p-115;

// 2^(i/4096), i = 0..63, as double-double.
constexpr DoubleDouble kExp2Fine[64] = {
    {0x1.0000000000000p+0, 0x0.0p+0},
    {0x1.000b175effdc7p+0, 0x1.ae8e38c59c72ap-54},
    {0x1.00162f3904052p+0, -0x1.7b5d0d58ea8f4p-58},
    {0x1.0021478e11ce6p+0, 0x1.4115cb6b16a8ep-54},
    {0x1.002c605e2e8cfp+0, -0x1.d7c96f201bb2fp-55},
    {0x1.003779a95f959p+0, 0x1.84711d4c35e9fp-54},
    {0x1.0042936faa3d8p+0, -0x1.0484245243777p-55},
    {0x1.004dadb113da0p+0, -0x1.4b237da2025f9p-54},
    {0x1.0058c86da1c0ap+0, -0x1.5e00e62d6b30dp-56},
    {0x1.0063e3a559473p+0, 0x1.a1d6cedbb9481p-54},
    {0x1.006eff583fc3dp+0, -0x1.4acf197a00142p-54},
    {0x1.007a1b865a8cap+0, -0x1.eaf2ea42391a5p-57},
    {0x1.0085382faef83p+0, 0x1.da93f90835f75p-56},
    {0x1.00905554425d4p+0, -0x1.6a79084ab093cp-55},
    {0x1.009b72f41a12bp+0, 0x1.86364f8fbe8f8p-54},
    {0x1.00a6910f3b6fdp+0, -0x1.82e8e14e3110ep-55},
    {0x1.00b1afa5abcbfp+0, -0x1.4f6b2a7609f71p-55},
    {0x1.00bcceb7707ecp+0, -0x1.e1a258ea8f71bp-56},
    {0x1.00c7ee448ee02p+0, 0x1.4362ca5bc26f1p-56},
    {0x1.00d30e4d0c483p+0, 0x1.095a56c919d02p-54},
    {0x1.00de2ed0ee0f5p+0, -0x1.406ac4e81a645p-57},
    {0x1.00e94fd0398e0p+0, 0x1.b5a6902767e09p-54},
    {0x1.00f4714af41d3p+0, -0x1.91b2060859321p-54},
    {0x1.00ff93412315cp+0, 0x1.427068ab22306p-55},
    {0x1.010ab5b2cbd11p+0, 0x1.c1d0660524e08p-54},
    {0x1.0115d89ff3a8bp+0, -0x1.e7bdfb3204be8p-54},
    {0x1.0120fc089ff63p+0, 0x1.843aa8b9cbbc6p-55},
    {0x1.012c1fecd613bp+0, -0x1.34104ee7edae9p-56},
    {0x1.0137444c9b5b5p+0, -0x1.2b6aeb6176892p-56},
    {0x1.01426927f5278p+0, 0x1.a8cd33b8a1bb3p-56},
    {0x1.014d8e7ee8d2fp+0, 0x1.2edc08e5da99ap-56},
    {0x1.0158b4517bb88p+0, 0x1.57ba2dc7e0c73p-55},
    {0x1.0163da9fb3335p+0, 0x1.b61299ab8cdb7p-54},
    {0x1.016f0169949edp+0, -0x1.90565902c5f44p-54},
    {0x1.017a28af25567p+0, 0x1.70fc41c5c2d53p-55},
    {0x1.018550706ab62p+0, 0x1.4b9a6e145d76cp-54},
    {0x1.019078ad6a19fp+0, -0x1.008eff5142bf9p-56},
    {0x1.019ba16628de2p+0, -0x1.77669f033c7dep-54},
    {0x1.01a6ca9aac5f3p+0, -0x1.09bb78eeead0ap-54},
    {0x1.01b1f44af9f9ep+0, 0x1.371231477ece5p-54},
    {0x1.01bd1e77170b4p+0, 0x1.5e7626621eb5bp-56},
    {0x1.01c8491f08f08p+0, -0x1.bc72b100828a5p-54},
    {0x1.01d37442d5070p+0, -0x1.ce39cbbab8bbep-57},
    {0x1.01de9fe280ac8p+0, 0x1.16996709da2e2p-55},
    {0x1.01e9cbfe113efp+0, -0x1.c11f5239bf535p-55},
    {0x1.01f4f8958c1c6p+0, 0x1.e1d4eb5edc6b3p-55},
    {0x1.020025a8f6a35p+0, -0x1.afb99946ee3f0p-54},
    {0x1.020b533856324p+0, -0x1.8f06d8a148a32p-54},
    {0x1.02168143b0281p+0, -0x1.2bf310fc54eb6p-55},
    {0x1.0221afcb09e3ep+0, -0x1.c95a035eb4175p-54},
    {0x1.022cdece68c4fp+0, -0x1.491793e46834dp-54},
    {0x1.02380e4dd22adp+0, -0x1.3e8d0d9c49091p-56},
    {0x1.02433e494b755p+0, -0x1.314aa16278aa3p-54},
    {0x1.024e6ec0da046p+0, 0x1.48daf888e9651p-55},
    {0x1.02599fb483385p+0, 0x1.56dc8046821f4p-55},
    {0x1.0264d1244c719p+0, 0x1.45b42356b9d47p-54},
    {0x1.027003103b10ep+0, -0x1.082ef51b61d7ep-56},
    {0x1.027b357854772p+0, 0x1.2106ed0920a34p-56},
    {0x1.0286685c9e059p+0, -0x1.fd4cf26ea5d0fp-54},
    {0x1.02919bbd1d1d8p+0, -0x1.09f8775e78084p-54},
    {0x1.029ccf99d720ap+0, 0x1.64cbba902ca27p-58},
    {0x1.02a803f2d170dp+0, 0x1.4383ef231d207p-54},
    {0x1.02b338c811703p+0, 0x1.4a47a505b3a47p-54},
    {0x1.02be6e199c811p+0, 0x1.e47120223467fp-54},
};

// 2^(j/64) as double-double (hi + lo, |lo| <= ulp(hi)/2; the pair is within 2^-106 relative).
constexpr DoubleDouble kExp2[64] = {
    {0x1.0000000000000p+0, 0x0.0p+0},
    {0x1.02c9a3e778061p+0, -0x1.19083535b085dp-56},
    {0x1.059b0d3158574p+0, 0x1.d73e2a475b465p-55},
    {0x1.0874518759bc8p+0, 0x1.186be4bb284ffp-57},
    {0x1.0b5586cf9890fp+0, 0x1.8a62e4adc610bp-54},
    {0x1.0e3ec32d3d1a2p+0, 0x1.03a1727c57b53p-59},
    {0x1.11301d0125b51p+0, -0x1.6c51039449b3ap-54},
    {0x1.1429aaea92de0p+0, -0x1.32fbf9af1369ep-54},
    {0x1.172b83c7d517bp+0, -0x1.19041b9d78a76p-55},
    {0x1.1a35beb6fcb75p+0, 0x1.e5b4c7b4968e4p-55},
    {0x1.1d4873168b9aap+0, 0x1.e016e00a2643cp-54},
    {0x1.2063b88628cd6p+0, 0x1.dc775814a8495p-55},
    {0x1.2387a6e756238p+0, 0x1.9b07eb6c70573p-54},
    {0x1.26b4565e27cddp+0, 0x1.2bd339940e9d9p-55},
    {0x1.29e9df51fdee1p+0, 0x1.612e8afad1255p-55},
    {0x1.2d285a6e4030bp+0, 0x1.0024754db41d5p-54},
    {0x1.306fe0a31b715p+0, 0x1.6f46ad23182e4p-55},
    {0x1.33c08b26416ffp+0, 0x1.32721843659a6p-54},
    {0x1.371a7373aa9cbp+0, -0x1.63aeabf42eae2p-54},
    {0x1.3a7db34e59ff7p+0, -0x1.5e436d661f5e3p-56},
    {0x1.3dea64c123422p+0, 0x1.ada0911f09ebcp-55},
    {0x1.4160a21f72e2ap+0, -0x1.ef3691c309278p-58},
    {0x1.44e086061892dp+0, 0x1.89b7a04ef80d0p-59},
    {0x1.486a2b5c13cd0p+0, 0x1.3c1a3b69062f0p-56},
    {0x1.4bfdad5362a27p+0, 0x1.d4397afec42e2p-56},
    {0x1.4f9b2769d2ca7p+0, -0x1.4b309d25957e3p-54},
    {0x1.5342b569d4f82p+0, -0x1.07abe1db13cadp-55},
    {0x1.56f4736b527dap+0, 0x1.9bb2c011d93adp-54},
    {0x1.5ab07dd485429p+0, 0x1.6324c054647adp-54},
    {0x1.5e76f15ad2148p+0, 0x1.ba6f93080e65ep-54},
    {0x1.6247eb03a5585p+0, -0x1.383c17e40b497p-54},
    {0x1.6623882552225p+0, -0x1.bb60987591c34p-54},
    {0x1.6a09e667f3bcdp+0, -0x1.bdd3413b26456p-54},
    {0x1.6dfb23c651a2fp+0, -0x1.bbe3a683c88abp-57},
    {0x1.71f75e8ec5f74p+0, -0x1.16e4786887a99p-55},
    {0x1.75feb564267c9p+0, -0x1.0245957316dd3p-54},
    {0x1.7a11473eb0187p+0, -0x1.41577ee04992fp-55},
    {0x1.7e2f336cf4e62p+0, 0x1.05d02ba15797ep-56},
    {0x1.82589994cce13p+0, -0x1.d4c1dd41532d8p-54},
    {0x1.868d99b4492edp+0, -0x1.fc6f89bd4f6bap-54},
    {0x1.8ace5422aa0dbp+0, 0x1.6e9f156864b27p-54},
    {0x1.8f1ae99157736p+0, 0x1.5cc13a2e3976cp-55},
    {0x1.93737b0cdc5e5p+0, -0x1.75fc781b57ebcp-57},
    {0x1.97d829fde4e50p+0, -0x1.d185b7c1b85d1p-54},
    {0x1.9c49182a3f090p+0, 0x1.c7c46b071f2bep-56},
    {0x1.a0c667b5de565p+0, -0x1.359495d1cd533p-54},
    {0x1.a5503b23e255dp+0, -0x1.d2f6edb8d41e1p-54},
    {0x1.a9e6b5579fdbfp+0, 0x1.0fac90ef7fd31p-54},
    {0x1.ae89f995ad3adp+0, 0x1.7a1cd345dcc81p-54},
    {0x1.b33a2b84f15fbp+0, -0x1.2805e3084d708p-57},
    {0x1.b7f76f2fb5e47p+0, -0x1.5584f7e54ac3bp-56},
    {0x1.bcc1e904bc1d2p+0, 0x1.23dd07a2d9e84p-55},
    {0x1.c199bdd85529cp+0, 0x1.11065895048ddp-55},
    {0x1.c67f12e57d14bp+0, 0x1.2884dff483cadp-54},
    {0x1.cb720dcef9069p+0, 0x1.503cbd1e949dbp-56},
    {0x1.d072d4a07897cp+0, -0x1.cbc3743797a9cp-54},
    {0x1.d5818dcfba487p+0, 0x1.2ed02d75b3707p-55},
    {0x1.da9e603db3285p+0, 0x1.c2300696db532p-54},
    {0x1.dfc97337b9b5fp+0, -0x1.1a5cd4f184b5cp-54},
    {0x1.e502ee78b3ff6p+0, 0x1.39e8980a9cc8fp-55},
    {0x1.ea4afa2a490dap+0, -0x1.e9c23179c2893p-54},
    {0x1.efa1bee615a27p+0, 0x1.dc7f486a4b6b0p-54},
    {0x1.f50765b6e4540p+0, 0x1.9d3e12dd8a18bp-54},
    {0x1.fa7c1819e90d8p+0, 0x1.74853f3a5931ep-55},
};

// 1/k! rounded to binary64 (k = 1..7); 1/6 also as double-double for the one term whose
// coefficient needs more than binary64 precision in the double-double stage.
constexpr double kInvFact[8] = {0,
                                0x1.0000000000000p+0,
                                0x1.0000000000000p-1,
                                0x1.5555555555555p-3,
                                0x1.5555555555555p-5,
                                0x1.1111111111111p-7,
                                0x1.6c16c16c16c17p-10,
                                0x1.a01a01a01a01ap-13};
constexpr DoubleDouble kInvFact3 = {0x1.5555555555555p-3, 0x1.5555555555555p-57};

struct Reduction {
  double n;  // 64 k + j as an exact double
  int j;
  int k;
};

Reduction reduce(double x) {
  // Round to the nearest integer by adding and removing 1.5 * 2^52 (|x * 64/ln2| < 2^17);
  // std::nearbyint would save and restore the floating-point environment on every call.
  constexpr double kShifter = 0x1.8p52;
  const double n = (x * kInvL + kShifter) - kShifter;
  const auto big_n = static_cast<long>(n);
  const int j = static_cast<int>(big_n & 63);
  return {n, j, static_cast<int>((big_n - j) / 64)};
}

// floor(ln2 * 2^bits) - e with 0 <= e < 2, from ln2 = sum 1/(i 2^i) with 16 guard bits.
BigUint ln2_fixed(int bits) {
  constexpr int kGuard = 16;
  const int total = bits + kGuard;
  BigUint sum;
  for (int i = 1; i <= total; ++i) {
    BigUint term(1);
    term <<= total - i;
    term.div_small(static_cast<std::uint32_t>(i));
    if (term.is_zero()) break;
    sum += term;
  }
  sum >>= kGuard;
  return sum;
}

bool try_round_pair(const FloatFormat& f, u128 lo, int lo_exp, u128 hi, int hi_exp, std::uint64_t& bits,
                    NumericFlags& flags) {
  NumericFlags f_lo = 0;
  NumericFlags f_hi = 0;
  const std::uint64_t r_lo = round_to_format(f, false, lo, lo_exp, true, RoundingMode::RNE, false, f_lo);
  const std::uint64_t r_hi = round_to_format(f, false, hi, hi_exp, true, RoundingMode::RNE, false, f_hi);
  if (r_lo != r_hi || f_lo != f_hi) return false;
  bits = r_lo;
  flags |= f_lo;
  return true;
}

}  // namespace

double exp_core_double(double x, int& k) {
  const Reduction d = reduce(x);
  k = d.k;
  const double r = (x - d.n * kC1) - d.n * kC2;
  const double p =
      r + r * r * (kInvFact[2] + r * (kInvFact[3] + r * (kInvFact[4] + r * (kInvFact[5] + r * kInvFact[6]))));
  const double t = kExp2[d.j].hi;
  // Error: table 2^-53, two final roundings 2^-53 each, reduction and series below 2^-57:
  // under 2^-51.3 relative; callers use 2^-48.
  return t + t * p;
}

ExpEnclosure exp_enclosure_double(double x) {
  int k = 0;
  const double y = exp_core_double(x, k);
  // y is in [0.99, 2.03], so y * 2^60 is an integer (ulp(y) >= 2^-53).
  const auto m = static_cast<std::uint64_t>(y * 0x1p60);
  const std::uint64_t err = (m >> 48) + 2;
  return {m - err, m + err, k - 60};
}

ExpEnclosure exp_enclosure_dd(double x) {
  // n = 4096 k + 64 j + i by adding and removing 1.5 * 2^52 (|x * 4096/ln2| < 2^23).
  constexpr double kShifter = 0x1.8p52;
  const double n = (x * kInvFineL + kShifter) - kShifter;
  const auto big_n = static_cast<long>(n);
  const int ji = static_cast<int>(big_n & 4095);
  const int k = static_cast<int>((big_n - ji) / 4096);
  DoubleDouble r = two_sum(x, -n * kF1);
  r = dd_add(r, {-n * kF2, 0});
  r = dd_add(r, {-n * kF3, 0});
  r = dd_add(r, {-n * kF4, 0});
  // e^r - 1 = r (1 + r (1/2 + r (1/6 + t))) with |r| < 2^-13.4: t = r/24 + ... + r^4/5040 in
  // binary64 (its error is scaled by r^3 < 2^-40), truncation r^8/8! < 2^-120.
  const double t = r.hi * (kInvFact[4] + r.hi * (kInvFact[5] + r.hi * (kInvFact[6] + r.hi * kInvFact[7])));
  DoubleDouble q = dd_add(kInvFact3, {t, 0});
  q = dd_add(dd_mul(q, r), {0.5, 0});
  q = dd_add(dd_mul(q, r), {1.0, 0});
  const DoubleDouble p = dd_mul(q, r);
  const DoubleDouble table = dd_mul(kExp2[ji >> 6], kExp2Fine[ji & 63]);
  const DoubleDouble y = dd_add(table, dd_mul(table, p));
  // Each double-double operation is within a few 2^-106 relative; about 12 of them and the two
  // tables (2^-106 each) keep the total under 2^-100. The enclosure uses 2^-96.
  // y.hi in [0.999, 2.001]: y.hi * 2^53 is an integer.
  const auto hi = static_cast<std::uint64_t>(y.hi * 0x1p53);
  const auto lo = static_cast<std::int64_t>(y.lo * 0x1p110);  // truncated: one more unit of error
  const u128 m = (static_cast<u128>(hi) << 57) + static_cast<u128>(static_cast<s128>(lo));
  const u128 err = (m >> 96) + 4;
  return {m - err, m + err, k - 110};
}

BigExpEnclosure exp_enclosure_mp(double x, int bits) {
  constexpr int kHalvings = 16;
  const int f2 = bits + 32;         // fraction bits of ln2 and of the reduced argument
  const int f3 = f2 + kHalvings;    // fraction bits of r / 2^16, the series and the squarings
  const BigUint ln2 = ln2_fixed(f2);

  int ex = 0;
  const double fr = std::frexp(std::fabs(x), &ex);
  const auto mx = static_cast<std::uint64_t>(std::ldexp(fr, 53));
  ex -= 53;  // |x| = mx * 2^ex
  BigUint big_x(mx);
  if (ex + f2 >= 0) big_x <<= ex + f2;
  else big_x >>= -(ex + f2);  // floor(|x| 2^f2): error below one unit

  // r = x - n ln2 with 0 <= r < ln2 (as computed): |n| <= 1588, error < (2|n| + 1) 2^-f2 < 2^12 2^-f2.
  auto n = static_cast<long>(std::floor(x / (kC1 * 64)));
  BigUint r;
  for (;;) {
    BigUint pos = x > 0 ? big_x : BigUint();
    BigUint neg = x < 0 ? big_x : BigUint();
    BigUint multiple = ln2;
    multiple.mul_small(static_cast<std::uint32_t>(n < 0 ? -n : n));
    (n < 0 ? pos : neg) += multiple;
    if (pos < neg) {
      --n;
      continue;
    }
    r = pos;
    r -= neg;
    if (!(r < ln2)) {
      ++n;
      continue;
    }
    break;
  }

  // e^(r / 2^16) by Taylor series on the same integer read with f3 fraction bits; every step
  // truncates, so each term is within 4 units and the dropped tail within 2 units.
  BigUint one(1);
  one <<= f3;
  BigUint sum = one;
  BigUint term = one;
  std::uint32_t terms = 0;
  for (std::uint32_t k = 1;; ++k) {
    term = term * r;
    term >>= f3;
    term.div_small(k);
    if (term.is_zero()) break;
    sum += term;
    terms = k;
  }
  for (int i = 0; i < kHalvings; ++i) {
    sum = sum * sum;
    sum >>= f3;
  }
  // Series error e0 <= 2^13 (argument) + 4 terms + 8 units; 16 squarings multiply the relative
  // error by 2^16 (plus one unit each) and the value stays below 2: below 2^18 (e0 + 1) units.
  BigUint err(8192 + 4 * std::uint64_t{terms} + 32);
  err <<= 19;
  BigUint lo = sum;
  lo -= err;
  BigUint hi = sum;
  hi += err;
  return {lo, hi, static_cast<int>(n) - f3};
}

bool exp_try_round(const FloatFormat& f, const ExpEnclosure& e, std::uint64_t& bits, NumericFlags& flags) {
  return try_round_pair(f, e.lo, e.exp, e.hi, e.exp, bits, flags);
}

bool exp_try_round(const FloatFormat& f, const BigExpEnclosure& e, std::uint64_t& bits, NumericFlags& flags) {
  // Dropping low bits keeps each end a bound: the result is rounded as a value just above it.
  bool sticky_lo = false;
  bool sticky_hi = false;
  int shift_lo = 0;
  int shift_hi = 0;
  const u128 lo = e.lo.top_bits(126, sticky_lo, shift_lo);
  const u128 hi = e.hi.top_bits(126, sticky_hi, shift_hi);
  return try_round_pair(f, lo, e.exp + shift_lo, hi, e.exp + shift_hi, bits, flags);
}

std::uint64_t exp_round(const FloatFormat& f, double x, NumericFlags& flags) {
  if (std::fabs(x) > kExpEnclosureLimit) {
    // Far outside every format's range: a value with 64 more bits than any precision.
    return round_to_format(f, false, u128{1} << 64, x > 0 ? 2000 : -2100, true, RoundingMode::RNE, false, flags);
  }
  const unsigned precision = f.kind == FormatKind::Binary ? f.frac_bits + 1 : f.kind == FormatKind::HiF8 ? 4 : 1;
  std::uint64_t bits = 0;
  if (precision <= 30 && exp_try_round(f, exp_enclosure_double(x), bits, flags)) return bits;
  if (exp_try_round(f, exp_enclosure_dd(x), bits, flags)) return bits;
  for (int working = 160;; working *= 2)
    if (exp_try_round(f, exp_enclosure_mp(x, working), bits, flags)) return bits;
}

}  // namespace ptosim::model::numeric
