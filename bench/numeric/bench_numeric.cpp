// SPDX-License-Identifier: BSD-3-Clause
// Element throughput of the typed numeric ops per DataType and op, beside the host's native
// binary32/binary64 throughput for the same loop.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bench/common/call_rate.h"
#include "model/numeric/scalar_ops.h"
#include "model/numeric/typed_ops.h"

namespace {

using ptosim::model::DataType;
using ptosim::model::NumericFlags;
namespace num = ptosim::model::numeric;

constexpr std::size_t kLanes = 4096;
enum class Op { Add, Sub, Mul, Div, Max, Min, Exp };
constexpr Op kOps[] = {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Max, Op::Min, Op::Exp};
constexpr const char* kOpNames[] = {"ADD", "SUB", "MUL", "DIV", "MAX", "MIN", "EXP"};

double g_seconds = 0.05;  // measuring time per figure
std::uint64_t g_sink = 0;

// Element ops per second of `body`, which processes kLanes elements per call.
template <typename Body>
double rate(Body body) {
  return ptosim::bench::calls_per_second(body, g_seconds) * kLanes;
}

// Finite operands of typical magnitude (|x| in [2^-8, 2^8]; EXP arguments in [-8, 2], the range
// of softmax-style inputs) encoded in type t; integers random.
std::vector<std::uint64_t> operands(DataType t, std::uint64_t seed, bool exp_argument = false) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> v(kLanes);
  for (auto& x : v) {
    if (ptosim::model::is_integer(t)) {
      x = rng() & ptosim::model::element_mask(t);
      if (x == 0) x = 1;  // integer division by zero is rejected before execution
      continue;
    }
    const double mag = std::ldexp(1.0 + static_cast<double>(rng() % 1000) / 1000.0, static_cast<int>(rng() % 17) - 8);
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", (rng() & 1) ? -mag : mag);
    if (exp_argument) std::snprintf(text, sizeof text, "%.17g", static_cast<double>(rng() % 10000) / 1000.0 - 8.0);
    if (t == DataType::E8M0) std::snprintf(text, sizeof text, "%.17g", mag);
    x = num::parse_value(t, text).value_or(num::one(t));
  }
  return v;
}

struct Row {
  double api;
  double typed;
};

template <DataType T>
Row measure(Op op) {
  using Ops = num::TypedOps<T>;
  using Lane = typename Ops::Lane;
  const std::vector<std::uint64_t> a64 = operands(T, 1, op == Op::Exp);
  const std::vector<std::uint64_t> b64 = operands(T, 2);
  std::vector<Lane> a(a64.begin(), a64.end());
  std::vector<Lane> b(b64.begin(), b64.end());
  std::vector<Lane> out(kLanes);
  std::vector<std::uint64_t> out64(kLanes);
  NumericFlags flags = 0;
  const double typed = rate([&] {
    for (std::size_t i = 0; i < kLanes; ++i) {
      switch (op) {
        case Op::Add: out[i] = Ops::add(a[i], b[i], flags); break;
        case Op::Sub: out[i] = Ops::sub(a[i], b[i], flags); break;
        case Op::Mul: out[i] = Ops::mul(a[i], b[i], flags); break;
        case Op::Div: out[i] = Ops::div(a[i], b[i], flags); break;
        case Op::Max: out[i] = Ops::max(a[i], b[i], flags); break;
        case Op::Min: out[i] = Ops::min(a[i], b[i], flags); break;
        case Op::Exp: out[i] = Ops::exp(a[i], flags); break;
      }
    }
    g_sink += out[kLanes / 2];
  });
  const double api = rate([&] {
    for (std::size_t i = 0; i < kLanes; ++i) {
      switch (op) {
        case Op::Add: out64[i] = num::add(T, a64[i], b64[i], flags); break;
        case Op::Sub: out64[i] = num::sub(T, a64[i], b64[i], flags); break;
        case Op::Mul: out64[i] = num::mul(T, a64[i], b64[i], flags); break;
        case Op::Div: out64[i] = num::div(T, a64[i], b64[i], flags); break;
        case Op::Max: out64[i] = num::max(T, a64[i], b64[i], flags); break;
        case Op::Min: out64[i] = num::min(T, a64[i], b64[i], flags); break;
        case Op::Exp: out64[i] = num::exp(T, a64[i], flags); break;
      }
    }
    g_sink += out64[kLanes / 2] + flags;
  });
  return {api, typed};
}

