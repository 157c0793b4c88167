// SPDX-License-Identifier: BSD-3-Clause
// Catch2's own main for the pure C++ model tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
