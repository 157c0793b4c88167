// SPDX-License-Identifier: BSD-3-Clause
// VcdRecorder: what modules report the changes of their observable state to (busy flags, opcodes,
// queue depths, port activity). A VcdWriter orders, folds, formats and writes them; on a busy trace
// that work costs about as much as the simulation it watches. While the output is open a report is
// logged as made (24 bytes), and the writer takes the reports a block at a time: in line when a
// block is full (writing thousands of reports together keeps the writer's code and data in cache,
// which interleaving it with the simulation's does not), or, asked, on a thread of its own. The
// writer sees the reports in the order made either way, so the VCD is the same byte for byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "traces/vcd_writer.h"

namespace ptosim::traces {

class VcdRecorder {
 public:
  using Signal = VcdWriter::Signal;
  using Start = VcdWriter::Start;
  /// Where the writer works: in line (on the simulation's thread, a block at a time), or on a
  /// thread of its own, which spares the simulation the writer's work where two CPUs do not slow
  /// each other (on the 2-CPU virtual machines measured, they did: docs/performance.md).
  enum class Threading { InLine, OwnThread };

  explicit VcdRecorder(Threading threading = Threading::InLine);
  /// Without close() (a run that failed), the reports not yet written are dropped and the output
  /// is left as far as it was written (a mirror group still one with its first member's lines only,
  /// see VcdWriter::declare_group).
  ~VcdRecorder();
  VcdRecorder(const VcdRecorder&) = delete;
  VcdRecorder& operator=(const VcdRecorder&) = delete;

  /// Declarations come before open() (std::logic_error after); see VcdWriter.
  int declare(const std::string& scope, const std::string& name, unsigned width, Start start = Start::Zero) {
    before_open();
    return m_writer.declare(scope, name, width, start);
  }
  int declare_group(bool mirror = false) {
    before_open();
    return m_writer.declare_group(mirror);
  }
  void join(int group, int signal) {
    before_open();
    m_writer.join(group, signal);
  }
  static unsigned width_for(std::uint64_t max_value) { return VcdWriter::width_for(max_value); }
  std::uint64_t start_value(int id) const { return m_writer.start_value(id); }  // set at declaration
  const std::vector<Signal>& signals() const { return m_writer.signals(); }

  /// Opens the output, writes the header and starts the writer's thread if asked (see Threading; in
  /// line if the thread cannot be started); see VcdWriter::open. Once only (std::logic_error after).
  bool open(const std::string& path, const std::string& timescale_comment, std::uint64_t window_begin_ps,
            std::uint64_t window_end_ps);
  /// Whether open() was called (declarations are over).
  bool opened() const { return m_opened; }
  /// Where the trace's time window opens (0 without one): a viewer starts there.
  std::uint64_t window_begin_ps() const { return m_writer.window_begin_ps(); }  // set once, before any thread
  /// The reports, as VcdWriter's functions of the same names take them.
  void change(int id, std::uint64_t value, std::uint64_t time_ps) {
    if (m_next)
      log({time_ps, value, id, Kind::Change});
    else
      m_writer.change(id, value, time_ps);
  }
  void schedule(int id, std::uint64_t value, std::uint64_t time_ps) {
    if (m_next)
      log({time_ps, value, id, Kind::Schedule});
    else
      m_writer.schedule(id, value, time_ps);
  }
  void add_at(int group, std::int64_t delta, std::uint64_t time_ps) {
    if (m_next)
      log({time_ps, static_cast<std::uint64_t>(delta), group, Kind::Add});
    else
      m_writer.add_at(group, delta, time_ps);
  }
  /// Waits for the writer to take every report, then closes the output as VcdWriter::close does;
  /// false if any write failed. An exception the writer's thread met (out of memory) is thrown
  /// here; in line one leaves the report that filled the block being written (or this call, for
  /// the last block).
  bool close(std::uint64_t end_time_ps);

 private:
  enum class Kind : std::uint8_t { Change, Schedule, Add };
  struct Report {
    std::uint64_t time;
    std::uint64_t value;
    int id;
    Kind kind;
  };
  // A block for the writer's thread: large enough that handing it on (a lock, a wake-up: a costly
  // one on a virtual machine's idle CPU) costs little per report, small enough (384 KiB) to stay
  // in cache until the writer takes it.
  static constexpr std::size_t kThreadBlockReports = 16384;
  // A block written in line: long runs go as fast from this size up, and a short run pays for the
  // first touches of a larger one.
  static constexpr std::size_t kInLineBlockReports = 4096;
  struct Block {
    std::unique_ptr<Report[]> reports;
    std::size_t count = 0;
    static Block make(std::size_t reports) { return {std::unique_ptr<Report[]>(new Report[reports]), 0}; }  // left unset
  };
  class WriterThread;

  void before_open() const;
  void log(const Report& r) {
    *m_next = r;
    if (++m_next == m_end) pass_on();
  }
  /// Hands the reports logged to the writer (its thread's, or in line) and starts a new block.
  void pass_on();
  /// Writes the reports logged with the writer, on this thread.
  void write_block_in_line();
  /// Hands the reports logged to the writer's thread (the block goes with them).
  void hand_over_block();
  void start_block();
  static void replay(const Block& block, VcdWriter& writer);

  Threading m_threading;
  bool m_opened = false;
  VcdWriter m_writer;
  Block m_block;  ///< being logged, from m_block.reports to m_next
  /// While the output is open, where the next report is logged; before it opens and after it
  /// closes, null: reports go to the writer directly.
  Report* m_next = nullptr;
  Report* m_end = nullptr;
  /// While the output is open, if the writer works on a thread; declared after m_writer, so
  /// destroyed (its thread stopped) before it.
  std::unique_ptr<WriterThread> m_thread;
};

/// A value a module owns and reports to a recorder when it changes.
class TracedValue {
 public:
  /// Reports to `rec` as signal `id`, which has its start value (see VcdWriter::Start) until set.
  void attach(VcdRecorder& rec, int id) {
    m_rec = &rec;
    m_id = id;
    m_value = rec.start_value(id);
  }
  /// Sets the value; a change is recorded at now_ps(), which is asked only then (reading the
  /// simulation time is not free, and most sets change nothing or are not traced).
  void set(std::uint64_t v, std::uint64_t (*now_ps)()) {
    if (v == m_value) return;
    m_value = v;
    if (m_rec) m_rec->change(m_id, v, now_ps());
  }
  /// Sets the value as of `time_ps`, a time ahead that nothing changes the value before (see
  /// VcdWriter::schedule).
  void set_at(std::uint64_t v, std::uint64_t time_ps) {
    if (v == m_value) return;
    m_value = v;
    if (m_rec) m_rec->schedule(m_id, v, time_ps);
  }
  std::uint64_t get() const { return m_value; }

 private:
  VcdRecorder* m_rec = nullptr;
  int m_id = -1;
  std::uint64_t m_value = 0;
};

}  // namespace ptosim::traces
