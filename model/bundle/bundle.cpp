// SPDX-License-Identifier: BSD-3-Clause
#include "model/bundle/bundle.h"

namespace ptosim::model {

PeMask Bundle::mask() const {
  if (!iot.empty()) return iot.front().mask;
  if (!ios.empty()) return ios.front().mask;
  return PeMask();
}

}  // namespace ptosim::model
