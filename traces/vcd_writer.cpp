// SPDX-License-Identifier: BSD-3-Clause
#include "traces/vcd_writer.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace ptosim::traces {

namespace {

// VCD identifier codes: printable characters 33..126, base 94.
std::string code_of(std::size_t index) {
  std::string code;
  do {
    code.push_back(static_cast<char>(33 + index % 94));
    index /= 94;
  } while (index != 0);
  return code;
}

std::vector<std::string> split_scope(const std::string& scope) {
  std::vector<std::string> parts;
  std::string part;
  for (char c : scope) {
    if (c == '.') {
      if (!part.empty()) parts.push_back(part);
      part.clear();
    } else {
      part.push_back(c);
    }
  }
  if (!part.empty()) parts.push_back(part);
  return parts;
}

// Every byte in binary: all eight digits, and without leading zeros (for a value's first byte).
struct ByteBits {
  char full[256][8];
  char lead[256][8];
  unsigned char lead_len[256];
  constexpr ByteBits() : full(), lead(), lead_len() {
    for (int v = 0; v < 256; ++v) {
      int len = 1;
      while (len < 8 && (v >> len) != 0) ++len;
      lead_len[v] = static_cast<unsigned char>(len);
      for (int b = 0; b < 8; ++b) {
        full[v][b] = static_cast<char>('0' + ((v >> (7 - b)) & 1));
        if (b < len) lead[v][b] = static_cast<char>('0' + ((v >> (len - 1 - b)) & 1));
      }
    }
  }
};
constexpr ByteBits kByteBits;

/// The eight decimal digits of `v` (below 10^8) as byte values 0..9, the most significant first
/// in memory (little-endian), computed in parallel lanes: 4-digit halves, then 2-digit quarters,
/// then digits, each split by a multiply-and-shift division exact in its range.
[[gnu::always_inline]] inline std::uint64_t eight_digits(std::uint32_t v) {
  const std::uint64_t halves = v / 10000 | std::uint64_t{v % 10000} << 32;
  const std::uint64_t hundreds = (halves * 10486 >> 20) & 0x0000007F0000007FULL;  // n / 100, n < 10^4
  const std::uint64_t quarters = hundreds | (halves - hundreds * 100) << 16;
  const std::uint64_t tens = (quarters * 103 >> 10) & 0x000F000F000F000FULL;  // n / 10, n < 100
  return tens | (quarters - tens * 10) << 8;
}

constexpr std::uint64_t kAsciiZeros = 0x3030303030303030ULL;

/// Writes `v` (below 10^8) with exactly eight digits.
[[gnu::always_inline]] inline char* write_eight_digits(char* p, std::uint32_t v) {
  const std::uint64_t text = eight_digits(v) | kAsciiZeros;
  std::memcpy(p, &text, 8);
  return p + 8;
}

/// Writes `v` (below 10^8) without leading zeros; the eight bytes at `p` must be writable.
[[gnu::always_inline]] inline char* write_decimal(char* p, std::uint32_t v) {
  const std::uint64_t digits = eight_digits(v);
  const int zeros = digits == 0 ? 7 : __builtin_ctzll(digits) / 8;  // leading zero digits
  const std::uint64_t text = (digits | kAsciiZeros) >> (8 * zeros);
  std::memcpy(p, &text, 8);
  return p + 8 - zeros;
}

}  // namespace

int VcdWriter::declare(const std::string& scope, const std::string& name, unsigned width, Start start) {
  if (start == Start::Unknown && width >= 64)
    throw std::invalid_argument("VcdWriter: a signal of unknown start is narrower than 64 bits (" + scope + "." + name + ")");
  Signal d{scope, name, width, code_of(m_declared.size())};
  State s;
  s.vector = width > 1;
  if (start == Start::Unknown) s.value = s.shown = s.start = kUnknown;
  // The line's tail is kept ready: only the value part is formatted per change.
  const std::string tail = (s.vector ? " " : "") + d.code + "\n";
  s.tail_len = static_cast<std::uint8_t>(tail.size());
  std::copy(tail.begin(), tail.end(), s.tail);
  if (width <= 8) {
    s.lines.resize(std::size_t{1} << width);
    for (std::size_t v = 0; v < s.lines.size(); ++v)
      s.lines[v].len = static_cast<std::uint8_t>(format_line(s.lines[v].text, s, v) - s.lines[v].text);
  }
  m_declared.push_back(std::move(d));
  m_signals.push_back(std::move(s));
  m_staged.push_back(-1);
  return static_cast<int>(m_signals.size() - 1);
}

