// SPDX-License-Identifier: BSD-3-Clause
// PlatformParams: every timing and structure parameter of the platform, with its default (the
// Ascend A2/A3-class calibration of docs/timing-model.md). Parameters never change results.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptosim::model {

/// SFU operation classes that have their own startup and per-repeat cost.
enum class SfuOpClass : std::uint8_t {
  RowReduce,     ///< TROWSUM/PROD
  RowMinMax,     ///< TROWMAX/MIN/ARGMAX/ARGMIN
  ColReduce,     ///< TCOLSUM/PROD
  ColMinMax,     ///< TCOLMAX/MIN/ARGMAX/ARGMIN
  Expand,        ///< TROWEXPAND/TCOLEXPAND copies
  ExpandArith,   ///< broadcast ADD/SUB/MUL/MAX/MIN
  ExpandDiv,     ///< broadcast DIV
  ExpandExpDif,  ///< EXPDIF (subtract + exp)
  Generate,      ///< TCI, TTRI, TFILLPAD, TCONCAT, THISTOGRAM
};
constexpr int kSfuOpClassCount = 9;
const char* sfu_op_class_name(SfuOpClass c);

/// compute = startup (from idle) + per_repeat x repeats + per_row x rows + per_log2_row x log2(rows)
///           + per_column_block x ceil(cols / 64); docs/timing-model.md section 3.
struct SfuClassParams {
  double startup_cycles = 0;     ///< paid when a command starts on an idle SFU (not when streaming back to back)
  double cycles_per_repeat = 0;  ///< per repeat at the reference width (sfu.bytes_per_cycle = 128), any type
  /// Per repeat at the reference width for 32-bit elements, scaled by the lanes of a repeat
  /// (x 32 / element bits): work done per element, such as DIV and EXP.
  double lane_cycles_per_repeat = 0;
  double cycles_per_row = 0;          ///< per row of the work tile
  double cycles_per_log2_row = 0;     ///< per log2(rows): tree-shaped reductions
  double cycles_per_column_block = 0; ///< per 64 columns of the work tile
};

struct ClockParams {
  std::uint64_t period_ps = 541;  ///< 1.85 GHz
};

struct DispatchParams {
  std::uint64_t decode_cycles = 1;        ///< per bundle instruction word
  std::uint64_t preflight_cycles = 2;     ///< per bundle (legality + allocation)
  std::uint64_t issue_queue_depth = 4;    ///< commands waiting per engine
  std::uint64_t reorder_depth = 16;       ///< bundles in flight before in-order retirement
};

struct SfuParams {
  std::uint64_t repeat_bytes = 256;        ///< bytes per vector repeat
  std::uint64_t bytes_per_cycle = 128;     ///< datapath width; cycles_per_repeat scale with 128 / this
  std::uint64_t read_bytes_per_cycle = 256;   ///< operand stream rate per PE
  std::uint64_t write_bytes_per_cycle = 256;  ///< result stream rate per PE
  std::uint64_t burst_bytes = 32768;       ///< memory request size
  std::uint64_t outstanding_requests = 4;  ///< requests in flight per stream
  SfuClassParams classes[kSfuOpClassCount];
  SfuParams();
  const SfuClassParams& of(SfuOpClass c) const { return classes[static_cast<int>(c)]; }
};

struct CubeParams {
  std::uint64_t fill_cycles = 6;              ///< pipeline fill/drain per command
  std::uint64_t k_tile_bytes = 32;            ///< kt = k_tile_bytes / sizeof(A element)
  std::uint64_t cycles_per_fractal_16bit = 1; ///< cpr for 16-bit and 8-bit inputs
  std::uint64_t cycles_per_fractal_32bit = 2; ///< cpr for 32-bit inputs
  std::uint64_t cycles_per_fractal_4bit = 1;  ///< cpr for 4-bit inputs
  std::uint64_t read_bytes_per_cycle = 512;   ///< operand stream rate per PE (A, B, C, scales, bias)
  std::uint64_t write_bytes_per_cycle = 256;  ///< result stream rate per PE
  std::uint64_t burst_bytes = 32768;          ///< memory request size
  std::uint64_t outstanding_requests = 4;     ///< requests in flight per stream
};

struct MemoryParams {
  std::uint64_t banks = 16;
  std::uint64_t bank_width_bytes = 64;      ///< interleave granule
  std::uint64_t ports = 2;
  std::uint64_t bytes_per_cycle = 256;      ///< per port
  std::uint64_t access_latency_cycles = 2;
};

/// Shared memory defaults: one port, longer latency (assumption: an L1-like buffer).
inline MemoryParams default_shared_memory() { return MemoryParams{16, 64, 1, 128, 8}; }

/// Simulation controls: speed/accuracy trade-offs that are not hardware parameters.
struct SimParams {
  /// How far ahead of simulated time an engine may book memory requests. Smaller values arbitrate
  /// contending engines more finely at the cost of more SystemC context switches.
  std::uint64_t lookahead_cycles = 256;
};

struct PlatformParams {
  ClockParams clock;
  SimParams sim;
  DispatchParams dispatch;
  SfuParams sfu;
  CubeParams cube;
  MemoryParams local_memory;
  MemoryParams shared_memory = default_shared_memory();
  std::uint64_t interconnect_hop_cycles = 1;

  /// Every violated constraint, as "key: reason".
  std::vector<std::string> validate() const;
};

/// One configurable parameter: its dotted key, unit, description and legal range, bound to a field.
struct ParamInfo {
  std::string key;  ///< e.g. "sfu.bytes_per_cycle", "sfu.class.row_reduce.startup_cycles"
  const char* unit;
  const char* description;
  double min;
  double max;
  enum class Kind { Integer, Real } kind;
  void* field;  ///< std::uint64_t* or double* according to kind

  double get() const;
  /// The value, in the shortest decimal that reads back as it (1000000, 0.30000000000000004).
  std::string value_text() const;
  /// Stores `value`, which must lie in [min, max] (see range_problem).
  void set(double value) const;
  /// The legal values, "[min, max]".
  std::string range_text() const;
  /// Why `value` is not a legal setting ("v is outside [min, max]", v as `shown` if given: the
  /// text it was read from), or nothing.
  std::optional<std::string> range_problem(double value, const std::string& shown = "") const;
};

/// Every parameter of `p` (keys in documentation order), bound to its fields.
std::vector<ParamInfo> param_table(PlatformParams& p);

}  // namespace ptosim::model
