// SPDX-License-Identifier: BSD-3-Clause
// Runs the Catch2 session inside sc_main, so SystemC test cases can elaborate and simulate.
// Each SystemC TEST_CASE runs in its own process (catch_discover_tests): SystemC elaborates once.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>

#include <systemc>

int sc_main(int argc, char* argv[]) {
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  return Catch::Session().run(argc, argv);
}
