// SPDX-License-Identifier: BSD-3-Clause
#include "platforms/ptosim/commands.h"

#include "ptosim_version.h"  // generated at build time (cmake/write_version.cmake)

namespace ptosim::platforms {

const char* ptosim_version() { return PTOSIM_VERSION; }

}  // namespace ptosim::platforms
