// SPDX-License-Identifier: BSD-3-Clause
#include "traces/vcd_recorder.h"

#include <algorithm>
#include <charconv>
#include <cstring>

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

}  // namespace

int VcdRecorder::declare(const std::string& scope, const std::string& name, unsigned width) {
  m_signals.push_back(Signal{scope, name, width, code_of(m_signals.size())});
  return static_cast<int>(m_signals.size() - 1);
}

bool VcdRecorder::open(const std::string& path, const std::string& timescale_comment, std::uint64_t window_begin_ps,
                       std::uint64_t window_end_ps) {
  m_out.open(path);
  if (!m_out) return false;
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
  if (m_begin == 0) start_body();
  return true;
}

char* VcdRecorder::room() {
  if (m_used + kLongestLine > m_buf.size()) flush();
  return m_buf.data() + m_used;
}

void VcdRecorder::write_value(const Signal& s) {
  char* const line = room();
  char* p = line;
  if (s.width == 1) {
    *p++ = static_cast<char>('0' + (s.value & 1));
  } else {
    *p++ = 'b';
    for (int bit = s.value == 0 ? 0 : 63 - __builtin_clzll(s.value); bit >= 0; --bit)
      *p++ = static_cast<char>('0' + ((s.value >> bit) & 1));
    *p++ = ' ';
  }
  p = std::copy(s.code.begin(), s.code.end(), p);
  *p++ = '\n';
  m_used += static_cast<std::size_t>(p - line);
}

void VcdRecorder::write_time(std::uint64_t time_ps) {
  char* const line = room();
  line[0] = '#';
  char* end = std::to_chars(line + 1, line + kLongestLine, time_ps).ptr;
  *end++ = '\n';
  m_used += static_cast<std::size_t>(end - line);
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
  for (const Signal& s : m_signals) write_value(s);
  write_text("$end\n");
  m_last_time = m_begin;
  m_body_started = true;
}

void VcdRecorder::change(int id, std::uint64_t value, std::uint64_t time_ps) {
  Signal& s = m_signals[static_cast<std::size_t>(id)];
  // The first change inside the window opens the body with the values from before it.
  if (m_out.is_open() && !m_body_started && time_ps >= m_begin && time_ps <= m_end) start_body();
  s.value = value;  // before the window: folded into the initial values
  if (!m_body_started || time_ps > m_end) return;
  if (time_ps != m_last_time) {
    write_time(time_ps);
    m_last_time = time_ps;
  }
  write_value(s);
}

void VcdRecorder::close(std::uint64_t end_time_ps) {
  if (!m_out.is_open()) return;
  if (!m_body_started) start_body();
  const std::uint64_t end = end_time_ps < m_end ? end_time_ps : m_end;
  if (end > m_last_time) write_time(end);
  flush();
  m_out.close();
}

}  // namespace ptosim::traces
