// SPDX-License-Identifier: BSD-3-Clause
#include "traces/gtkw_writer.h"

#include <cstdio>
#include <fstream>

namespace ptosim::traces {

namespace {

// GTKWave trace flags (gtkwave's analyzer.h): decimal 0x04, binary 0x08, right-justify 0x20,
// blank 0x200 (a group's ends are blank traces), file translate filter 0x2000, group begin
// 0x800000 / end 0x1000000.
constexpr unsigned kDec = 0x24, kBin = 0x28, kFilter = 0x2000;
constexpr unsigned kGroupBegin = 0x800200, kGroupEnd = 0x1000200;

std::string flags(unsigned f) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "@%x", f);
  return buf;
}

std::string group_title(const std::string& scope) {
  const auto dot = scope.rfind('.');
  return dot == std::string::npos ? scope : scope.substr(dot + 1);
}

}  // namespace

bool write_translate_filter(const std::string& path, const std::vector<std::pair<unsigned, std::string>>& names) {
  std::ofstream out(path);
  for (const auto& [value, name] : names) out << value << ' ' << name << '\n';
  out.close();  // flushes: a full disk shows here
  return static_cast<bool>(out);
}

bool write_gtkw(const std::string& path, const std::string& dump_file, const VcdRecorder& rec,
                const std::vector<std::pair<std::string, std::string>>& filters) {
  std::ofstream out(path);
  out << "[*] GTKWave save file written by ptosim\n";
  out << "[dumpfile] \"" << dump_file << "\"\n";
  out << "[timestart] " << rec.window_begin_ps() << "\n[size] 1600 900\n[pos] -1 -1\n";
  out << "[sst_width] 280\n[signals_width] 260\n[sst_expanded] 1\n";
  std::string scope;
  int filter_index = 0;
  std::vector<std::pair<std::string, int>> filter_ids;
  for (const auto& [signal, file] : filters) {
    out << "^" << ++filter_index << " " << file << "\n";
    filter_ids.emplace_back(signal, filter_index);
  }
  for (const auto& s : rec.signals()) {
    if (s.scope != scope) {
      if (!scope.empty()) out << flags(kGroupEnd) << "\n-" << group_title(scope) << "\n";
      scope = s.scope;
      out << flags(kGroupBegin) << "\n-" << group_title(scope) << "\n";
    }
    int filter = 0;
    for (const auto& [name, id] : filter_ids)
      if (name == s.name) filter = id;
    if (filter) {
      out << flags(kDec | kFilter) << "\n^" << filter << " " << filters[static_cast<std::size_t>(filter - 1)].second << "\n";
    } else {
      out << flags(s.width == 1 ? kBin : kDec) << "\n";
    }
    out << s.scope << '.' << s.name;
    if (s.width > 1) out << '[' << s.width - 1 << ":0]";
    out << "\n";
  }
  if (!scope.empty()) out << flags(kGroupEnd) << "\n-" << group_title(scope) << "\n";
  out << "[pattern_trace] 1\n[pattern_trace] 0\n";
  out.close();  // flushes: a full disk shows here
  return static_cast<bool>(out);
}

}  // namespace ptosim::traces