int VcdWriter::declare_group(bool mirror) {
  m_groups.emplace_back();
  m_group_parts.push_back(0);
  const int group = static_cast<int>(m_groups.size() - 1);
  if (mirror) m_mirrors.push_back(Mirror{group, {}, {}});
  return group;
}

void VcdWriter::join(int group, int signal) {
  if (m_signals.at(static_cast<std::size_t>(signal)).start == kUnknown)
    throw std::invalid_argument("VcdWriter: a signal of unknown start joins no group (" + m_declared[static_cast<std::size_t>(signal)].name + ")");
  m_groups.at(static_cast<std::size_t>(group)).push_back(signal);
}

bool VcdWriter::open(const std::string& path, const std::string& timescale_comment, std::uint64_t window_begin_ps,
                       std::uint64_t window_end_ps) {
  m_out.open(path);
  if (!m_out) return false;
  m_open = true;
  m_path = path;
  std::vector<std::uint64_t> code_at(m_declared.size());  // where each signal's code lies
  m_begin = window_begin_ps;
  m_end = window_end_ps;
  m_out << "$comment " << timescale_comment << " $end\n$timescale 1ps $end\n";
  // Scopes in declaration order, nested by their dotted paths.
  std::vector<std::string> open_scopes;
  for (const Signal& s : m_declared) {
    const auto parts = split_scope(s.scope);
    std::size_t common = 0;
    while (common < open_scopes.size() && common < parts.size() && open_scopes[common] == parts[common]) ++common;
    while (open_scopes.size() > common) {
      m_out << "$upscope $end\n";
      open_scopes.pop_back();
    }
    for (std::size_t i = common; i < parts.size(); ++i) {
      m_out << "$scope module " << parts[i] << " $end\n";
      open_scopes.push_back(parts[i]);
    }
    m_out << "$var wire " << s.width << ' ';
    code_at[static_cast<std::size_t>(&s - m_declared.data())] = static_cast<std::uint64_t>(m_out.tellp());
    m_out << s.code << ' ' << s.name;
    if (s.width > 1) m_out << " [" << s.width - 1 << ":0]";
    m_out << " $end\n";
  }
  while (!open_scopes.empty()) {
    m_out << "$upscope $end\n";
    open_scopes.pop_back();
  }
  m_out << "$enddefinitions $end\n";
  join_mirrors(code_at);
  return true;
}

void VcdWriter::join_mirrors(const std::vector<std::uint64_t>& code_at) {
  std::error_code error;
  const bool regular = std::filesystem::is_regular_file(m_path, error);
  for (std::size_t m = 0; m < m_mirrors.size(); ++m) {
    Mirror& mirror = m_mirrors[m];
    mirror.members = m_groups[static_cast<std::size_t>(mirror.group)];
    const std::vector<int>& members = mirror.members;
    if (!regular || members.size() < 2) continue;
    const State& first = m_signals[static_cast<std::size_t>(members[0])];
    bool one = true;
    for (std::size_t i = 0; one && i < members.size(); ++i) {
      const auto id = static_cast<std::size_t>(members[i]);
      const State& s = m_signals[id];
      // Declared one after another, of one width, in one mirror only, and alike so far (a change
      // may be recorded before the output opens).
      one = members[i] == members[0] + static_cast<int>(i) && m_declared[id].width == m_declared[static_cast<std::size_t>(members[0])].width &&
            s.mirror < 0 && !s.staged && s.value == first.value && s.shown == first.shown;
    }
    if (!one) continue;
    mirror.one = true;
    for (std::size_t i = 1; i < members.size(); ++i) mirror.codes.push_back(code_at[static_cast<std::size_t>(members[i])]);
    for (const int id : members) m_signals[static_cast<std::size_t>(id)].mirror = static_cast<int>(m);
    m_groups[static_cast<std::size_t>(mirror.group)] = {members[0]};
  }
  mark_parting_groups();
}

