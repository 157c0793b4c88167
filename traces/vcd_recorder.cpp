// SPDX-License-Identifier: BSD-3-Clause
#include "traces/vcd_recorder.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <sched.h>
#include <thread>
#include <utility>

namespace ptosim::traces {

/// The writer's thread and the blocks of reports on their way to it. Blocks come back for reuse;
/// at most kWaiting wait, so a writer slower than the simulation holds the simulation back rather
/// than letting the reports fill memory.
class VcdRecorder::WriterThread {
 public:
  explicit WriterThread(VcdRecorder& rec) : m_thread([this, &rec] { run(rec); }) {}
  ~WriterThread() { finish(); }

  /// Takes `block` and gives back an empty one (waiting while too many wait).
  void hand_over(Block& block) {
    std::unique_lock<std::mutex> lock(m_mutex);
    m_taken.wait(lock, [&] { return m_waiting.size() < kWaiting; });
    m_waiting.push_back(std::move(block));
    if (!m_spare.empty()) {
      block = std::move(m_spare.back());
      m_spare.pop_back();
    } else {
      block = Block::make();
    }
    lock.unlock();
    m_added.notify_one();
  }
  /// Returns once the writer has applied every block handed over.
  void finish() {
    {
      const std::lock_guard<std::mutex> lock(m_mutex);
      m_finishing = true;
    }
    m_added.notify_one();
    if (m_thread.joinable()) m_thread.join();
  }

 private:
  static constexpr std::size_t kWaiting = 8;

  void run(VcdRecorder& rec) {
    for (;;) {
      Block block;
      {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_added.wait(lock, [&] { return !m_waiting.empty() || m_finishing; });
        if (m_waiting.empty()) return;
        block = std::move(m_waiting.front());
        m_waiting.pop_front();
      }
      m_taken.notify_one();
      rec.apply(block);
      block.count = 0;
      const std::lock_guard<std::mutex> lock(m_mutex);
      m_spare.push_back(std::move(block));
    }
  }

  std::mutex m_mutex;
  std::condition_variable m_added;  ///< a block waits, or finishing
  std::condition_variable m_taken;  ///< the writer took a block
  std::deque<Block> m_waiting;
  std::vector<Block> m_spare;
  bool m_finishing = false;
  std::thread m_thread;  ///< last: it starts once the rest is ready
};

namespace {

/// Whether this process may run on two CPUs or more at once (an affinity mask, a container's CPU
/// set): on one, a second thread only adds the logging and the switches to the writer's work.
bool several_cpus() {
  cpu_set_t cpus;
  if (sched_getaffinity(0, sizeof cpus, &cpus) != 0) return std::thread::hardware_concurrency() > 1;
  return CPU_COUNT(&cpus) > 1;
}

}  // namespace

VcdRecorder::VcdRecorder() = default;

VcdRecorder::~VcdRecorder() = default;

bool VcdRecorder::open(const std::string& path, const std::string& timescale_comment, std::uint64_t window_begin_ps,
                       std::uint64_t window_end_ps) {
  if (!m_writer.open(path, timescale_comment, window_begin_ps, window_end_ps)) return false;
  if (several_cpus()) {
    m_block = Block::make();
    m_next = m_block.reports.get();
    m_end = m_next + kBlockReports;
    m_thread = std::make_unique<WriterThread>(*this);
  }
  return true;
}

void VcdRecorder::pass_on() {
  m_block.count = static_cast<std::size_t>(m_next - m_block.reports.get());
  m_thread->hand_over(m_block);
  m_next = m_block.reports.get();
  m_end = m_next + kBlockReports;
}

void VcdRecorder::apply(const Block& block) {
  for (std::size_t i = 0; i < block.count; ++i) {
    const Report& r = block.reports[i];
    switch (r.kind) {
      case Kind::Change:
        m_writer.change(r.id, r.value, r.time);
        break;
      case Kind::Schedule:
        m_writer.schedule(r.id, r.value, r.time);
        break;
      case Kind::Add:
        m_writer.add_at(r.id, static_cast<std::int64_t>(r.value), r.time);
        break;
    }
  }
}

bool VcdRecorder::close(std::uint64_t end_time_ps) {
  if (m_thread) {
    pass_on();
    m_thread->finish();
    m_thread.reset();
  }
  return m_writer.close(end_time_ps);
}

}  // namespace ptosim::traces
