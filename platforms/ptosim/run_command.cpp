// SPDX-License-Identifier: BSD-3-Clause
// ptosim run PROGRAM: builds the default platform, loads the program's inputs, simulates, and
// reports (summary, dumps, --stats JSON, --vcd/--fst traces with a .gtkw layout).
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <utility>

#include <systemc>

#include "model/bundle/assembler.h"
#include "model/bundle/instruction.h"
#include "model/numeric/flags.h"
#include "model/numeric/scalar_ops.h"
#include "platforms/config/config_loader.h"
#include "platforms/files.h"
#include "platforms/ptosim/commands.h"
#include "platforms/ptosim/program_file.h"
#include "platforms/run_report.h"
#include "platforms/tile_top.h"
#include "traces/gtkw_writer.h"

extern char** environ;  // POSIX: the environment a spawned program inherits

namespace ptosim::platforms {

namespace {

struct RunOptions {
  std::string program;
  std::string config;
  std::vector<std::string> sets;
  model::AllocationSpec allocation{model::AllocationPolicy::Queue, model::kHandSize};
  bool timing_only = false;
  std::string vcd;
  std::string fst;
  std::uint64_t window_begin = 0;
  std::uint64_t window_end = ~std::uint64_t{0};
  bool window_given = false;
  std::vector<std::string> trace_modules = TileTop::traceable_modules();
  bool trace_modules_given = false;
  bool trace_thread = false;
  std::string stats;
  bool hex = false;
  bool quiet = false;
};

// sc_elab_and_sim hands control to sc_main; the parsed options travel through here.
RunOptions g_options;

void usage(std::ostream& os) {
  os << "usage: ptosim run PROGRAM [options]\n"
        "  --config FILE          platform configuration (JSON); default: the embedded A2/A3-class platform\n"
        "  --set KEY=VALUE        override one parameter (repeatable); see 'ptosim config'\n"
        "  --allocation P         destination register policy: asl, queue or queue:N (default queue;\n"
        "                         see docs/user-guide.md)\n"
        "  --timing-only          simulate timing without computing values (no dumps)\n"
        "  --vcd FILE             write a VCD trace (and FILE.gtkw for GTKWave)\n"
        "  --fst FILE             write an FST trace (via vcd2fst) and FILE.gtkw\n"
        "  --trace-window B:E     only trace cycles B..E (either may be empty)\n"
        "  --trace-modules LIST   only trace these modules, comma-separated: dispatcher, sfu, cube,\n"
        "                         local_memory, shared_memory, control (default: all)\n"
        "  --trace-thread         write the trace on a thread of its own (see docs/user-guide.md)\n"
        "  --stats FILE           write run statistics as JSON\n"
        "  --hex                  dump element encodings in hex beside their values\n"
        "  --quiet                print the summary without the dumped tiles\n";
}

/// --trace-window's BEGIN:END: each bound decimal digits only (no sign, no spaces), an empty one
/// staying open; false with `error` set otherwise.
bool parse_window(const std::string& s, std::uint64_t& begin, std::uint64_t& end, std::string& error) {
  const auto bound = [&](const std::string& text, std::uint64_t& v) {
    if (text.empty()) return true;
    const auto [last, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (last != text.data() + text.size()) return false;
    if (ec == std::errc::result_out_of_range) error = "--trace-window: cycle " + text + " is beyond the simulated time range";
    return ec == std::errc();
  };
  const auto colon = s.find(':');
  if (colon != std::string::npos && bound(s.substr(0, colon), begin) && bound(s.substr(colon + 1), end)) return true;
  if (error.empty()) error = "--trace-window: expected BEGIN:END in cycles (decimal, either may be left out), got '" + s + "'";
  return false;
}

/// The trace a run shows the user (its .gtkw and filters are named after it).
const std::string& shown_trace(const RunOptions& o) { return o.fst.empty() ? o.vcd : o.fst; }

/// The files written beside a trace: GTKWave's layout and the translate filters it names.
struct TraceCompanions {
  std::string layout, opcodes, states;
};
TraceCompanions companions_of(const std::string& trace) {
  return {trace + ".gtkw", trace + ".opcodes.txt", trace + ".states.txt"};
}

/// Every file a run writes is a different file, and none is one it reads (the program's value
/// files, once it is read, among them; inputs may share a file); vcd2fst replaces its output, so
/// an FST target must be a regular file if it exists.
bool distinct_files(const RunOptions& o, const std::vector<std::string>& value_files, std::string& error) {
  std::vector<std::pair<std::string, std::string>> inputs{{"the program", o.program}};
  if (!o.config.empty()) inputs.emplace_back("--config", o.config);
  for (const std::string& f : value_files) inputs.emplace_back("a .file of the program", f);
  std::vector<std::pair<std::string, std::string>> outputs;
  if (!o.stats.empty()) outputs.emplace_back("--stats", o.stats);
  if (const std::string& t = shown_trace(o); !t.empty()) {
    const std::string option = o.fst.empty() ? "--vcd" : "--fst";
    const TraceCompanions c = companions_of(t);
    for (const std::string& f : {t, c.layout, c.opcodes, c.states}) outputs.emplace_back(option, f);
  }
  for (std::size_t j = 0; j < outputs.size(); ++j) {
    const auto clash = [&](const std::pair<std::string, std::string>& other) {
      if (!same_file(other.second, outputs[j].second)) return false;
      error = other.first + " and " + outputs[j].first + " name the same file '" + outputs[j].second + "'";
      return true;
    };
    for (const auto& in : inputs)
      if (clash(in)) return false;
    for (std::size_t i = 0; i < j; ++i)
      if (clash(outputs[i])) return false;
  }
  std::error_code ec;
  if (!o.fst.empty() && std::filesystem::exists(o.fst, ec) && !std::filesystem::is_regular_file(o.fst, ec)) {
    error = "--fst: '" + o.fst + "' exists and is not a regular file";
    return false;
  }
  return true;
}

/// Whether `arg` is one of ptosim run's options that take a value.
bool is_valued_run_option(const std::string& arg) {
  static const std::set<std::string> kValued = {"--config", "--set",           "--allocation", "--vcd",
                                                "--fst",    "--trace-window",  "--trace-modules", "--stats"};
  return kValued.count(arg) != 0;
}

/// Whether `arg` is one of ptosim run's options: an option's value never is (`--stats --hex` is a
/// missing value, not a file named --hex).
bool is_run_option(const std::string& arg) {
  return is_valued_run_option(arg) || arg == "--timing-only" || arg == "--trace-thread" || arg == "--hex" ||
         arg == "--quiet" || arg == "--help" || arg == "-h";
}

bool parse_options(const Args& args, RunOptions& o, std::string& error) {
  std::set<std::string> given;  // every option may appear once (--set repeats)
  auto once = [&](const std::string& a) {
    if (given.insert(a).second) return true;
    error = a + " given twice";
    return false;
  };
  // A flag: set once, as `config --list` is.
  auto flag = [&](const std::string& a, bool& out) {
    if (!once(a)) return false;
    out = true;
    return true;
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const OptionWord word = option_word(args[i]);
    const std::string& a = word.name;
    auto value = [&](std::string& out) {
      const bool next = !word.value;
      if (next ? i + 1 >= args.size() || args[i + 1].empty() || is_run_option(args[i + 1]) : word.value->empty()) {
        error = a + " needs a value" +
                (next && i + 1 < args.size() && !args[i + 1].empty() ? ", not the option " + args[i + 1] : "");
        return false;
      }
      if (a != "--set" && !once(a)) return false;
      out = next ? args[++i] : *word.value;
      return true;
    };
    if (word.value && !is_valued_run_option(a) && is_run_option(a)) {
      error = a + " takes no value";
      return false;
    }
    if (a == "--config") {
      if (!value(o.config)) return false;
    } else if (a == "--set") {
      std::string s;
      if (!value(s)) return false;
      o.sets.push_back(s);
    } else if (a == "--allocation") {
      std::string s;
      if (!value(s)) return false;
      const auto p = model::allocation_spec_from_text(s);
      if (!p) {
        error = "--allocation: expected asl, queue or queue:N (N = 1..16), got '" + s + "'";
        return false;
      }
      o.allocation = *p;
    } else if (a == "--timing-only") {
      if (!flag(a, o.timing_only)) return false;
    } else if (a == "--vcd") {
      if (!value(o.vcd)) return false;
    } else if (a == "--fst") {
      if (!value(o.fst)) return false;
    } else if (a == "--trace-window") {
      std::string s;
      if (!value(s)) return false;
      o.window_given = true;
      if (!parse_window(s, o.window_begin, o.window_end, error)) return false;
      if (o.window_end < o.window_begin) {
        error = "--trace-window: the end (" + std::to_string(o.window_end) + ") is before the beginning (" +
                std::to_string(o.window_begin) + ")";
        return false;
      }
    } else if (a == "--trace-modules") {
      std::string s;
      if (!value(s)) return false;
      if (!TileTop::parse_modules(s, o.trace_modules, error)) {
        error = "--trace-modules: " + error;
        return false;
      }
      o.trace_modules_given = true;
    } else if (a == "--trace-thread") {
      if (!flag(a, o.trace_thread)) return false;
    } else if (a == "--stats") {
      if (!value(o.stats)) return false;
    } else if (a == "--hex") {
      if (!flag(a, o.hex)) return false;
    } else if (a == "--quiet") {
      if (!flag(a, o.quiet)) return false;
    } else if (!a.empty() && a[0] == '-') {
      error = "unknown option '" + args[i] + "'";
      return false;
    } else if (o.program.empty()) {
      o.program = a;
    } else {
      error = "more than one program given ('" + o.program + "', '" + a + "')";
      return false;
    }
  }
  if (o.program.empty()) {
    error = "no program given";
    return false;
  }
  if (!o.vcd.empty() && !o.fst.empty()) {
    error = "--vcd and --fst are exclusive";
    return false;
  }
  // The options that shape a trace need one.
  if (o.vcd.empty() && o.fst.empty())
    for (const auto& [given, option] : {std::pair{o.window_given, "--trace-window"},
                                        std::pair{o.trace_modules_given, "--trace-modules"},
                                        std::pair{o.trace_thread, "--trace-thread"}})
      if (given) {
        error = std::string(option) + " needs --vcd or --fst";
        return false;
      }
  return distinct_files(o, {}, error);
}

std::string cell_text(model::DataType t, const std::optional<std::uint64_t>& v, bool hex) {
  if (!v) return "-";
  std::string s = model::numeric::format_value(t, *v);
  if (hex) s += " (0x" + [&] {
    std::ostringstream h;
    h << std::hex << *v;
    return h.str();
  }() + ")";
  return s;
}

void print_dump(std::ostream& os, TileTop& top, const model::TileRef& ref, bool hex) {
  const model::TileState& s = top.dispatcher.state();
  const bool allocated = ref.is_shared() ? s.shared(ref.index).allocated : s.local(ref.index).allocated;
  if (!allocated) {
    os << ref.name() << ": not allocated\n";
    return;
  }
  const model::TileDescriptor& d = ref.is_shared() ? s.shared(ref.index).desc : s.local(ref.index).desc;
  os << ref.name() << "  " << model::data_type_name(d.dtype) << "  valid " << d.valid_rows << "x" << d.valid_cols
     << "  (physical " << d.rows << "x" << d.cols << ", " << model::layout_name(d.layout) << ", TSize "
     << d.capacity_bytes << " B, PEs " << d.pe_mask.to_string() << ")\n";
  std::vector<std::pair<std::string, model::FragmentData>> fragments;
  if (ref.is_shared()) {
    fragments.emplace_back("shared", top.read_shared(ref.index));
  } else {
    for (int pe = 0; pe < model::kPeCount; ++pe) {
      if (!d.pe_mask.has(pe)) continue;
      model::FragmentData f = top.read_local(ref.index, pe);
      if (!fragments.empty() && fragments.back().second == f) {
        fragments.back().first += ",PE" + std::to_string(pe);
      } else {
        fragments.emplace_back("PE" + std::to_string(pe), std::move(f));
      }
    }
  }
  for (const auto& [who, f] : fragments) {
    os << "  " << who << ":\n";
    for (std::uint32_t r = 0; r < d.valid_rows; ++r) {
      os << "    row " << std::setw(3) << r << ":";
      for (std::uint32_t c = 0; c < d.valid_cols; ++c) os << "  " << cell_text(d.dtype, f[std::uint64_t{r} * d.cols + c], hex);
      os << "\n";
    }
  }
}

/// A new empty file "NEAR.XXXXXX<suffix>" beside `near` (nothing of the user's is touched), with
/// the mode a new file gets; removed when it goes out of scope unless kept or moved into place.
class TemporaryFile {
 public:
  TemporaryFile(const std::string& near, const std::string& suffix) : m_path(near + ".XXXXXX" + suffix) {
    const int fd = mkstemps(m_path.data(), static_cast<int>(suffix.size()));
    if (fd < 0) {
      m_path.clear();
      return;
    }
    const mode_t mask = umask(0);  // mkstemps makes it private; the user's file should not be
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    close(fd);
  }
  ~TemporaryFile() {
    if (!m_path.empty() && !m_kept) std::remove(m_path.c_str());
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  /// Empty when the file could not be created (errno says why).
  const std::string& path() const { return m_path; }
  void keep() { m_kept = true; }
  /// Renames the file to `target` (replacing it); false with errno set if it cannot.
  bool move_to(const std::string& target) {
    if (std::rename(m_path.c_str(), target.c_str()) != 0) return false;
    m_kept = true;
    return true;
  }

 private:
  std::string m_path;
  bool m_kept = false;
};

/// An output written when the run is over but checked before it, without emptying what is there:
/// opened for appending first, replaced at the end. A file it created is removed if the run stops
/// before writing it.
class LateOutput {
 public:
  ~LateOutput() {
    if (m_created && !m_written) std::remove(m_path.c_str());
  }
  bool check(const std::string& path, std::string& error) {
    std::error_code ec;
    m_created = !std::filesystem::exists(path, ec);
    errno = 0;
    if (!std::ofstream(path, std::ios::app)) {
      error = "cannot write '" + path + "': " + (errno != 0 ? std::strerror(errno) : "unknown error");
      m_created = false;
      return false;
    }
    m_path = path;
    return true;
  }
  bool write(const std::string& contents, std::string& error) {
    m_written = true;
    // To the program's own standard output (--stats /dev/stdout): after the summary, not over it.
    struct stat out {}, target {};
    if (fstat(STDOUT_FILENO, &out) == 0 && stat(m_path.c_str(), &target) == 0 && out.st_dev == target.st_dev &&
        out.st_ino == target.st_ino) {
      std::cout << contents << std::flush;
      if (!std::cout) error = "cannot write '" + m_path + "'";
      return static_cast<bool>(std::cout);
    }
    return write_file(m_path, contents, error);
  }

 private:
  std::string m_path;
  bool m_created = false;
  bool m_written = false;
};

/// The signal (SIGINT or SIGTERM) that interrupted the run, or 0. Atomic, not a volatile
/// sig_atomic_t: the handler may run on the trace writer's thread.
std::atomic<int> g_interrupted{0};
static_assert(std::atomic<int>::is_always_lock_free, "a signal handler may touch only a lock-free atomic");

/// Runs GTKWave's vcd2fst on `vcd`, without a shell (paths are not interpreted, and named by its
/// options, a path starting with '-' is no option); what went wrong, or nothing. A conversion takes
/// seconds on a large trace: once g_interrupted is set it is stopped, with whatever it started (it
/// runs in a process group of its own), by SIGTERM and two seconds later SIGKILL; the caller asks
/// g_interrupted before what this returns.
std::string convert_to_fst(const std::string& vcd, const std::string& fst) {
  // Its output is not ours to show, but what it says on failing is: its errors go to a temporary
  // file, quoted when it fails.
  struct Log {
    std::string path = [] {
      std::error_code ec;
      const std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
      return ((ec ? std::filesystem::path("/tmp") : dir) / "ptosim-vcd2fst-XXXXXX").string();
    }();
    int fd = mkstemp(path.data());
    ~Log() {
      if (fd < 0) return;
      close(fd);
      std::remove(path.c_str());
    }
  } log;
  posix_spawn_file_actions_t quiet;
  if (posix_spawn_file_actions_init(&quiet) != 0) return "cannot run vcd2fst: out of memory";
  const bool redirected = posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0) == 0 &&
                          (log.fd >= 0 ? posix_spawn_file_actions_adddup2(&quiet, log.fd, 2)  // else unquoted
                                       : posix_spawn_file_actions_addopen(&quiet, 2, "/dev/null", O_WRONLY, 0)) == 0;
  std::string program = "vcd2fst", vcd_option = "--vcdname=" + vcd, fst_option = "--fstname=" + fst;
  std::vector<char*> argv{program.data(), vcd_option.data(), fst_option.data(), nullptr};
  posix_spawnattr_t group;
  const bool grouped = posix_spawnattr_init(&group) == 0 && posix_spawnattr_setflags(&group, POSIX_SPAWN_SETPGROUP) == 0 &&
                       posix_spawnattr_setpgroup(&group, 0) == 0;
  pid_t pid = 0;
  const int spawn_error =
      redirected && grouped ? posix_spawnp(&pid, "vcd2fst", &quiet, &group, argv.data(), environ) : ENOMEM;
  posix_spawn_file_actions_destroy(&quiet);
  posix_spawnattr_destroy(&group);
  if (spawn_error != 0) return "cannot run vcd2fst (is GTKWave installed?): " + std::string(std::strerror(spawn_error));
  int status = 0;
  int stopping_ms = -1;  // since the group was asked to stop
  for (pid_t done = 0; done != pid;) {
    done = waitpid(pid, &status, WNOHANG);
    if (done < 0 && errno != EINTR) return "waiting for vcd2fst failed: " + std::string(std::strerror(errno));
    if (done != 0) continue;
    if (g_interrupted && stopping_ms < 0) {
      kill(-pid, SIGTERM);
      stopping_ms = 0;
    } else if (stopping_ms >= 0 && (stopping_ms += 10) == 2000) {
      kill(-pid, SIGKILL);
    }
    usleep(10'000);  // polled: a caught signal restarts a blocking wait
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    // What it said first, as one line of text: at most 300 characters, its line ends as " / ",
    // other control bytes and non-ASCII as '?'.
    constexpr std::size_t kQuoted = 300;
    char head[kQuoted + 1];
    std::ifstream in(log.fd >= 0 ? log.path : std::string(), std::ios::binary);
    in.read(head, sizeof head);
    std::string said;
    for (std::streamsize i = 0; i < in.gcount(); ++i) {
      const char c = head[i];
      if (c == '\n' || c == '\r')
        said += said.empty() || said.back() == ' ' ? "" : " / ";
      else
        said += c >= ' ' && c <= '~' ? c : '?';
    }
    while (!said.empty() && (said.back() == ' ' || said.back() == '/')) said.pop_back();
    if (in.gcount() > static_cast<std::streamsize>(kQuoted)) said = said.substr(0, kQuoted) + "...";
    const std::string how = WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                              : "signal " + std::to_string(WTERMSIG(status));
    return "vcd2fst failed (" + how + (said.empty() ? "" : ": " + said) + ")";
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(fst, ec) || std::filesystem::file_size(fst, ec) == 0)
    return "vcd2fst wrote no FST";
  return {};
}

/// Catches SIGINT and SIGTERM until released, so the run stops after its current slice and
/// cleans up; a second signal of the same kind ends the process as usual. A signal the process
/// was started ignoring (a background job's SIGINT) stays ignored.
class InterruptCatcher {
 public:
  InterruptCatcher() {
    g_interrupted = 0;
    struct sigaction on {};
    on.sa_handler = [](int number) { g_interrupted = number; };
    on.sa_flags = SA_RESETHAND | SA_RESTART;  // restarted: a progress line blocked on a full pipe
    sigemptyset(&on.sa_mask);
    for (Caught& c : m_caught) {
      sigaction(c.signal, nullptr, &c.before);
      c.replaced = c.before.sa_handler != SIG_IGN && sigaction(c.signal, &on, nullptr) == 0;
    }
  }
  ~InterruptCatcher() { release(); }
  InterruptCatcher(const InterruptCatcher&) = delete;
  InterruptCatcher& operator=(const InterruptCatcher&) = delete;
  /// Restores the handlers: from here on a signal ends the process as it would have.
  void release() {
    for (Caught& c : m_caught)
      if (c.replaced) {
        sigaction(c.signal, &c.before, nullptr);
        c.replaced = false;
      }
  }

 private:
  struct Caught {
    int signal;
    struct sigaction before;
    bool replaced;
  };
  Caught m_caught[2] = {{SIGINT, {}, false}, {SIGTERM, {}, false}};
};

/// How many cycles to simulate before looking at the clock and the interrupt flag again: about a
/// tenth of a second at the slowest rate seen so far (so a cheap stretch does not grow the slices
/// of a dense one after it), between a thousand and a million cycles. Slices change no result.
class SliceSizer {
 public:
  std::uint64_t cycles() const { return m_cycles; }
  void took(double seconds) {
    // The first slice also starts the simulation (threads, initialisation): its rate is not the
    // model's, and the next slice keeps its size.
    if (m_first) {
      m_first = false;
      return;
    }
    m_seconds_per_cycle = std::max(m_seconds_per_cycle, seconds / static_cast<double>(m_cycles));
    const double fit = m_seconds_per_cycle > 0 ? 0.1 / m_seconds_per_cycle : 1e6;
    m_cycles = static_cast<std::uint64_t>(std::clamp(fit, 1e3, 1e6));
  }

 private:
  std::uint64_t m_cycles = 10'000;
  double m_seconds_per_cycle = 0;
  bool m_first = true;
};

/// Whether `program` is an executable file in a directory of PATH (as posix_spawnp finds it).
bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  for (std::size_t start = 0;;) {
    const std::size_t colon = dirs.find(':', start);
    const std::string dir = dirs.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
    std::error_code ec;
    if (std::filesystem::is_regular_file(candidate, ec) && access(candidate.c_str(), X_OK) == 0) return true;
    if (colon == std::string::npos) return false;
    start = colon + 1;
  }
}

/// `path` as an absolute path: GTKWave opens a layout's files relative to its working directory,
/// not the layout's.
std::string absolute_path(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::absolute(path, ec);
  return ec ? path : p.lexically_normal().string();
}

/// The progress of a run longer than three seconds, on stderr: rewritten in place about once a
/// second on a terminal; elsewhere (a log, a pipe) a line of its own every ten seconds.
class ProgressLine {
 public:
  using Clock = std::chrono::steady_clock;
  /// Shown from three seconds after `start` (the run's, loading included); the rate counts from
  /// `simulation_start`.
  ProgressLine(Clock::time_point start, Clock::time_point simulation_start)
      : m_start(start), m_simulation_start(simulation_start), m_terminal(isatty(STDERR_FILENO) != 0) {}
  /// `read` is the fraction of the program the dispatcher has read.
  void update(Clock::time_point now, std::uint64_t cycles, std::size_t bundles, double read) {
    if (now - m_start < std::chrono::seconds(3)) return;
    if (m_shown && now - m_last < std::chrono::seconds(m_terminal ? 1 : 10)) return;
    const double seconds = std::chrono::duration<double>(now - m_simulation_start).count();
    std::ostringstream line;
    line << "simulated " << cycles << " cycles, " << bundles << " bundles retired (" << std::fixed << std::setprecision(0)
         << static_cast<double>(bundles) / seconds << " bundles/s), " << std::floor(100.0 * read) << "% of the program read";
    if (m_terminal)
      std::cerr << "\r  " << line.str() << "\x1b[K" << std::flush;  // clears what a longer line left
    else
      std::cerr << "ptosim run: " << line.str() << std::endl;
    m_last = now;
    m_shown = true;
  }
  /// Ends a line rewritten in place.
  void finish() const {
    if (m_shown && m_terminal) std::cerr << "\n";
  }

 private:
  Clock::time_point m_start, m_simulation_start, m_last;
  bool m_terminal;
  bool m_shown = false;
};

/// A fault as the summary and the early note name it: "file:line:column: OP: Fault_CLASS: rule".
std::string fault_line(const model::SourceLoc& loc, const std::string& op, const model::Fault& fault) {
  return model::format_location(loc) + ": " + op + ": Fault_" + model::fault_code_name(fault.code) + ": " + fault.rule;
}

/// A simulated time in the first unit (ns, us, ms, s) that shows it with at most four digits
/// before the point, as rounded: 9999.96 ns is 10.000 us.
std::string simulated_time(std::uint64_t ps) {
  const double ns = static_cast<double>(ps) / 1000.0;
  struct Unit {
    double ns;
    const char* name;
    int decimals;
  };
  static constexpr Unit kUnits[] = {{1, "ns", 1}, {1e3, "us", 3}, {1e6, "ms", 3}, {1e9, "s", 3}};
  std::ostringstream t;
  t << std::fixed;
  for (const Unit& u : kUnits) {
    const int decimals = ns < 10 ? 3 : u.decimals;  // a few cycles of a fast clock
    const double scale = std::pow(10.0, decimals), value = std::round(ns / u.ns * scale) / scale;
    if (value < 1e4 || &u == &kUnits[3]) {
      t << std::setprecision(decimals) << value << ' ' << u.name;
      break;
    }
  }
  return t.str();
}

int simulate(const RunOptions& o) {
  const auto wall_start = std::chrono::steady_clock::now();
  ProgramFile program;
  std::string error;
  if (!parse_program_file(o.program, program, error)) {
    // An error in the file reads file:line:column: error: ...; one that kept it from being read
    // names the command, as asm's and exec's do.
    std::cerr << (error.rfind(o.program + ":", 0) == 0 ? "" : "ptosim run: ") << error << "\n";
    return 2;
  }
  if (!distinct_files(o, program.value_files, error)) {
    std::cerr << "ptosim run: " << error << "\n";
    return 2;
  }
  model::Assembly assembly = model::assemble(program.assembly, o.program);
  std::string().swap(program.assembly);  // a large program's text is not kept through the run
  if (!assembly.ok()) {
    report_asm_errors("", assembly.errors);
    return 2;
  }
  const std::optional<model::BlockFault> text_fault = model::first_instruction_fault(assembly.instructions);
  const double load_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  const ConfigResult config = load_config(o.config, o.sets);
  if (!config.errors.empty()) {
    report_errors("ptosim run: ", config.errors);
    return 2;
  }
  // Caught from here on, before any output is touched: a signal while the inputs are read (seconds
  // for a large program, or a read from a pipe that waits) ends the process at once, as nothing is
  // written yet.
  InterruptCatcher interrupts;
  LateOutput stats_out;  // an unwritable path is bad input, found before the run
  if (!o.stats.empty() && !stats_out.check(o.stats, error)) {
    std::cerr << "ptosim run: --stats: " << error << "\n";
    return 2;
  }
  // Likewise the files written beside a trace (probed, and removed again if the probe made them).
  if (const std::string& shown = shown_trace(o); !shown.empty()) {
    const TraceCompanions c = companions_of(shown);
    for (const std::string& f : {c.layout, c.opcodes, c.states})
      if (LateOutput probe; !probe.check(f, error)) {
        std::cerr << "ptosim run: " << (o.fst.empty() ? "--vcd" : "--fst") << ": " << error << " (written beside '" << shown
                  << "')\n";
        return 2;
      }
  }

  // A missing converter is found now, not after the simulation.
  if (!o.fst.empty() && !on_path("vcd2fst")) {
    std::cerr << "ptosim run: --fst: vcd2fst is not on the PATH (is GTKWave installed?); --vcd writes the trace without it\n";
    return 3;
  }

  TileTop top("top", config.params, o.allocation, o.timing_only);
  for (const ProgramTile& t : program.tiles) {
    if (t.ref.is_shared())
      top.load_shared(t.ref.index, t.desc, t.desc.pe_mask, t.data[0]);
    else
      top.load_local(t.ref.index, t.desc, t.data);
  }
  for (const GprInit& g : program.gprs)
    for (int pe = 0; pe < model::kPeCount; ++pe)
      if (g.pes.has(pe)) top.set_gpr(pe, g.selector, g.value);
  top.set_status(program.status);
  // A fault in the program's text stops the run where it lies, which may be hours into a large
  // program: said now, so the user can stop the run and mend the text first.
  if (const auto& f = text_fault)
    std::cerr << "ptosim run: note: " << fault_line(f->loc, f->block_mnemonic, f->fault)
              << ": the run stops there at the latest, after the bundles before it\n";
  model::ProgramFrontEnd front_end(std::move(assembly.instructions));
  top.dispatcher.set_program(&front_end);

  // An FST is converted from a VCD written first to a fresh file beside it.
  std::optional<TemporaryFile> fst_source;
  if (!o.fst.empty()) fst_source.emplace(o.fst, ".vcd");
  const std::string trace_path = fst_source ? fst_source->path() : o.vcd;
  if (fst_source && trace_path.empty()) {
    std::cerr << "ptosim run: --fst: cannot create a temporary VCD beside '" << o.fst << "': " << std::strerror(errno) << "\n";
    return 2;
  }
  traces::VcdRecorder recorder(o.trace_thread ? traces::VcdRecorder::Threading::OwnThread
                                               : traces::VcdRecorder::Threading::InLine);
  const engines::Clocked clock(config.params.clock);
  if (!trace_path.empty()) {
    top.trace_to(recorder, o.trace_modules);
    const std::uint64_t period = config.params.clock.period_ps;
    const std::uint64_t last_cycle = ~std::uint64_t{0} / period;  // the last cycle whose time is representable
    if (o.window_begin > last_cycle) {
      std::cerr << "ptosim run: --trace-window: cycle " << o.window_begin << " is beyond the simulated time range\n";
      return 2;
    }
    const std::uint64_t end = o.window_end > last_cycle ? ~std::uint64_t{0} : o.window_end * period;
    if (!recorder.open(trace_path, "ptosim " + o.program + ", clock period " + std::to_string(period) + " ps",
                       o.window_begin * period, end)) {
      std::cerr << "ptosim run: cannot write trace '" << trace_path << "': " << std::strerror(errno) << "\n";
      return 2;
    }
  }

  // Run in slices so long simulations can show progress and be interrupted.
  SliceSizer slice;
  ProgressLine progress(wall_start, std::chrono::steady_clock::now());
  while (!top.dispatcher.finished() && !g_interrupted &&
         (sc_core::sc_pending_activity() || sc_core::sc_time_stamp() == sc_core::SC_ZERO_TIME)) {
    const auto before = std::chrono::steady_clock::now();
    sc_core::sc_start(clock.to_time(model::Cycles(slice.cycles())));
    const auto now = std::chrono::steady_clock::now();
    slice.took(std::chrono::duration<double>(now - before).count());
    if (!top.dispatcher.finished())
      progress.update(now, clock.to_cycles(sc_core::sc_time_stamp()), top.dispatcher.retired().total,
                      front_end.fraction_read());
  }
  progress.finish();
  // Writing the outputs is not interrupted half-way: a signal from now on ends the process, except
  // with --fst, caught until the FST is in place (below), as its conversion takes seconds.
  if (o.fst.empty()) interrupts.release();
  // A run that stops early closes its trace where it stopped, a valid VCD of the run so far (what
  // tells why), and says where it is.
  const std::uint64_t stop_cycle = clock.to_cycles(sc_core::sc_time_stamp());
  const auto trace_up_to_stop = [&]() -> std::string {
    if (o.vcd.empty() || !recorder.close(stop_cycle * config.params.clock.period_ps)) return "";
    return "; the trace up to there is in " + o.vcd;
  };
  if (g_interrupted) {
    // Nothing else is written, and the other outputs stay as they were. sc_main then ends the
    // process by the signal, so a shell loop around ptosim stops too.
    std::cerr << "ptosim run: interrupted at cycle " << stop_cycle << " (" << top.dispatcher.retired().total
              << " bundles retired)" << trace_up_to_stop() << "; no statistics written\n";
    return 130;
  }
  if (!top.dispatcher.finished()) {
    std::cerr << "ptosim run: internal error: simulation stopped at cycle " << stop_cycle
              << " before the program retired (deadlock)" << trace_up_to_stop() << "\n";
    return 3;
  }
  const std::uint64_t total_cycles = top.dispatcher.finish_cycle();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();

  // The trace and the files beside it; a failure to write them (exit 3) still leaves the summary
  // and the statistics of a run that finished.
  const auto finish_trace = [&]() -> int {
    if (!recorder.close(total_cycles * config.params.clock.period_ps)) {
      std::cerr << "ptosim run: writing trace '" << trace_path << "' failed (disk full?)\n";
      return 3;
    }
    const auto interrupted_before_fst = [&] {
      std::cerr << "ptosim run: interrupted before the FST was written; no FST, layout or statistics written\n";
      return 130;  // the temporary VCD and FST go with their owners
    };
    if (g_interrupted) return interrupted_before_fst();  // only --fst still catches
    if (o.window_begin > total_cycles)
      std::cerr << "ptosim run: note: --trace-window starts at cycle " << o.window_begin << ", after the run ended (cycle "
                << total_cycles << "): the trace holds only the values at its start\n";
    const std::string& shown = shown_trace(o);
    if (!o.fst.empty()) {
      // Converted beside the target and renamed onto it: a failed conversion leaves it as it was.
      TemporaryFile fst(o.fst, ".fst");
      std::string problem;
      if (fst.path().empty()) {
        problem = "cannot create a file beside '" + o.fst + "': " + std::strerror(errno);
      } else {
        problem = convert_to_fst(trace_path, fst.path());
        if (g_interrupted) {
          std::remove((fst.path() + ".hier").c_str());  // vcd2fst's own scratch file, when stopped
          return interrupted_before_fst();
        }
      }
      if (problem.empty() && !fst.move_to(o.fst))
        problem = "cannot rename the FST to '" + o.fst + "': " + std::strerror(errno);
      if (!problem.empty()) {
        std::cerr << "ptosim run: " << problem << "; the VCD is at " << trace_path << "\n";
        fst_source->keep();
        return 3;
      }
      fst_source.reset();  // the VCD it was converted from, no longer needed
      interrupts.release();
      if (g_interrupted) {
        std::cerr << "ptosim run: interrupted after the FST was written; no layout or statistics written\n";
        return 130;
      }
    }
    const TraceCompanions c = companions_of(shown);
    for (const auto& [path, written] :
         {std::pair{c.opcodes, traces::write_translate_filter(c.opcodes, engines::TileEngine::traced_opcode_names())},
          std::pair{c.states, traces::write_translate_filter(c.states, engines::BundleDispatcher::traced_state_names())},
          std::pair{c.layout, traces::write_gtkw(c.layout, absolute_path(shown), recorder,
                                                 {{"opcode", absolute_path(c.opcodes)}, {"state", absolute_path(c.states)}})}})
      if (!written) {
        std::cerr << "ptosim run: writing '" << path << "' failed\n";
        return 3;
      }
    return 0;
  };
  const int trace_status = trace_path.empty() ? 0 : finish_trace();
  interrupts.release();  // also after a failed conversion to FST
  if (trace_status == 130) return 130;
  if (g_interrupted) {  // caught (--fst) while a trace that then failed was written: still no statistics
    std::cerr << "ptosim run: interrupted while the trace was written; no statistics written\n";
    return 130;
  }

  const engines::RetiredBundles& retired = top.dispatcher.retired();
  const std::optional<engines::BundleRecord>& faulted = retired.fault;
  std::cout << "ptosim run " << o.program << (o.timing_only ? " (timing only)" : "") << "\n";
  std::cout << "  bundles     " << retired.committed << " committed, " << retired.noop << " no-op, " << (faulted ? 1 : 0)
            << " faulted\n";
  // The clock in GHz, or in MHz below 1 GHz (a 1 us period is 1.00 MHz, not 0.00 GHz).
  const double ghz = 1000.0 / static_cast<double>(config.params.clock.period_ps);
  std::cout << "  simulated   " << total_cycles << (total_cycles == 1 ? " cycle (" : " cycles (") << simulated_time(total_cycles * config.params.clock.period_ps)
            << " at " << std::fixed << std::setprecision(2) << (ghz < 1.0 ? ghz * 1000.0 : ghz)
            << (ghz < 1.0 ? " MHz)\n" : " GHz)\n");
  // Loading (parsing and assembling) is shown apart: on a large timing-only run it can take longer
  // than the simulation.
  const auto wall_text = [](double seconds) {  // ms, or s from ten seconds on
    std::ostringstream w;
    w << std::fixed << std::setprecision(1) << (seconds < 10 ? seconds * 1000.0 : seconds) << (seconds < 10 ? " ms" : " s");
    return w.str();
  };
  std::cout << "  wall time   " << wall_text(wall) << " (program loaded in " << wall_text(load_seconds) << ")\n";
  const auto util = [&](const engines::EngineStats& s) {
    std::ostringstream u;
    u << s.busy_cycles << (s.busy_cycles == 1 ? " busy cycle (" : " busy cycles (") << std::setprecision(1) << std::fixed
      << (total_cycles ? 100.0 * static_cast<double>(s.busy_cycles) / static_cast<double>(total_cycles) : 0.0) << "%)";
    // Busy is compute and the wait for memory beyond it: say which, as a busy engine is not
    // necessarily a computing one.
    if (s.busy_cycles != 0) u << ": " << s.compute_cycles << " compute, " << s.memory_stall_cycles << " memory stall";
    return u.str();
  };
  std::cout << "  SFU         " << util(top.sfu.stats()) << "\n  CUBE        " << util(top.cube.stats()) << "\n";
  if (o.timing_only) {
    std::cout << "  note        timing only: no values computed\n";
    if (const std::vector<std::string>& skipped = retired.skipped_checks; !skipped.empty()) {
      constexpr std::size_t kListed = 5;
      std::cout << "  skipped     value-dependent legality checks of " << retired.skipping_bundles << " bundle"
                << (retired.skipping_bundles == 1 ? "" : "s") << ":\n";
      for (std::size_t i = 0; i < skipped.size() && i < kListed; ++i) std::cout << "                " << skipped[i] << "\n";
      if (skipped.size() > kListed) std::cout << "                and " << skipped.size() - kListed << " more\n";
    }
  }
  // The sticky numeric status flags as the run leaves them (a timing-only run computes no values).
  std::vector<std::string> status_flags = model::flag_names(top.dispatcher.state().status());
  if (!o.timing_only) {
    std::cout << "  status      " << (status_flags.empty() ? "none" : "");
    for (std::size_t i = 0; i < status_flags.size(); ++i) std::cout << (i ? " " : "") << status_flags[i];
    std::cout << "\n";
  }
  if (faulted) {
    std::cout << "  fault       " << fault_line(faulted->loc, faulted->op, *faulted->fault) << "\n";
    // Results the allocation policy keeps hold capacity: say which option lets them go sooner.
    const model::AllocationSpec& a = o.allocation;
    if (faulted->fault->code == model::FaultCode::TileAllocation &&
        faulted->fault->rule.rfind("tile capacity exhausted", 0) == 0) {
      if (a.policy == model::AllocationPolicy::Asl)
        std::cout << "  hint        --allocation asl never releases a result; queue releases each hand's oldest\n";
      else if (a.queue_depth > 1)
        std::cout << "  hint        --allocation " << model::allocation_spec_text(a) << " keeps each hand's last "
                  << a.queue_depth << " results allocated; if results hold the capacity, a shorter queue releases "
                                      "them sooner\n";
    }
  }
  if (!o.quiet && !o.timing_only)
    for (const model::TileRef& ref : program.dumps) print_dump(std::cout, top, ref, o.hex);
  // What the run was, then what it did, then the configuration it ran with: a sweep's files say
  // everything that tells them apart.
  nlohmann::ordered_json report{{"ptosim_version", ptosim_version()},
                                {"program", o.program},
                                {"timing_only", o.timing_only},
                                {"allocation", model::allocation_spec_text(o.allocation)}};
  report.update(run_report(top, config.params, total_cycles));
  report["status_flags"] = o.timing_only ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(status_flags);
  report["configuration"] = config_to_json(config.params);
  if (!o.stats.empty() && !stats_out.write(report.dump(2) + "\n", error)) {
    std::cerr << "ptosim run: --stats: " << error << "\n";
    return 3;
  }
  return trace_status != 0 ? trace_status : faulted ? 1 : 0;
}

}  // namespace

int run_command(const Args& args) {
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    usage(std::cout);
    return 0;
  }
  std::string error;
  if (!parse_options(args, g_options, error)) {
    std::cerr << "ptosim run: " << error << "\n";
    usage(std::cerr);
    return 2;
  }
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);  // keep the output to ptosim's own report
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  char name[] = "ptosim";
  char* argv[] = {name, nullptr};
  return sc_core::sc_elab_and_sim(1, argv);
}

}  // namespace ptosim::platforms

/// SystemC's entry point, reached only through run_command's sc_elab_and_sim.
int sc_main(int, char*[]) {
  try {
    const int status = ptosim::platforms::simulate(ptosim::platforms::g_options);
    // An interrupted run has cleaned up (simulate's locals are gone): it ends by its signal.
    if (const int number = ptosim::platforms::g_interrupted) {
      std::signal(number, SIG_DFL);
      std::raise(number);
    }
    return status;
  } catch (const sc_core::sc_report& r) {  // already logged by SystemC; a model defect, not bad input
    std::cerr << "ptosim run: internal error (SystemC report above)\n";
    return 3;
  } catch (const std::exception& e) {  // bad input is reported before; this is a model defect
    std::cerr << "ptosim run: internal error: " << e.what() << "\n";
    return 3;
  }
}
