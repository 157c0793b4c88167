// SPDX-License-Identifier: BSD-3-Clause
#include "traces/vcd_recorder.h"

#include <algorithm>
#include <cstring>
#include <functional>

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

// The eight binary digits of every byte, and the two decimal digits of 0..99.
struct ByteBits {
  char text[256][8];
  constexpr ByteBits() : text() {
    for (int v = 0; v < 256; ++v)
      for (int b = 0; b < 8; ++b) text[v][b] = static_cast<char>('0' + ((v >> (7 - b)) & 1));
  }
};
constexpr ByteBits kByteBits;
constexpr char kDecimalPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

}  // namespace

int VcdRecorder::declare(const std::string& scope, const std::string& name, unsigned width) {
  Signal s{scope, name, width, code_of(m_signals.size())};
  // The line's tail is kept ready: only the value part is formatted per change.
  std::string tail = (width > 1 ? " " : "") + s.code + "\n";
  s.tail_len = static_cast<std::uint8_t>(tail.size());
  std::copy(tail.begin(), tail.end(), s.tail);
  m_signals.push_back(std::move(s));
  return static_cast<int>(m_signals.size() - 1);
}

bool VcdRecorder::open(const std::string& path, const std::string& timescale_comment, std::uint64_t window_begin_ps,
                       std::uint64_t window_end_ps) {
  m_out.open(path);
  if (!m_out) return false;
  m_open = true;
  m_begin = window_begin_ps;
  m_end = window_end_ps;
  m_out << "$comment " << timescale_comment << " $end\n$timescale 1ps $end\n";
  // Scopes in declaration order, nested by their dotted paths.
  std::vector<std::string> open_scopes;
  for (const Signal& s : m_signals) {
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
    m_out << "$var wire " << s.width << ' ' << s.code << ' ' << s.name;
    if (s.width > 1) m_out << " [" << s.width - 1 << ":0]";
    m_out << " $end\n";
  }
  while (!open_scopes.empty()) {
    m_out << "$upscope $end\n";
    open_scopes.pop_back();
  }
  m_out << "$enddefinitions $end\n";
  return true;
}

char* VcdRecorder::room() {
  if (m_used + kLongestLine > m_buf.size()) flush();
  return m_buf.data() + m_used;
}

void VcdRecorder::write_value(const Signal& s, std::uint64_t value) {
  char* p = room();
  char* const line = p;
  if (s.width == 1) {
    *p++ = static_cast<char>('0' + (value & 1));
  } else {
    // Binary without leading zeros: the bits above the last whole byte one by one, then bytes.
    *p++ = 'b';
    const int bits = value == 0 ? 1 : 64 - __builtin_clzll(value);
    int bit = bits;
    for (; bit % 8 != 0; --bit) *p++ = static_cast<char>('0' + ((value >> (bit - 1)) & 1));
    for (; bit > 0; bit -= 8, p += 8) std::memcpy(p, kByteBits.text[(value >> (bit - 8)) & 0xff], 8);
  }
  std::memcpy(p, s.tail, sizeof s.tail);  // the buffer has room for a whole line
  m_used += static_cast<std::size_t>(p + s.tail_len - line);
}

void VcdRecorder::write_time(std::uint64_t time_ps) {
  char* const line = room();
  // Digits two at a time from the right, then moved behind the '#'.
  char digits[20];
  char* first = digits + sizeof digits;
  std::uint64_t v = time_ps;
  for (; v >= 100; v /= 100) {
    first -= 2;
    std::memcpy(first, kDecimalPairs + 2 * (v % 100), 2);
  }
  if (v >= 10) {
    first -= 2;
    std::memcpy(first, kDecimalPairs + 2 * v, 2);
  } else {
    *--first = static_cast<char>('0' + v);
  }
  line[0] = '#';
  char* end = std::copy(first, digits + sizeof digits, line + 1);
  *end++ = '\n';
  m_used += static_cast<std::size_t>(end - line);
  m_last_time = time_ps;
}

