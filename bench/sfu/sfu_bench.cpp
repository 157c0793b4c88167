// SPDX-License-Identifier: BSD-3-Clause
// SFU core throughput: elements per second of model::sfu_execute (one PE) per operation class —
// row reduce (TROWSUM), column reduce (TCOLSUM), expand arithmetic (TROWEXPANDADD), EXPDIF
// (TROWEXPANDEXPDIF) and generation (TFILLPAD, expand form) — on FP32, FP16 and S8 tiles of
// 16x16 to 256x256, beside a plain loop over the same data that only loads and stores (each
// element combined with a bitwise OR/XOR, so the compiler keeps every access): the memory-bound
// limit of the machine. "ratio" = model / limit.
// Run: ptosim_bench_sfu [seconds-per-figure]   (default 0.2)
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "bench/common/call_rate.h"
#include "model/numeric/scalar_ops.h"
#include "model/sfu/sfu_core.h"

namespace {

using namespace ptosim::model;

enum class Class { RowReduce, ColReduce, ExpandArith, ExpDif, Generation };

const char* class_name(Class c) {
  switch (c) {
    case Class::RowReduce: return "row-reduce TROWSUM";
    case Class::ColReduce: return "col-reduce TCOLSUM";
    case Class::ExpandArith: return "expand TROWEXPANDADD";
    case Class::ExpDif: return "expdif TROWEXPANDEXPDIF";
    default: return "generate TFILLPAD";
  }
}

TileDescriptor tile(DataType t, std::uint32_t rows, std::uint32_t cols, std::uint32_t valid_rows, std::uint32_t valid_cols) {
  TileDescriptor d;
  d.dtype = t;
  d.rows = rows;
  d.cols = cols;
  d.valid_rows = valid_rows;
  d.valid_cols = valid_cols;
  d.pe_mask = PeMask(0b1000);
  d.capacity_bytes = static_cast<std::uint32_t>(d.storage_bytes());
  return d;
}

/// A finite encoding of moderate magnitude: sums and products round, nothing overflows.
std::uint64_t value(DataType t, std::mt19937_64& rng) {
  if (is_integer(t)) return rng() & element_mask(t);
  for (;;) {
    const std::uint64_t v = rng() & element_mask(t);
    const double d = numeric::to_double(t, v);
    if (std::isfinite(d) && std::fabs(d) < 4 && std::fabs(d) > 1.0 / 4) return v;
  }
}

struct Problem {
  ExecPlan plan;
  std::vector<std::vector<std::uint8_t>> in;
  std::vector<std::uint8_t> out;
  PePayloads io;
  std::uint64_t elements = 0;  ///< elements one execution processes
};

std::vector<std::uint8_t> payload(const TileDescriptor& d, std::mt19937_64& rng) {
  std::vector<std::uint8_t> bytes(d.storage_bytes());
  const unsigned w = element_bits(d.dtype) / 8;
  for (std::size_t i = 0; i < bytes.size() / w; ++i) {
    const std::uint64_t v = value(d.dtype, rng);
    std::memcpy(bytes.data() + i * w, &v, w);
  }
  return bytes;
}

Problem make(Class c, DataType t, std::uint32_t n, std::mt19937_64& rng) {
  Problem p;
  p.plan.dtype = t;
  p.plan.mask = PeMask(0b1000);
  SfuArgs args;
  args.dst_dtype = t;
  const TileDescriptor full = tile(t, n, n, n, n);
  DestOperand dst;
  switch (c) {
    case Class::RowReduce:
      p.plan.op = Operation::TROWSUM;
      p.plan.sources.push_back({TileRef::local(16), 16, full});
      dst.desc = tile(t, n, 1, n, 1);
      p.elements = std::uint64_t{n} * n;
      break;
    case Class::ColReduce:
      p.plan.op = Operation::TCOLSUM;
      p.plan.sources.push_back({TileRef::local(16), 16, full});
      dst.desc = tile(t, 1, n, 1, n);
      p.elements = std::uint64_t{n} * n;
      break;
    case Class::ExpandArith:
    case Class::ExpDif:
      p.plan.op = c == Class::ExpDif ? Operation::TROWEXPANDEXPDIF : Operation::TROWEXPANDADD;
      p.plan.sources.push_back({TileRef::local(16), 16, full});
      p.plan.sources.push_back({TileRef::local(17), 17, tile(t, n, 1, n, 1)});
      dst.desc = full;
      p.elements = std::uint64_t{n} * n;
      break;
    case Class::Generation:
      // Expand form: the n x n source fills the top-left quarter of a 2n x 2n destination.
      p.plan.op = Operation::TFILLPAD;
      p.plan.sources.push_back({TileRef::local(16), 16, tile(t, n, n, n, n)});
      dst.desc = tile(t, 2 * n, 2 * n, 2 * n, 2 * n);
      dst.defines_whole_tile = true;
      p.elements = std::uint64_t{4} * n * n;
      break;
  }
  p.plan.dests.push_back(dst);
  p.plan.args = args;
  for (const SourceOperand& s : p.plan.sources) p.in.push_back(payload(s.desc, rng));
  p.out.assign(dst.desc.storage_bytes(), 0);
  p.io.pe = 0;
  for (const auto& b : p.in) p.io.sources.push_back(b.data());
  p.io.dests.push_back(p.out.data());
  return p;
}

template <typename Lane>
Lane ld(const std::uint8_t* p, std::size_t i) {
  Lane v;
  std::memcpy(&v, p + i * sizeof(Lane), sizeof(Lane));
  return v;
}
template <typename Lane>
void st(std::uint8_t* p, std::size_t i, Lane v) {
  std::memcpy(p + i * sizeof(Lane), &v, sizeof(Lane));
}

// The memory-bound limit: the same loads and stores with the arithmetic replaced by a bitwise
// combination the compiler may vectorize freely.
template <typename Lane>
void limit_loop(Class c, std::uint32_t n, const Problem& p, std::uint8_t* dst) {
  const std::uint8_t* src = p.in[0].data();
  switch (c) {
    case Class::RowReduce:
      for (std::uint32_t r = 0; r < n; ++r) {
        Lane acc = 0;
        for (std::uint32_t k = 0; k < n; ++k) acc = static_cast<Lane>(acc | ld<Lane>(src, std::size_t{r} * n + k));
        st<Lane>(dst, r, acc);
      }
      break;
    case Class::ColReduce: {
      Lane acc[256] = {};
      for (std::uint32_t r = 0; r < n; ++r)
        for (std::uint32_t k = 0; k < n; ++k) acc[k] = static_cast<Lane>(acc[k] | ld<Lane>(src, std::size_t{r} * n + k));
      for (std::uint32_t k = 0; k < n; ++k) st<Lane>(dst, k, acc[k]);
      break;
    }
    case Class::ExpandArith:
    case Class::ExpDif: {
      const std::uint8_t* b = p.in[1].data();
      for (std::uint32_t r = 0; r < n; ++r) {
        const Lane x = ld<Lane>(b, r);
        for (std::uint32_t k = 0; k < n; ++k)
          st<Lane>(dst, std::size_t{r} * n + k, static_cast<Lane>(ld<Lane>(src, std::size_t{r} * n + k) ^ x));
      }
      break;
    }
    case Class::Generation:
      for (std::uint32_t r = 0; r < 2 * n; ++r) {
        const std::uint32_t copied = r < n ? n : 0;
        for (std::uint32_t k = 0; k < copied; ++k)
          st<Lane>(dst, std::size_t{r} * 2 * n + k, ld<Lane>(src, std::size_t{r} * n + k));
        for (std::uint32_t k = copied; k < 2 * n; ++k) st<Lane>(dst, std::size_t{r} * 2 * n + k, Lane{0x5A});
      }
      break;
  }
}

/// Elements per second of `run`, which processes `elements` per call.
template <typename Run>
double rate(Run run, std::uint64_t elements, double seconds) {
  return ptosim::bench::calls_per_second(run, seconds) * static_cast<double>(elements);
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 0.2;
  std::mt19937_64 rng(42);
  std::printf("%-26s %-5s %8s %14s %14s %7s\n", "class", "type", "tile", "model Melem/s", "limit Melem/s", "ratio");
  for (Class c : {Class::RowReduce, Class::ColReduce, Class::ExpandArith, Class::ExpDif, Class::Generation})
    for (DataType t : {DataType::FP32, DataType::FP16, DataType::S8}) {
      if (c == Class::ExpDif && is_integer(t)) continue;  // EXPDIF is floating only
      for (std::uint32_t n = 16; n <= 256; n *= 2) {
        Problem p = make(c, t, n, rng);
        std::vector<std::uint8_t> sink(p.out.size());
        volatile NumericFlags flags = 0;
        const double model = rate([&] { flags = flags | sfu_execute(p.plan, p.io); }, p.elements, seconds);
        const double limit = rate(
            [&] {
              switch (element_bits(t)) {
                case 32: limit_loop<std::uint32_t>(c, n, p, sink.data()); break;
                case 16: limit_loop<std::uint16_t>(c, n, p, sink.data()); break;
                default: limit_loop<std::uint8_t>(c, n, p, sink.data()); break;
              }
              flags = flags | sink[0];
            },
            p.elements, seconds);
        std::printf("%-26s %-5s %4ux%-4u %14.1f %14.1f %7.3f\n", class_name(c), data_type_name(t), n, n, model / 1e6,
                    limit / 1e6, model / limit);
      }
    }
  return 0;
}
