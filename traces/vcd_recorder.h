// SPDX-License-Identifier: BSD-3-Clause
// VcdRecorder: a change-driven VCD writer. Modules report value changes of their observable state
// (busy flags, opcodes, queue depths) as they happen; nothing is sampled, so tracing costs only
// what changes. An optional time window keeps long runs' traces small.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace ptosim::traces {

class VcdRecorder {
 public:
  /// Signals are declared before the first change; `scope` is a dotted path ("top.sfu").
  int declare(const std::string& scope, const std::string& name, unsigned width);
  /// Bits a signal needs to show every value up to `max_value`.
  static unsigned width_for(std::uint64_t max_value) {
    unsigned w = 1;
    while (w < 64 && (max_value >> w) != 0) ++w;
    return w;
  }

  /// Opens the output and writes the header; changes before `window_begin_ps` are folded into the
  /// initial values, changes after `window_end_ps` are dropped.
  bool open(const std::string& path, const std::string& timescale_comment, std::uint64_t window_begin_ps,
            std::uint64_t window_end_ps);
  void change(int id, std::uint64_t value, std::uint64_t time_ps);
  void close(std::uint64_t end_time_ps);

  struct Signal {
    std::string scope;
    std::string name;
    unsigned width;
    std::string code;
    std::uint64_t value = 0;
  };
  const std::vector<Signal>& signals() const { return m_signals; }

 private:
  /// Where the next line goes in the buffer (flushed first if a line might not fit).
  char* room();
  void write_value(const Signal& s);
  void write_time(std::uint64_t time_ps);
  void write_text(const char* text);  ///< a line shorter than kLongestLine
  void flush();
  void start_body();

  // The body is formatted straight into a buffer and written in large blocks: a busy trace changes
  // a signal every few cycles, and stream formatting (or a string's checks per character) per
  // change would dominate the run. The longest line: "b", 64 bits, " ", a code of at most 10
  // characters (base 94), "\n".
  static constexpr std::size_t kLongestLine = 80;
  std::vector<char> m_buf = std::vector<char>(std::size_t{1} << 16);
  std::size_t m_used = 0;

  std::vector<Signal> m_signals;
  std::ofstream m_out;
  std::uint64_t m_begin = 0;
  std::uint64_t m_end = ~std::uint64_t{0};
  std::uint64_t m_last_time = 0;
  bool m_body_started = false;
};

/// A value a module owns and reports to a recorder when it changes.
class TracedValue {
 public:
  void attach(VcdRecorder* rec, int id) { m_rec = rec; m_id = id; }
  /// Sets the value; a change is recorded at now_ps(), which is asked only then (reading the
  /// simulation time is not free, and most sets change nothing or are not traced).
  void set(std::uint64_t v, std::uint64_t (*now_ps)()) {
    if (v == m_value) return;
    m_value = v;
    if (m_rec) m_rec->change(m_id, v, now_ps());
  }
  std::uint64_t get() const { return m_value; }

 private:
  VcdRecorder* m_rec = nullptr;
  int m_id = -1;
  std::uint64_t m_value = 0;
};

}  // namespace ptosim::traces
