// SPDX-License-Identifier: BSD-3-Clause
// Clocked: the one place cycles become SystemC time (cycles x the clock period of ClockParams).
#pragma once

#include <cstdint>

#include <systemc>

#include "model/common/cycles.h"
#include "model/params/platform_params.h"

namespace ptosim::engines {

class Clocked {
 public:
  /// The simulation's time resolution must be 1 ps or finer (traces and periods are in whole
  /// picoseconds): a platform that set a coarser one gets an error, not a silently rounded clock.
  explicit Clocked(const model::ClockParams& clock)
      : m_period(static_cast<double>(clock.period_ps), sc_core::SC_PS), m_period_ps(clock.period_ps) {
    if (sc_core::sc_time(1, sc_core::SC_PS).value() == 0)
      SC_REPORT_ERROR("/ptosim/clock", ("the SystemC time resolution is " + sc_core::sc_get_time_resolution().to_string() +
                                        "; ptosim needs 1 ps or finer (sc_set_time_resolution(1, SC_PS) before elaboration)")
                                           .c_str());
  }

  // Integer arithmetic on the time value: constructing sc_time from a double costs a rounding.
  sc_core::sc_time to_time(model::Cycles c) const { return sc_core::sc_time::from_value(c.count * m_period.value()); }
  /// Whole cycles in `t` (rounded up: a partial cycle occupies the block).
  std::uint64_t to_cycles(const sc_core::sc_time& t) const { return to_cycles(t.value()); }
  /// The same for a time value (an integer multiple of the time resolution).
  std::uint64_t to_cycles(std::uint64_t time_value) const {
    const std::uint64_t p = m_period.value();
    return (time_value + p - 1) / p;
  }
  std::uint64_t now_cycles() const { return cycle_of(sc_core::sc_time_stamp()); }
  /// The cycle that time `t` falls in.
  std::uint64_t cycle_of(const sc_core::sc_time& t) const { return t.value() / m_period.value(); }
  /// Simulated time in picoseconds (what traces record).
  static std::uint64_t now_ps() { return ps_of(sc_core::sc_time_stamp()); }
  /// `t` in picoseconds.
  static std::uint64_t ps_of(const sc_core::sc_time& t) {
    // The time resolution is fixed once simulation runs; building a time from a double is not free.
    static const std::uint64_t ps = sc_core::sc_time(1, sc_core::SC_PS).value();
    return ps == 1 ? t.value() : t.value() / ps;  // a division costs more than the check
  }
  /// The start of cycle `c` in picoseconds.
  std::uint64_t cycle_ps(std::uint64_t c) const { return c * m_period_ps; }
  const sc_core::sc_time& period() const { return m_period; }

 private:
  sc_core::sc_time m_period;
  std::uint64_t m_period_ps;
};

}  // namespace ptosim::engines