void VcdWriter::mark_parting_groups() {
  for (std::size_t g = 0; g < m_groups.size(); ++g) {
    const bool own = std::any_of(m_mirrors.begin(), m_mirrors.end(), [&](const Mirror& m) { return m.one && m.group == static_cast<int>(g); });
    m_group_parts[g] = !own && std::any_of(m_groups[g].begin(), m_groups[g].end(),
                                           [&](int id) { return m_signals[static_cast<std::size_t>(id)].mirror >= 0; });
  }
}

void VcdWriter::part(int m) {
  Mirror& mirror = m_mirrors[static_cast<std::size_t>(m)];
  mirror.one = false;
  const int first_id = mirror.members[0];
  const State& first = m_signals[static_cast<std::size_t>(first_id)];
  if (m_open && m_body_started) {  // after close, the file is as it was closed
    std::vector<std::string> copies;
    for (std::size_t i = 1; i < mirror.members.size(); ++i) copies.push_back(m_declared[static_cast<std::size_t>(mirror.members[i])].code);
    if (!copy_lines(m_declared[static_cast<std::size_t>(first_id)].code, copies)) m_failed = true;
  }
  // The others take the first's state; staged at this time, they follow it, as the group stages them.
  std::size_t at = 0;
  if (first.staged)
    at = static_cast<std::size_t>(std::find(m_staged.begin(), m_staged.begin() + static_cast<std::ptrdiff_t>(m_staged_count), first_id) -
                                  m_staged.begin()) + 1;
  for (std::size_t i = 1; i < mirror.members.size(); ++i) {
    State& s = m_signals[static_cast<std::size_t>(mirror.members[i])];
    s.value = first.value;
    s.shown = first.shown;
    if (first.staged) {
      s.staged = true;
      m_staged.insert(m_staged.begin() + static_cast<std::ptrdiff_t>(at++), mirror.members[i]);
      m_staged.pop_back();  // sized for every signal once: the last slot is free
      ++m_staged_count;
    }
  }
  for (const int id : mirror.members) m_signals[static_cast<std::size_t>(id)].mirror = -1;
  m_groups[static_cast<std::size_t>(mirror.group)] = mirror.members;
  mark_parting_groups();
}

void VcdWriter::part_members(int group) {
  for (const int id : m_groups[static_cast<std::size_t>(group)])
    if (const int m = m_signals[static_cast<std::size_t>(id)].mirror; m >= 0) part(m);
}

bool VcdWriter::copy_lines(const std::string& code, const std::vector<std::string>& copies) {
  flush();
  if (!m_out) return false;  // a line is missing already
  m_out.close();
  if (!m_out) return false;
  // The lines go into a file created beside the output (never one that exists, which could be a
  // link), then back into the output itself rather than renamed over it: a link to the output, or
  // the file a symbolic link names, stays the trace.
  std::string temp;
  std::FILE* copy = nullptr;
  for (int n = 0; !copy && n < 1000; ++n) {
    temp = m_path + ".parting" + (n == 0 ? "" : std::to_string(n));
    copy = std::fopen(temp.c_str(), "w+bx");
    if (!copy && errno != EEXIST) break;
  }
  if (!copy) return false;
  const auto put = [&](const char* text, std::size_t size) { return std::fwrite(text, 1, size, copy) == size; };
  bool copied = true;
  {
    std::ifstream in(m_path, std::ios::binary);
    bool body = false;
    for (std::string line; copied && std::getline(in, line);) {
      line += '\n';
      copied = put(line.data(), line.size());
      if (!body) {
        body = line == "$enddefinitions $end\n";
        continue;
      }
      if (line[0] == '\n' || line[0] == '#' || line[0] == '$') continue;
      // A vector's value ends at its blank, a bit's after its one character.
      const std::size_t value = line[0] == 'b' ? line.rfind(' ') + 1 : 1;
      if (value >= line.size() || line.compare(value, line.size() - 1 - value, code) != 0) continue;
      for (const std::string& c : copies) copied = copied && put(line.data(), value) && put(c.data(), c.size()) && put("\n", 1);
    }
    copied = copied && in.eof() && std::fflush(copy) == 0;
  }
  if (copied) {
    std::rewind(copy);
    m_out.open(m_path, std::ios::binary | std::ios::trunc);  // written on at its end from here
    for (std::size_t n; m_out && (n = std::fread(m_buf.data(), 1, m_buf.size(), copy)) > 0;)
      m_out.write(m_buf.data(), static_cast<std::streamsize>(n));
    copied = !std::ferror(copy) && m_out.flush();
  }
  std::fclose(copy);
  std::remove(temp.c_str());
  return copied;
}

