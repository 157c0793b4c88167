// SPDX-License-Identifier: BSD-3-Clause
#include "traces/vcd_recorder.h"

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <utility>

namespace ptosim::traces {

/// The writer's thread and the blocks of reports on their way to it. Blocks come back for reuse;
/// at most kWaiting wait, so a writer slower than the simulation holds the simulation back rather
/// than letting the reports fill memory.
class VcdRecorder::WriterThread {
 public:
  explicit WriterThread(VcdWriter& writer) {
    m_spare.reserve(kWaiting + 2);  // every block there is: returning one never allocates
    m_thread = std::thread([this, &writer] { run(writer); });
  }
  /// Stops the thread, dropping the blocks not yet written (a recorder destroyed without close).
  ~WriterThread() {
    if (!m_thread.joinable()) return;
    {
      const std::lock_guard<std::mutex> lock(m_mutex);
      m_stop = Stop::Drop;
    }
    m_added.notify_one();
    m_thread.join();
  }

  /// Queues `block` for the writer, waiting while kWaiting blocks wait.
  void hand_over(Block&& block) {
    std::unique_lock<std::mutex> lock(m_mutex);
    m_taken.wait(lock, [&] { return m_waiting.size() < kWaiting; });
    m_waiting.push_back(std::move(block));
    lock.unlock();
    m_added.notify_one();
  }
  /// An empty block: one the writer is done with, or a new one.
  Block spare() {
    {
      const std::lock_guard<std::mutex> lock(m_mutex);
      if (!m_spare.empty()) {
        Block block = std::move(m_spare.back());
        m_spare.pop_back();
        return block;
      }
    }
    return Block::make(kThreadBlockReports);
  }
  /// Returns once the writer has written every block handed over; throws what the writer met.
  void finish() {
    {
      const std::lock_guard<std::mutex> lock(m_mutex);
      m_stop = Stop::AfterWaiting;
    }
    m_added.notify_one();
    m_thread.join();
    if (m_failure) std::rethrow_exception(m_failure);
  }

 private:
  static constexpr std::size_t kWaiting = 8;
  enum class Stop { No, AfterWaiting, Drop };

  void run(VcdWriter& writer) {
    for (;;) {
      Block block;
      {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_added.wait(lock, [&] { return !m_waiting.empty() || m_stop != Stop::No; });
        if (m_stop == Stop::Drop || m_waiting.empty()) return;
        block = std::move(m_waiting.front());
        m_waiting.pop_front();
      }
      m_taken.notify_one();
      // After a failure blocks are still taken, unwritten, so the simulation never waits for a
      // writer that stopped; finish() throws it.
      if (!m_failure) {
        try {
          replay(block, writer);
        } catch (...) {
          m_failure = std::current_exception();
        }
      }
      block.count = 0;
      const std::lock_guard<std::mutex> lock(m_mutex);
      m_spare.push_back(std::move(block));
    }
  }

  std::mutex m_mutex;
  std::condition_variable m_added;  ///< a block waits, or stop
  std::condition_variable m_taken;  ///< the writer took a block
  std::deque<Block> m_waiting;
  std::vector<Block> m_spare;
  Stop m_stop = Stop::No;
  std::exception_ptr m_failure;  ///< set on the thread only, read after it is joined
  std::thread m_thread;
};

VcdRecorder::VcdRecorder(Threading threading) : m_threading(threading) {}

VcdRecorder::~VcdRecorder() = default;

void VcdRecorder::before_open() const {
  if (m_opened) throw std::logic_error("VcdRecorder: signals are declared, and the output opened once, before any report");
}

bool VcdRecorder::open(const std::string& path, const std::string& timescale_comment, std::uint64_t window_begin_ps,
                       std::uint64_t window_end_ps) {
  before_open();
  m_opened = true;
  if (!m_writer.open(path, timescale_comment, window_begin_ps, window_end_ps)) return false;
  if (m_threading == Threading::OwnThread) {
    try {
      m_thread = std::make_unique<WriterThread>(m_writer);
    } catch (const std::system_error&) {
      // no thread to be had: blocks are written in line
    }
  }
  start_block();
  return true;
}

void VcdRecorder::start_block() {
  const std::size_t reports = m_thread ? kThreadBlockReports : kInLineBlockReports;
  if (!m_block.reports) m_block = m_thread ? m_thread->spare() : Block::make(reports);
  m_next = m_block.reports.get();
  m_end = m_next + reports;
}

void VcdRecorder::hand_over_block() {
  m_block.count = static_cast<std::size_t>(m_next - m_block.reports.get());
  m_thread->hand_over(std::move(m_block));
}

void VcdRecorder::pass_on() {
  if (m_thread)
    hand_over_block();
  else
    write_block_in_line();
  start_block();
}

void VcdRecorder::write_block_in_line() {
  m_block.count = static_cast<std::size_t>(m_next - m_block.reports.get());
  // Taken before it is written: should the writer throw, the recorder logs on into an empty block
  // rather than past the end of a full one, and never writes these reports twice.
  m_next = m_block.reports.get();
  replay(m_block, m_writer);
}

void VcdRecorder::replay(const Block& block, VcdWriter& writer) {
  const Report* const reports = block.reports.get();  // read once: the writer's calls may change memory
  for (std::size_t i = 0; i < block.count; ++i) {
    const Report& r = reports[i];
    switch (r.kind) {
      case Kind::Change:
        writer.change(r.id, r.value, r.time);
        break;
      case Kind::Schedule:
        writer.schedule(r.id, r.value, r.time);
        break;
      case Kind::Add:
        writer.add_at(r.id, static_cast<std::int64_t>(r.value), r.time);
        break;
    }
  }
}

bool VcdRecorder::close(std::uint64_t end_time_ps) {
  if (m_thread) {
    hand_over_block();
    const std::unique_ptr<WriterThread> thread = std::move(m_thread);  // later reports go in line
    m_next = m_end = nullptr;
    thread->finish();
  } else if (m_next) {
    write_block_in_line();
    m_next = m_end = nullptr;  // later reports go to the writer directly
  }
  return m_writer.close(end_time_ps);
}

}  // namespace ptosim::traces