template <typename F>
double native(Op op) {
  std::mt19937_64 rng(3);
  std::vector<F> a(kLanes);
  std::vector<F> b(kLanes);
  std::vector<F> out(kLanes);
  for (std::size_t i = 0; i < kLanes; ++i) {
    a[i] = static_cast<F>(std::ldexp(1.0 + static_cast<double>(rng() % 1000) / 1000.0, static_cast<int>(rng() % 17) - 8));
    if (op == Op::Exp) a[i] = static_cast<F>(static_cast<double>(rng() % 10000) / 1000.0 - 8.0);
    b[i] = static_cast<F>(std::ldexp(1.0 + static_cast<double>(rng() % 1000) / 1000.0, static_cast<int>(rng() % 17) - 8));
  }
  return rate([&] {
    for (std::size_t i = 0; i < kLanes; ++i) {
      switch (op) {
        case Op::Add: out[i] = a[i] + b[i]; break;
        case Op::Sub: out[i] = a[i] - b[i]; break;
        case Op::Mul: out[i] = a[i] * b[i]; break;
        case Op::Div: out[i] = a[i] / b[i]; break;
        case Op::Max: out[i] = std::fmax(a[i], b[i]); break;
        case Op::Min: out[i] = std::fmin(a[i], b[i]); break;
        case Op::Exp: out[i] = std::exp(a[i]); break;
      }
    }
    F sum = 0;
    std::memcpy(&sum, &out[kLanes / 2], sizeof sum);
    g_sink += static_cast<std::uint64_t>(sum != 0);
  });
}

template <DataType T>
void report(const double (&native_f32)[7], const double (&native_f64)[7]) {
  for (const Op op : kOps) {
    const Row r = measure<T>(op);
    const int i = static_cast<int>(op);
    std::printf("%-7s %-4s %11.1f %11.1f %11.1f %11.1f %7.1f%%\n", ptosim::model::data_type_name(T), kOpNames[i],
                r.api / 1e6, r.typed / 1e6, native_f32[i] / 1e6, native_f64[i] / 1e6, 100.0 * r.typed / native_f32[i]);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) g_seconds = std::atof(argv[1]);
  double f32[7];
  double f64[7];
  for (const Op op : kOps) {
    f32[static_cast<int>(op)] = native<float>(op);
    f64[static_cast<int>(op)] = native<double>(op);
  }
  std::printf("ptosim numeric element throughput, Mops/s (%zu-element buffers, best of 3, %.3f s per figure)\n",
              kLanes, g_seconds);
  std::printf("scalar_api: runtime-typed numeric::add(...); typed_ops: TypedOps<T>; native: host float/double loop\n");
  std::printf("%-7s %-4s %11s %11s %11s %11s %8s\n", "type", "op", "scalar_api", "typed_ops", "native_f32", "native_f64",
              "typed/f32");
  report<DataType::FP64>(f32, f64);
  report<DataType::FP32>(f32, f64);
  report<DataType::TF32>(f32, f64);
  report<DataType::HF32>(f32, f64);
  report<DataType::FP16>(f32, f64);
  report<DataType::BF16>(f32, f64);
  report<DataType::HiF8>(f32, f64);
  report<DataType::E4M3>(f32, f64);
  report<DataType::E5M2>(f32, f64);
  report<DataType::E3M2>(f32, f64);
  report<DataType::E2M3>(f32, f64);
  report<DataType::E2M1X2>(f32, f64);
  report<DataType::E1M2X2>(f32, f64);
  report<DataType::E8M0>(f32, f64);
  report<DataType::HiF4X2>(f32, f64);
  report<DataType::S64>(f32, f64);
  report<DataType::S32>(f32, f64);
  report<DataType::S16>(f32, f64);
  report<DataType::S8>(f32, f64);
  report<DataType::S4X2>(f32, f64);
  report<DataType::U64>(f32, f64);
  report<DataType::U32>(f32, f64);
  report<DataType::U16>(f32, f64);
  report<DataType::U8>(f32, f64);
  report<DataType::U4X2>(f32, f64);
  return g_sink == 42 ? 1 : 0;  // keeps the results observable
}
