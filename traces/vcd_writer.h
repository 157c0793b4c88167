// SPDX-License-Identifier: BSD-3-Clause
// VcdWriter: turns the value changes modules report, in the order they made them, into a
// change-driven VCD body. Nothing is sampled by a clock, so tracing costs only what changes. Changes
// known ahead (a loosely-timed engine's end, a memory's port activity, booked ahead of the caller's
// time) are scheduled and written when time reaches them. An optional time window keeps long runs'
// traces small. VcdRecorder, what modules report to, calls it in line or from a thread of its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace ptosim::traces {

class VcdWriter {
 public:
  /// A signal's value before its first change: zero, or unknown (shown as x), for a value that
  /// means nothing until it is first set, such as the id of the bundle an engine last ran.
  enum class Start { Zero, Unknown };
  /// A signal's value while it is unknown (see start_value); an unknown signal is narrower than 64
  /// bits, so no value it takes is this one.
  static constexpr std::uint64_t kUnknown = ~std::uint64_t{0};
  /// Signals are declared before the first change; `scope` is a dotted path ("top.sfu").
  /// std::invalid_argument for an unknown start at 64 bits.
  int declare(const std::string& scope, const std::string& name, unsigned width, Start start = Start::Zero);
  /// Declares an empty group of signals that counts are added to together (see add_at), such as
  /// the instances of a memory that book alike while they mirror. A `mirror` group's signals take
  /// the same values for as long as nothing but the group changes them: while that holds, only its
  /// first signal's lines are written, and if it holds to the end, the header names the others by
  /// the first's code (VCD's way of saying that several variables are one signal). A change of a
  /// member by any other way (a change, another group) parts them: the lines written so far are
  /// copied for the others (the trace is then what it would have been without the mirror), and they
  /// are written separately from there on. Parting rewrites the output once, through a file created
  /// beside it (FILE.parting, as long as the trace so far). Members must be declared one after
  /// another, of one width, in no other mirror group, alike when the output opens (nothing changed
  /// one of them before), and the output a regular file (a pipe cannot be read back), or the group
  /// is a plain one.
  int declare_group(bool mirror = false);
  /// std::invalid_argument for a signal of unknown start: counts start at zero.
  void join(int group, int signal);
  /// The value signal `id` has before its first change: 0, or kUnknown.
  std::uint64_t start_value(int id) const { return m_signals.at(static_cast<std::size_t>(id)).start; }
  /// Bits a signal needs to show every value up to `max_value`.
  static unsigned width_for(std::uint64_t max_value) {
    unsigned w = 1;
    while (w < 64 && (max_value >> w) != 0) ++w;
    return w;
  }

  /// Opens the output and writes the header; changes up to and at `window_begin_ps` are folded into
  /// the initial values (one value per signal at the window's start), changes after
  /// `window_end_ps` are dropped.
  bool open(const std::string& path, const std::string& timescale_comment, std::uint64_t window_begin_ps,
            std::uint64_t window_end_ps);
  /// Where the time window opens (0 without one).
  std::uint64_t window_begin_ps() const { return m_begin; }
  /// Signal `id` takes `value` at `time_ps`, which is never earlier than a time recorded before.
  /// The changes of one time are written together once time moves on: a signal that changes
  /// several times at one time shows its last value, and nothing if that is the value it had.
  void change(int id, std::uint64_t value, std::uint64_t time_ps) {
    if (time_ps != m_now) move_to(time_ps);
    stage(id, value);
  }
  /// Signal `id` will take `value` at `time_ps`, from the current time on, known ahead (a loosely
  /// timed engine's end): a time ahead is recorded before any change made at that time, which
  /// overrides it; the current time is a change made now.
  void schedule(int id, std::uint64_t value, std::uint64_t time_ps) {
    if (time_ps <= m_now)
      change(id, value, m_now);  // nothing known ahead after all
    else
      schedule_ahead(Scheduled{time_ps, id, value, false});
  }
  /// Adds `delta` to each signal of `group` at `time_ps`, from the current time on: counts of
  /// things known ahead, such as the bookings holding a memory's ports (+1 at a booking's start,
  /// -1 at its end). Additions commute, so a count is exact at every time whatever the order in
  /// which it was booked.
  void add_at(int group, std::int64_t delta, std::uint64_t time_ps) {
    if (time_ps <= m_now) {
      add_now(group, static_cast<std::uint64_t>(delta));
    } else {
      schedule_ahead(Scheduled{time_ps, group, static_cast<std::uint64_t>(delta), true});
    }
  }
  /// Records the changes scheduled up to `end_time_ps`, writes what is left and closes the output;
  /// false if any write failed (a full disk).
  bool close(std::uint64_t end_time_ps);

