// SPDX-License-Identifier: BSD-3-Clause
// The `ptosim exec` scenario contract (shared/scenario-format.md): JSON input -> initial state and
// program; the functional run's outcomes and final state -> JSON output.
#pragma once

#include <array>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/exec/functional_machine.h"

namespace ptosim::platforms {

struct ScenarioTile {
  model::TileRef ref;
  model::TileDescriptor desc;
  std::array<model::FragmentData, model::kPeCount> data;  ///< Shared tiles: data[0]
};

struct Scenario {
  model::AllocationSpec allocation;
  std::vector<ScenarioTile> tiles;
  std::array<std::array<std::uint64_t, model::kGprCount>, model::kPeCount> gprs{};
  model::NumericFlags status = 0;
  std::string program;
};

/// Parses and checks a scenario document; on error returns a message naming the field.
std::string parse_scenario(const nlohmann::json& doc, Scenario& out);

/// Where an input tile's fields come from, which names them in errors: a scenario's fields, or a
/// program file's .tile options (whose valid=RxC gives both valid dimensions).
enum class InputFields { Scenario, TileDirective };

/// Builds a descriptor for a Local or (`shared`) Shared input tile from its fields (rows optional,
/// checked against the capacity rule or the CELL rule); returns an error message, starting with
/// the field at fault, or "".
std::string make_input_descriptor(InputFields fields, bool shared, model::DataType dtype, std::uint64_t capacity,
                                  std::optional<std::uint64_t> cols, std::optional<std::uint64_t> rows,
                                  std::uint64_t valid_rows, std::uint64_t valid_cols, model::Layout layout,
                                  model::Location location, model::PeMask mask, model::TileDescriptor& out);

/// Bytes of input tiles charged to each PE so far. Input tiles are charged as allocated tiles are
/// (model::TileState): each PE of a tile's mask holds its capacity, against the tile capacity.
using InputCharge = std::array<std::uint64_t, model::kPeCount>;

/// Charges `desc` to the PEs of its mask; returns an error if a PE's input tiles would then hold
/// more than the tile capacity (nothing charged), or "".
std::string charge_input_tile(InputCharge& charged, const model::TileDescriptor& desc);

/// One entry of the output's bundles[] array.
struct ScenarioBundle {
  std::string op;
  model::BundleOutcome::Kind kind;
  std::optional<model::Fault> fault;
};

nlohmann::ordered_json scenario_output(const std::vector<ScenarioBundle>& bundles, const model::FunctionalMachine& m);

/// Element encoding as the scenario format spells it: lowercase hex, exactly the element width.
std::string encode_hex(model::DataType t, std::uint64_t bits);

}  // namespace ptosim::platforms
