// SPDX-License-Identifier: BSD-3-Clause
// BurstTrain: books an operand transfer's movement in a memory without moving data (the data moves
// through DMI, or not at all in --timing-only runs). The transaction spans the rest of a transfer;
// the memory books it as the bursts of `burst_bytes` its initiator would issue one by one, paced by
// the stream's BurstPacer, and stops after the first burst that would leave after `horizon` (how
// far the initiator may book ahead of simulated time). The returned delay is when the last of the
// booked bursts completes. One transaction per train instead of one
// per burst keeps the interconnect's cost per transfer, not per burst; the bookings are the same.
#pragma once

#include <cstdint>

#include <tlm>

#include "model/memory/burst_pacer.h"

namespace ptosim::engines {

struct BurstTrain : tlm::tlm_extension<BurstTrain> {
  model::BurstPacer* pacer = nullptr;  ///< the stream's pacer, in SystemC time values
  std::uint64_t burst_bytes = 0;
  std::uint64_t horizon = 0;  ///< no burst leaving after this (time value) is booked, but the first
  std::uint64_t booked_bytes = 0;  ///< out: bytes booked, from the transaction's address on

  tlm::tlm_extension_base* clone() const override { return new BurstTrain(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override { *this = static_cast<const BurstTrain&>(other); }
};

}  // namespace ptosim::engines
