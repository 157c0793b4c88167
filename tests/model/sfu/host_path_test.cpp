// SPDX-License-Identifier: BSD-3-Clause
// The SFU's host path (binary32 steps rounded again to the format) for FP16, BF16 and TF32 sums
// and broadcast ADD/SUB/EXPDIF, and FP16 products and MUL/DIV, against the portable path
// (numeric::TypedOps), result bits and flags alike, on values chosen to reach each case of the
// second rounding: ties near one, steps whose binary32 result is itself inexact, overflow,
// subnormals, and sparse infinities and NaNs. The portable path is checked against the reference
// by the property tests.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "model/bundle/operation.h"
#include "model/numeric/flags.h"
#include "model/numeric/float_format.h"
#include "model/numeric/scalar_ops.h"
#include "model/sfu/sfu_core.h"
#include "model/sfu/sfu_host_float.h"

namespace ptosim::model {
namespace {

enum class Spread { NearOne, WideExponents, NearMax, Subnormal, SparseSpecials };

/// An encoding of `t` as `spread` draws them.
std::uint64_t draw(DataType t, Spread spread, std::mt19937_64& rng) {
  const numeric::FloatFormat& f = *numeric::float_format(t);
  const std::uint64_t frac = rng() & ((std::uint64_t{1} << f.frac_bits) - 1);
  const std::uint64_t sign = (rng() & 1) << f.sign_bit;
  const auto with_exponent = [&](std::uint64_t e) { return sign | (e << (f.frac_bits + f.frac_shift)) | frac << f.frac_shift; };
  const std::uint64_t e_max = (std::uint64_t{1} << f.exp_bits) - 2;
  switch (spread) {
    case Spread::NearOne: return with_exponent(f.bias - 1 + rng() % 3);
    case Spread::WideExponents: return with_exponent(1 + rng() % e_max);
    case Spread::NearMax: return with_exponent(e_max - rng() % 3);
    case Spread::Subnormal: return rng() % 4 == 0 ? with_exponent(1 + rng() % 2) : sign | frac << f.frac_shift;
    case Spread::SparseSpecials: break;
  }
  switch (rng() % 64) {
    case 0: return f.inf | sign;
    case 1: return f.canonical_nan;
    case 2: return f.inf | (std::uint64_t{1} << f.frac_shift);  // signaling
    default: return with_exponent(f.bias - 2 + rng() % 5);
  }
}

TileDescriptor tile(DataType t, std::uint32_t rows, std::uint32_t cols) {
  TileDescriptor d;
  d.dtype = t;
  d.rows = d.valid_rows = rows;
  d.cols = d.valid_cols = cols;
  d.pe_mask = PeMask(0b0001);
  d.capacity_bytes = static_cast<std::uint32_t>(d.storage_bytes());
  return d;
}

struct Result {
  std::vector<std::uint8_t> bytes;
  NumericFlags flags = 0;
};

bool is_row_form(Operation op) {
  return op == Operation::TROWSUM || op == Operation::TROWPROD || op == Operation::TROWEXPANDADD || op == Operation::TROWEXPANDSUB ||
         op == Operation::TROWEXPANDMUL || op == Operation::TROWEXPANDDIV || op == Operation::TROWEXPANDEXPDIF;
}

/// Runs `op` on PE 0: a reduction of `data`, or an expansion of `data` with `bcast` (a column for
/// the row forms, a row for the column forms).
Result execute(Operation op, const TileDescriptor& src, const std::vector<std::uint8_t>& data,
               const std::vector<std::uint8_t>& bcast, bool host) {
  const bool reduction = op == Operation::TROWSUM || op == Operation::TCOLSUM || op == Operation::TROWPROD ||
                         op == Operation::TCOLPROD;
  const TileDescriptor vector = is_row_form(op) ? tile(src.dtype, src.rows, 1) : tile(src.dtype, 1, src.cols);
  ExecPlan plan;
  plan.op = op;
  plan.dtype = src.dtype;
  plan.mask = src.pe_mask;
  plan.sources.push_back({TileRef::local(16), 16, src});
  if (!reduction) plan.sources.push_back({TileRef::local(17), 17, vector});
  DestOperand dst;
  dst.desc = reduction ? vector : src;
  plan.dests.push_back(dst);
  SfuArgs args;
  args.dst_dtype = src.dtype;
  plan.args = args;
  Result r;
  r.bytes.assign(dst.desc.storage_bytes(), 0);
  PePayloads io;
  io.sources.push_back(data.data());
  if (!reduction) io.sources.push_back(bcast.data());
  io.dests.push_back(r.bytes.data());
  sfu_detail::set_host_float_enabled(host);
  r.flags = sfu_execute(plan, io);
  sfu_detail::set_host_float_enabled(true);
  return r;
}

Result reduce(Operation op, const TileDescriptor& src, const std::vector<std::uint8_t>& data, bool host) {
  return execute(op, src, data, {}, host);
}

TEST_CASE("SFU host path: FP16, BF16 and TF32 sums, broadcast ADD/SUB/EXPDIF and FP16 PROD/MUL/DIV match the portable path bit for bit", "[sfu]") {
  REQUIRE(sfu_detail::host_float_matches_profile());  // else the host path is never taken
  std::mt19937_64 rng(0x4A5);
  const std::uint32_t shapes[][2] = {{1, 1}, {3, 7}, {8, 64}, {17, 33}, {64, 64}, {5, 1100}};
  int cases = 0;
  for (const DataType t : {DataType::FP16, DataType::BF16, DataType::TF32}) {
    const unsigned bytes = element_bits(t) / 8;
    for (const Spread spread : {Spread::NearOne, Spread::WideExponents, Spread::NearMax, Spread::Subnormal,
                                Spread::SparseSpecials}) {
      for (const auto& shape : shapes) {
        for (int round = 0; round < 20; ++round) {
          const TileDescriptor src = tile(t, shape[0], shape[1]);
          const auto values = [&](std::size_t count) {
            std::vector<std::uint8_t> v(count * bytes);
            for (std::size_t i = 0; i < count; ++i) {
              const std::uint64_t e = draw(t, spread, rng);
              std::memcpy(v.data() + i * bytes, &e, bytes);
            }
            return v;
          };
          const std::vector<std::uint8_t> data = values(src.storage_bytes() / bytes);
          const std::vector<std::uint8_t> column = values(shape[0]), row = values(shape[1]);
          for (const Operation op : {Operation::TROWSUM, Operation::TCOLSUM, Operation::TROWPROD, Operation::TCOLPROD,
                                     Operation::TROWEXPANDADD,
                                     Operation::TROWEXPANDSUB, Operation::TCOLEXPANDADD, Operation::TCOLEXPANDSUB,
                                     Operation::TROWEXPANDEXPDIF, Operation::TCOLEXPANDEXPDIF, Operation::TROWEXPANDMUL,
                                     Operation::TCOLEXPANDMUL, Operation::TROWEXPANDDIV, Operation::TCOLEXPANDDIV}) {
            const std::vector<std::uint8_t>& bcast = is_row_form(op) ? column : row;
            const Result host = execute(op, src, data, bcast, true);
            const Result portable = execute(op, src, data, bcast, false);
            INFO(data_type_name(t) << " spread " << static_cast<int>(spread) << " " << shape[0] << "x" << shape[1]
                                   << " round " << round << " " << operation_mnemonic(op));
            REQUIRE(host.bytes == portable.bytes);
            REQUIRE(flag_names(host.flags) == flag_names(portable.flags));
            ++cases;
          }
        }
      }
    }
  }
  CHECK(cases == 3 * 5 * 6 * 20 * 14);
}

TEST_CASE("SFU host path: each flag of a narrow sum or product comes from where the portable path raises it", "[sfu]") {
  // FP16: 65504 + 8 rounds back to 65504 (NX); 65504 + 16 is a tie that rounds to even, past the
  // largest value (OF NX); so is 1 + 2^-11, to 1 (NX); an sNaN flags NV and yields the canonical
  // NaN; inf - inf flags NV.
  const auto sum = [](std::vector<std::uint16_t> row) {
    const TileDescriptor src = tile(DataType::FP16, 1, static_cast<std::uint32_t>(row.size()));
    std::vector<std::uint8_t> data(src.storage_bytes());
    std::memcpy(data.data(), row.data(), row.size() * 2);
    const Result r = reduce(Operation::TROWSUM, src, data, true);
    std::uint16_t bits = 0;
    std::memcpy(&bits, r.bytes.data(), 2);
    return std::make_pair(bits, flag_names(r.flags));
  };
  CHECK(sum({0x7BFF, 0x4800}) == std::make_pair(std::uint16_t{0x7BFF}, flag_names(kFlagNX)));
  CHECK(sum({0x7BFF, 0x4C00}) ==
        std::make_pair(std::uint16_t{0x7C00}, flag_names(kFlagOF | kFlagNX)));
  CHECK(sum({0x3C00, 0x1000}) == std::make_pair(std::uint16_t{0x3C00}, flag_names(kFlagNX)));
  CHECK(sum({0x3C00, 0x7D00}) == std::make_pair(std::uint16_t{0x7E00}, flag_names(kFlagNV)));
  CHECK(sum({0x7C00, 0xFC00}) == std::make_pair(std::uint16_t{0x7E00}, flag_names(kFlagNV)));
  CHECK(sum({0x0001, 0x8001}) == std::make_pair(std::uint16_t{0x0000}, flag_names(0)));  // +0, exact
  CHECK(sum({0x8000, 0x8000}) == std::make_pair(std::uint16_t{0x0000}, flag_names(0)));  // +0 + -0 + -0

  // Products at FP16's tininess boundary, where tininess is judged after rounding: 63/64 *
  // 65 * 2^-20 = 2^-14 - 2^-26 rounds up to 2^-14, inexact but not tiny (NX); half of it rounds
  // to 2^-15, inexact and tiny (UF NX). Both paths agree.
  const auto product = [](std::uint16_t a, std::uint16_t b) {
    const TileDescriptor src = tile(DataType::FP16, 1, 1);
    std::vector<std::uint8_t> x(2), y(2);
    std::memcpy(x.data(), &a, 2);
    std::memcpy(y.data(), &b, 2);
    const Result host = execute(Operation::TROWEXPANDMUL, src, x, y, true);
    const Result portable = execute(Operation::TROWEXPANDMUL, src, x, y, false);
    CHECK(host.bytes == portable.bytes);
    CHECK(host.flags == portable.flags);
    std::uint16_t bits = 0;
    std::memcpy(&bits, host.bytes.data(), 2);
    return std::make_pair(bits, flag_names(host.flags));
  };
  CHECK(product(0x3BE0, 0x0410) == std::make_pair(std::uint16_t{0x0400}, flag_names(kFlagNX)));
  CHECK(product(0x3BE0, 0x0208) == std::make_pair(std::uint16_t{0x0200}, flag_names(kFlagUF | kFlagNX)));
}

}  // namespace
}  // namespace ptosim::model