  /// A declared signal, as the VCD header names it.
  struct Signal {
    std::string scope;
    std::string name;
    unsigned width = 1;
    std::string code;
  };
  const std::vector<Signal>& signals() const { return m_declared; }

 private:
  /// Entries in time order, taken from the front. Requests come nearly in time order (bookings
  /// and ends close to the latest), so an insertion scans from the back: a heap would sift on
  /// every insertion and removal.
  template <typename T>
  class TimeOrdered {
   public:
    bool empty() const { return m_head == m_items.size(); }
    const T& front() const { return m_items[m_head]; }
    void pop_front() {
      if (++m_head == m_items.size()) clear();
    }
    void clear() {
      m_items.clear();
      m_head = 0;
    }
    /// What `absorb(queued)` says of an item of the same time: it took the new one in, or look at
    /// the one before, or stop looking.
    enum class Merge { Taken, Next, Stop };
    /// Inserts `item` after the items of its time, unless `absorb` takes it into one of them
    /// (asked from the last backwards).
    template <typename Absorb>
    void insert(const T& item, Absorb absorb) {
      if (m_head > 256 && 2 * m_head > m_items.size()) {  // a queue that never empties
        m_items.erase(m_items.begin(), m_items.begin() + static_cast<std::ptrdiff_t>(m_head));
        m_head = 0;
      }
      auto at = m_items.end();
      const auto first = m_items.begin() + static_cast<std::ptrdiff_t>(m_head);
      while (at != first && item.time < std::prev(at)->time) --at;
      for (auto same = at; same != first && std::prev(same)->time == item.time; --same) {
        const Merge merge = absorb(*std::prev(same));
        if (merge == Merge::Taken) return;
        if (merge == Merge::Stop) break;
      }
      if (at == m_items.end())
        m_items.push_back(item);
      else
        m_items.insert(at, item);
    }