void VcdRecorder::write_text(const char* text) {
  char* const line = room();
  m_used += static_cast<std::size_t>(std::copy(text, text + std::strlen(text), line) - line);
}

void VcdRecorder::flush() {
  m_out.write(m_buf.data(), static_cast<std::streamsize>(m_used));
  m_used = 0;
}

void VcdRecorder::start_body() {
  write_time(m_begin);
  write_text("$dumpvars\n");
  for (const Signal& s : m_signals) write_value(s, s.shown);
  write_text("$end\n");
  m_body_started = true;
}

void VcdRecorder::write_staged() {
  // Before the window a change only sets the initial value; after it, it is dropped.
  const bool shown = m_open && m_now >= m_begin && m_now <= m_end;
  for (const int id : m_staged) {
    Signal& s = m_signals[static_cast<std::size_t>(id)];
    s.staged = false;
    if (s.value == s.shown) continue;
    if (shown) {
      // The first change inside the window opens the body with the values from before it.
      if (!m_body_started) start_body();
      if (m_last_time != m_now) write_time(m_now);
      write_value(s, s.value);
    }
    s.shown = s.value;
  }
  m_staged.clear();
}

void VcdRecorder::schedule_ahead(int id, std::uint64_t value, std::uint64_t time_ps) {
  if (time_ps > m_end) return;  // never written
  m_scheduled.push_back(Scheduled{time_ps, m_schedule_order++, id, value});
  std::push_heap(m_scheduled.begin(), m_scheduled.end(), std::greater<>());
}

void VcdRecorder::sample_at(Probe& probe, std::uint64_t time_ps) {
  if (time_ps > m_end) return;  // never written
  // A time already written can only be sampled as of now.
  const Sample due{std::max(time_ps, m_now), &probe};
  // Back-to-back bookings ask for the end of one and the start of the next: one sample.
  if (due == m_last_asked) return;
  m_last_asked = due;
  m_samples.push_back(due);
  std::push_heap(m_samples.begin(), m_samples.end(), std::greater<>());
}

void VcdRecorder::take_scheduled_now() {
  while (!m_scheduled.empty() && m_scheduled.front().time == m_now) {
    const Scheduled c = m_scheduled.front();
    std::pop_heap(m_scheduled.begin(), m_scheduled.end(), std::greater<>());
    m_scheduled.pop_back();
    change(c.id, c.value, m_now);
  }
}

void VcdRecorder::take_due_through(std::uint64_t last_ps) {
  constexpr std::uint64_t kNever = ~std::uint64_t{0};
  for (;;) {
    const std::uint64_t scheduled = m_scheduled.empty() ? kNever : m_scheduled.front().time;
    const std::uint64_t sampled = m_samples.empty() ? kNever : m_samples.front().time;
    const std::uint64_t next = std::min(scheduled, sampled);
    if (next > last_ps || next == kNever) return;
    if (next != m_now) {
      write_staged();
      m_now = next;
    }
    // A time's scheduled changes first: its samples may read what they change.
    take_scheduled_now();
    if (sampled != next) continue;
    const Sample due = m_samples.front();
    // Bookings that start or end together ask for the same sample: it is taken once.
    while (!m_samples.empty() && m_samples.front() == due) {
      std::pop_heap(m_samples.begin(), m_samples.end(), std::greater<>());
      m_samples.pop_back();
    }
    due.probe->sample(due.time);  // its changes are at m_now: staged
  }
}

void VcdRecorder::move_to(std::uint64_t time_ps) {
  if (time_ps > 0) take_due_through(time_ps - 1);
  write_staged();
  m_now = time_ps;
  take_scheduled_now();
}

void VcdRecorder::close(std::uint64_t end_time_ps) {
  take_due_through(end_time_ps);
  write_staged();
  m_samples.clear();
  m_scheduled.clear();
  if (!m_open) return;
  if (!m_body_started) start_body();
  const std::uint64_t end = end_time_ps < m_end ? end_time_ps : m_end;
  if (end > m_last_time) write_time(end);
  flush();
  m_out.close();
  m_open = false;
}

}  // namespace ptosim::traces
