// SPDX-License-Identifier: BSD-3-Clause
// Rounding-mode names and the two encoded selector namespaces (ADR 0047).
#include "model/numeric/rounding_mode.h"

namespace ptosim::model::numeric {

const char* rounding_mode_name(RoundingMode rm) {
  switch (rm) {
    case RoundingMode::RNE: return "RNE";
    case RoundingMode::RTZ: return "RTZ";
    case RoundingMode::RTM: return "RTM";
    case RoundingMode::RTP: return "RTP";
    case RoundingMode::RNA: return "RNA";
    case RoundingMode::RTO: return "RTO";
    case RoundingMode::RHB: return "RHB";
  }
  return "?";
}

std::optional<RoundingMode> rounding_mode_from_bdatr(unsigned rmode) {
  switch (rmode & 7) {
    case 1: return RoundingMode::RNE;
    case 2: return RoundingMode::RTZ;
    case 3: return RoundingMode::RTM;
    case 4: return RoundingMode::RTP;
    case 5: return RoundingMode::RNA;
    case 6: return RoundingMode::RTO;
    case 7: return RoundingMode::RHB;
    default: return std::nullopt;
  }
}

RoundingMode resolve_bdatr_rounding(unsigned rmode, bool float_to_integer) {
  const std::optional<RoundingMode> rm = rounding_mode_from_bdatr(rmode);
  if (rm) return *rm;
  return float_to_integer ? RoundingMode::RTZ : RoundingMode::RNE;
}

std::optional<unsigned> bdatr_rmode_from_public_cast(unsigned raw) {
  constexpr unsigned kMap[] = {0, 1, 5, 3, 4, 2, 6};
  if (raw >= 7) return std::nullopt;
  return kMap[raw];
}

RoundingMode rounding_mode_from_core_state(unsigned frm) {
  switch (frm & 7) {
    case 1: return RoundingMode::RTM;
    case 2: return RoundingMode::RTP;
    case 3: return RoundingMode::RTZ;
    default: return RoundingMode::RNE;
  }
}

}  // namespace ptosim::model::numeric