void VcdWriter::name_mirrors() {
  for (const Mirror& mirror : m_mirrors) {
    if (!mirror.one) continue;
    const std::string& first = m_declared[static_cast<std::size_t>(mirror.members[0])].code;
    for (std::size_t i = 0; i < mirror.codes.size(); ++i) {
      // A later signal's code is no shorter: blanks fill the rest, as VCD allows between words.
      std::string code = first;
      code.resize(m_declared[static_cast<std::size_t>(mirror.members[i + 1])].code.size(), ' ');
      m_out.seekp(static_cast<std::streamoff>(mirror.codes[i]));
      m_out.write(code.data(), static_cast<std::streamsize>(code.size()));
    }
  }
}

inline char* VcdWriter::room(std::size_t lines) {
  const std::size_t need = lines * kLongestLine;
  if (m_used + need > m_buf.size()) [[unlikely]] {
    flush();
    if (need > m_buf.size()) m_buf.resize(need);
  }
  return m_buf.data() + m_used;
}

char* VcdWriter::format_line(char* p, const State& s, std::uint64_t value) {
  if (!s.vector) {
    *p++ = static_cast<char>('0' + (value & 1));
  } else {
    // Binary without leading zeros, a byte at a time.
    *p++ = 'b';
    int shift = (63 - __builtin_clzll(value | 1)) / 8 * 8;
    const auto first = static_cast<unsigned>(value >> shift);
    std::memcpy(p, kByteBits.lead[first], 8);
    p += kByteBits.lead_len[first];
    for (shift -= 8; shift >= 0; shift -= 8, p += 8) std::memcpy(p, kByteBits.full[(value >> shift) & 0xff], 8);
  }
  std::memcpy(p, s.tail, s.tail_len);
  return p + s.tail_len;
}

char* VcdWriter::put_value(char* p, const State& s, std::uint64_t value) {
  if (value >= s.lines.size()) return format_line(p, s, value);
  const State::Line& line = s.lines[value];
  std::memcpy(p, line.text, sizeof line.text);  // whole records: the room is for whole lines
  return p + line.len;
}

char* VcdWriter::put_time(char* p, std::uint64_t time_ps) {
  *p++ = '#';
  // Eight digits at a time in 32-bit arithmetic (a 64-bit conversion costs several times more,
  // and a busy trace writes a time every few changes).
  constexpr std::uint32_t kEight = 100'000'000;
  if (time_ps < kEight) {
    p = write_decimal(p, static_cast<std::uint32_t>(time_ps));
  } else if (const std::uint64_t high = time_ps / kEight; high < kEight) {
    // Times rise slowly: the leading digits are those of the last time written, mostly.
    if (high != m_time_high) {
      m_time_high = high;
      m_time_high_len = static_cast<std::uint8_t>(write_decimal(m_time_high_text, static_cast<std::uint32_t>(high)) - m_time_high_text);
    }
    std::memcpy(p, m_time_high_text, sizeof m_time_high_text);
    p = write_eight_digits(p + m_time_high_len, static_cast<std::uint32_t>(time_ps % kEight));
  } else {
    p = std::to_chars(p, p + kLongestLine - 2, time_ps).ptr;
  }
  *p++ = '\n';
  return p;
}

void VcdWriter::write_text(const char* text) {
  used_to(std::copy(text, text + std::strlen(text), room(1)));
}

void VcdWriter::flush() {
  m_out.write(m_buf.data(), static_cast<std::streamsize>(m_used));
  m_used = 0;
}

