// SPDX-License-Identifier: BSD-3-Clause
// BurstStream: one operand stream of an initiator (a PE's sources, say): transfers that follow each
// other at one rate, issued as bursts paced by a BurstPacer, and how far they have been booked.
// book_streams books the bursts of several concurrent streams into one memory in the order their
// initiator issues them, up to a horizon; calling it again carries on where it stopped.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "model/memory/burst_pacer.h"

namespace ptosim::model {

struct StreamTransfer {
  std::uint64_t address;
  std::uint64_t bytes;  ///< never zero
};

struct BurstStream {
  explicit BurstStream(BurstPacer p) : pacer(std::move(p)) {}

  bool write = false;
  std::vector<StreamTransfer> transfers;
  std::size_t next = 0;      ///< the transfer being booked
  std::uint64_t offset = 0;  ///< its bytes already booked
  BurstPacer pacer;

  bool finished() const { return next == transfers.size(); }
  /// Takes `lead`'s progress: this stream's copies were booked as `lead` (see the memories' burst
  /// trains), so it stands where `lead` does.
  void follow(const BurstStream& lead) {
    next = lead.next;
    offset = lead.offset;
    pacer = lead.pacer;
  }
  /// Back to the first transfer, (re)starting the pacer at `start` with `bytes_per_cycle`.
  void restart(std::uint64_t start, std::uint64_t bytes_per_cycle) {
    next = 0;
    offset = 0;
    pacer.start(start, bytes_per_cycle);
  }
};

/// What book_streams booked: its bytes, and when the last of its bursts has moved (0: none).
struct StreamsBooked {
  std::uint64_t bytes = 0;
  std::uint64_t done = 0;
};

/// Books the bursts of `streams` (at most `burst_bytes` each) that leave no later than `horizon`.
/// The stream whose next burst leaves first (ties: the earlier in `streams`) books the rest of its
/// current transfer, burst by burst, until a burst would leave after the horizon; then the next
/// first stream does. `book(stream, address, bytes)` books one burst leaving at
/// stream.pacer.next_issue() and returns when the memory is done with it; the burst has moved then,
/// or once its bytes have at the stream's rate if that is later (BurstPacer::issued), which paces
/// the stream's later bursts.
template <typename Book>
StreamsBooked book_streams(BurstStream* const* streams, std::size_t count, std::uint64_t burst_bytes,
                           std::uint64_t horizon, Book&& book) {
  StreamsBooked booked;
  for (;;) {
    BurstStream* first = nullptr;
    for (std::size_t i = 0; i < count; ++i)
      if (!streams[i]->finished() && (!first || streams[i]->pacer.next_issue() < first->pacer.next_issue()))
        first = streams[i];
    if (!first || first->pacer.next_issue() > horizon) return booked;
    BurstStream& s = *first;
    const StreamTransfer& t = s.transfers[s.next];
    do {
      const std::uint64_t bytes = std::min(burst_bytes, t.bytes - s.offset);
      const std::uint64_t moved = s.pacer.issued(bytes, book(static_cast<const BurstStream&>(s), t.address + s.offset, bytes));
      booked.done = std::max(booked.done, moved);
      s.offset += bytes;
      booked.bytes += bytes;
    } while (s.offset < t.bytes && s.pacer.next_issue() <= horizon);
    if (s.offset == t.bytes) {
      s.offset = 0;
      ++s.next;
    }
  }
}

}  // namespace ptosim::model
