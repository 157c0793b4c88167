// SPDX-License-Identifier: BSD-3-Clause
// The seven semantic rounding modes of ADR 0047 (independent of every encoded selector namespace).
#pragma once

#include <cstdint>
#include <optional>

namespace ptosim::model::numeric {

/// RNE nearest-even, RTZ toward zero, RTM toward -inf, RTP toward +inf, RNA nearest ties-away,
/// RTO round-to-odd (an inexact result takes the neighbour whose last retained bit is one),
/// RHB nearest with an exact tie going to the numerically greater neighbour.
enum class RoundingMode : std::uint8_t { RNE, RTZ, RTM, RTP, RNA, RTO, RHB };

constexpr RoundingMode kAllRoundingModes[] = {RoundingMode::RNE, RoundingMode::RTZ, RoundingMode::RTM,
                                              RoundingMode::RTP, RoundingMode::RNA, RoundingMode::RTO,
                                              RoundingMode::RHB};

const char* rounding_mode_name(RoundingMode rm);

/// B.DATR.RMode (3 bits): 0 NONE -> nullopt (the operation default), 1 RNE, 2 RTZ, 3 RDN=RTM,
/// 4 RUP=RTP, 5 RNA, 6 RTO, 7 RHB (numerics.md §4).
std::optional<RoundingMode> rounding_mode_from_bdatr(unsigned rmode);
/// B.DATR.RMode resolved for an operation: NONE selects the operation default, RTZ for a
/// floating-to-integer TCVT and RNE everywhere else (numerics.md §4).
RoundingMode resolve_bdatr_rounding(unsigned rmode, bool float_to_integer);
/// Scalar CORE_STATE[39:37]: 0 RNE, 1 RTM, 2 RTP, 3 RTZ, reserved 4..7 fall back to RNE.
RoundingMode rounding_mode_from_core_state(unsigned frm);
/// Public conversion control (CAST_NONE, CAST_RINT, CAST_ROUND, CAST_FLOOR, CAST_CEIL,
/// CAST_TRUNC, CAST_ODD = 0..6) to the B.DATR.RMode it encodes; 7 is rejected (nullopt).
std::optional<unsigned> bdatr_rmode_from_public_cast(unsigned raw);

}  // namespace ptosim::model::numeric
