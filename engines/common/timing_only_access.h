// SPDX-License-Identifier: BSD-3-Clause
// TimingOnlyAccess: marks a read or write that must be timed but must not move data — how engines
// stream operands in --timing-only runs (no values exist to move).
#pragma once

#include <tlm>

namespace ptosim::engines {

struct TimingOnlyAccess : tlm::tlm_extension<TimingOnlyAccess> {
  tlm::tlm_extension_base* clone() const override { return new TimingOnlyAccess(*this); }
  void copy_from(const tlm::tlm_extension_base&) override {}
};

}  // namespace ptosim::engines
