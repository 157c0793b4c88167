// SPDX-License-Identifier: BSD-3-Clause
// BurstTrain: books operand traffic in a memory without moving data (the data moves through DMI, or
// not at all in --timing-only runs). It rides on a TLM_IGNORE_COMMAND transaction addressed to the
// first byte still to book, sent with zero delay at the initiator's current time, so the delay the
// target receives is what the interconnect adds to every burst. The train holds the concurrent
// streams one command sends to that memory, in groups of `group_size`: a group's transfers lie in
// one instance of the memory (a PE's Local memory, say), each group in a later instance than the
// one before. The memory books each group's bursts in its instance with model::book_streams up to
// `horizon` (how far the initiator may book ahead of simulated time), advancing the streams, and
// returns as delay the completion of the last burst it booked. An initiator whose groups would
// all be alike (every PE moving the same operands: streams in the same state, their transfers at
// the same places within consecutive instances) fills in only the first and sets `copies`: the
// other groups are placeholders for copies of it. A memory that books the copies at once (see
// TileMemory's mirroring) leaves them so; one that cannot fills the placeholders in (the first
// group's transfers an instance further each, its progress and pacing), clears `copies` and books
// every group.
#pragma once

#include <cstdint>

#include <tlm>

#include "model/memory/burst_streams.h"

namespace ptosim::engines {

struct BurstTrain : tlm::tlm_extension<BurstTrain> {
  model::BurstStream* const* streams = nullptr;  ///< transfer addresses as the initiator sees them
  std::size_t stream_count = 0;  ///< a multiple of group_size
  std::size_t group_size = 0;    ///< streams per instance (at least one)
  bool copies = false;           ///< in: groups after the first are placeholders; out: they still are
  std::uint64_t origin = 0;  ///< the payload's address as sent: the target maps the streams' addresses alike
  std::uint64_t burst_bytes = 0;
  std::uint64_t horizon = 0;       ///< no burst leaving after this (SystemC time value) is booked
  std::uint64_t booked_bytes = 0;  ///< out: bytes booked by this transaction

  tlm::tlm_extension_base* clone() const override { return new BurstTrain(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override { *this = static_cast<const BurstTrain&>(other); }
};

}  // namespace ptosim::engines