void VcdWriter::start_body() {
  used_to(put_time(room(1), m_begin));
  m_last_time = m_begin;
  write_text("$dumpvars\n");
  for (const State& s : m_signals) {
    // A mirror's other members are its first while they are one.
    if (s.mirror >= 0 && m_mirrors[static_cast<std::size_t>(s.mirror)].members[0] != static_cast<int>(&s - m_signals.data())) continue;
    char* p = room(1);
    if (s.start == kUnknown && s.shown == kUnknown) {  // not set yet
      p = s.vector ? std::copy_n("bx", 2, p) : std::copy_n("x", 1, p);
      used_to(std::copy_n(s.tail, s.tail_len, p));
    } else {
      used_to(put_value(p, s, s.shown));
    }
  }
  write_text("$end\n");
  m_body_started = true;
}

void VcdWriter::write_staged() {
  // The body opens with the values as of the window's start: a change before it, or at it, only
  // sets the initial value (so a signal shows one value at that instant). An instant after the
  // start opens the body first (even past the window's end: the values then hold all through it);
  // a change after the window is dropped.
  if (m_open && !m_body_started && m_now > m_begin) start_body();
  const std::size_t count = m_staged_count;
  m_staged_count = 0;
  // Locals: the lines are written through a char pointer, which the compiler must assume may
  // change any member.
  const int* const ids = m_staged.data();
  State* const signals = m_signals.data();
  if (count != 0 && m_body_started && m_now <= m_end) {
    // Each time is written once, by the one call for its changes: its line goes first and is
    // taken back if none of them changed a value.
    char* const start = room(count + 1);
    char* const lines = put_time(start, m_now);
    char* p = lines;
    for (std::size_t i = 0; i < count; ++i) {
      State& s = signals[ids[i]];
      s.staged = false;
      const std::uint64_t value = s.value;
      if (value == s.shown) continue;
      s.shown = value;
      p = put_value(p, s, value);
    }
    if (p != lines) {
      used_to(p);
      m_last_time = m_now;
    }
  } else {
    for (std::size_t i = 0; i < count; ++i) {
      State& s = signals[ids[i]];
      s.staged = false;
      s.shown = s.value;
    }
  }
  if (m_open && !m_body_started && m_now == m_begin) start_body();
}

void VcdWriter::schedule_ahead(const Scheduled& change) {
  if (change.time > m_end) return;  // never written
  // Additions to the same group at one time are one (a booking that ends where the next starts
  // adds nothing there), but never across a value set: every change keeps its order in its time.
  using Merge = TimeOrdered<Scheduled>::Merge;
  if (!change.add) {
    m_scheduled.insert(change, [](const Scheduled&) { return Merge::Stop; });
    return;
  }
  m_scheduled.insert(change, [&](Scheduled& queued) {
    if (!queued.add) return Merge::Stop;
    if (queued.id != change.id) return Merge::Next;
    queued.value += change.value;
    return Merge::Taken;
  });
}

inline void VcdWriter::take_scheduled_now() {
  while (!m_scheduled.empty() && m_scheduled.front().time == m_now) {
    const Scheduled& c = m_scheduled.front();
    if (!c.add)
      stage(c.id, c.value);
    else if (c.value != 0)  // else additions that cancel
      add_now(c.id, c.value);
    m_scheduled.pop_front();
  }
}

void VcdWriter::take_due_through(std::uint64_t last_ps) {
  while (!m_scheduled.empty() && m_scheduled.front().time <= last_ps) {
    write_staged();
    m_now = m_scheduled.front().time;
    take_scheduled_now();
  }
}

void VcdWriter::move_to(std::uint64_t time_ps) {
  if (time_ps > 0) take_due_through(time_ps - 1);
  write_staged();
  m_now = time_ps;
  take_scheduled_now();
}

bool VcdWriter::close(std::uint64_t end_time_ps) {
  take_due_through(end_time_ps);
  write_staged();
  m_scheduled.clear();
  if (!m_open) return true;
  if (!m_body_started) start_body();
  const std::uint64_t end = end_time_ps < m_end ? end_time_ps : m_end;
  if (end > m_last_time) used_to(put_time(room(1), end));
  flush();
  name_mirrors();
  m_out.close();
  m_open = false;
  return m_out && !m_failed;  // a failed write or close leaves the stream failed; m_failed: a parting
}

}  // namespace ptosim::traces
