// SPDX-License-Identifier: BSD-3-Clause
// Catch2's own main for the trace writer's tests (pure C++, no SystemC).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