   private:
    std::vector<T> m_items;
    std::size_t m_head = 0;
  };
  /// A change known ahead: signal `id` takes `value`, or, with `add`, each signal of group `id`
  /// adds `value` (a two's-complement delta).
  struct Scheduled {
    std::uint64_t time;
    int id;
    std::uint64_t value;
    bool add;
  };
  /// A signal's values and how its lines are written.
  struct State {
    std::uint64_t value = 0;  ///< the latest value recorded
    std::uint64_t shown = 0;  ///< the value as of the last time written (or folded before the window)
    std::uint64_t start = 0;  ///< the value before the first change (0, or kUnknown)
    bool staged = false;      ///< changed at the time not yet written
    bool vector = false;      ///< wider than a bit: "b" before the value, " " after it
    int mirror = -1;          ///< the mirror (index of m_mirrors) it is one with, if any
    std::uint8_t tail_len = 0;
    char tail[12] = {};  ///< what follows the value on its line: (" " for vectors) the code, "\n"
    /// Signals of up to 8 bits: every value's whole line, formatted once.
    struct Line {
      char text[31];
      std::uint8_t len;
    };
    std::vector<Line> lines;
  };
  void stage(int id, std::uint64_t value) {
    State& s = m_signals[static_cast<std::size_t>(id)];
    if (s.mirror >= 0) [[unlikely]] part(s.mirror);
    s.value = value;
    mark_staged(s, id, m_staged.data(), m_staged_count);
  }
  /// Stages `delta` (two's complement) added to each signal of `group`.
  void add_now(int group, std::uint64_t delta) {
    if (m_group_parts[static_cast<std::size_t>(group)]) [[unlikely]] part_members(group);
    // Locals: a value's store could alias the members (both std::uint64_t), which the compiler
    // would otherwise reload for each signal.
    State* const signals = m_signals.data();
    int* const staged = m_staged.data();
    std::size_t count = m_staged_count;
    for (const int id : m_groups[static_cast<std::size_t>(group)]) {
      State& s = signals[id];
      s.value += delta;
      mark_staged(s, id, staged, count);
    }
    m_staged_count = count;
  }
  /// Lists `s` (signal `id`) among the `count` staged in `staged`, once.
  static void mark_staged(State& s, int id, int* staged, std::size_t& count) {
    if (!s.staged) {
      s.staged = true;
      staged[count++] = id;  // each signal at most once: sized at declaration
    }
  }
  /// Writes the changes staged at the current time, records every earlier time's scheduled changes
  /// at their own times, and makes `time_ps` current with its scheduled changes.
  void move_to(std::uint64_t time_ps);
  /// Records the scheduled changes of the times up to `last_ps`; the last such time becomes current.
  void take_due_through(std::uint64_t last_ps);
  void schedule_ahead(const Scheduled& change);
  /// Stages the changes scheduled for the current time.
  void take_scheduled_now();
  /// Writes (or folds, or drops, by the window) the changes staged at the current time.
  void write_staged();
  /// Where the next `lines` lines go in the buffer (flushed first if they might not fit).
  char* room(std::size_t lines);
  /// Formats a value's or a time's line at `p`; returns its end.
  static char* put_value(char* p, const State& s, std::uint64_t value);
  char* put_time(char* p, std::uint64_t time_ps);
  /// The buffer is written up to `end` (returned by the put functions).
  void used_to(const char* end) { m_used = static_cast<std::size_t>(end - m_buf.data()); }
  /// Formats `s`'s line for `value` at `p`; returns its end.
  static char* format_line(char* p, const State& s, std::uint64_t value);
  /// Mirror groups (declare_group): while a group's members are one, its list holds the first
  /// alone, the members' `mirror` says which one they belong to, and every other group holding a
  /// member is marked in m_group_parts (a change through it parts them).
  struct Mirror {
    int group;
    std::vector<int> members;          ///< the first, then the others, by id
    std::vector<std::uint64_t> codes;  ///< where each other member's code lies in the header
    bool one = false;                  ///< only the first's lines are written
  };
  /// Makes the mirrors that can be one so, as the output opens (`code_at`: where each signal's code
  /// lies in the header).
  void join_mirrors(const std::vector<std::uint64_t>& code_at);
  /// Marks the groups whose change parts a mirror (m_group_parts).
  void mark_parting_groups();
  /// Parts mirror `m`: copies the first member's lines written so far for the others, gives them
  /// its state, and writes them separately from here on.
  void part(int m);
  /// Parts the mirrors whose members `group` holds.
  void part_members(int group);
  /// Rewrites the output with each line of signal `code` followed by the same value for each of
  /// `copies`; false if that failed.
  bool copy_lines(const std::string& code, const std::vector<std::string>& copies);
  /// Names each mirror still one by its first member's code in the header.
  void name_mirrors();
  void write_text(const char* text);  ///< a line shorter than kLongestLine
  void flush();
  void start_body();

  // The body is formatted straight into a buffer and written in large blocks: a busy trace changes
  // a signal every few cycles, and stream formatting (or a string's checks per character) per
  // change would dominate the run. 256 KiB writes cost the kernel a quarter less per byte than
  // 64 KiB ones here. The longest line: "b", 64 bits, " ", a code of at most 10 characters (base
  // 94), "\n".
  static constexpr std::size_t kLongestLine = 80;
  std::vector<char> m_buf = std::vector<char>(std::size_t{1} << 18);
  std::size_t m_used = 0;

  std::vector<Signal> m_declared;
  std::vector<State> m_signals;  ///< by the index of m_declared
  std::vector<int> m_staged;     ///< signals changed at m_now, in order of their first change
  std::size_t m_staged_count = 0;
  std::vector<std::vector<int>> m_groups;  ///< their signals
  std::vector<char> m_group_parts;  ///< by group: changing it parts a mirror (see Mirror)
  std::vector<Mirror> m_mirrors;
  std::string m_path;
  bool m_failed = false;  ///< parting a mirror could not rewrite the output
  TimeOrdered<Scheduled> m_scheduled;  ///< changes known ahead, those of one time in the order made
  std::ofstream m_out;
  bool m_open = false;  ///< m_out is open (asked once per time written)
  std::uint64_t m_begin = 0;
  std::uint64_t m_end = ~std::uint64_t{0};
  std::uint64_t m_now = 0;        ///< the time of the staged changes
  std::uint64_t m_last_time = 0;  ///< the last time written
  // The digits of a time above its last eight, as last written (see put_time).
  std::uint64_t m_time_high = 0;
  char m_time_high_text[8] = {};
  std::uint8_t m_time_high_len = 0;
  bool m_body_started = false;
};

}  // namespace ptosim::traces
