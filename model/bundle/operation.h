// SPDX-License-Identifier: BSD-3-Clause
// The Tile operations ptosim models (the SFU seed ops of ADR 0082 and the CUBE family of ADR 0079),
// and the catalog of every assigned TEPL selector (so any legal BSTART word decodes and disassembles).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace ptosim::model {

enum class Engine : std::uint8_t { Sfu, Cube };

/// Operations ptosim executes. Order within a family follows the encoding.
enum class Operation : std::uint8_t {
  // Row reductions / expansions / arg (Mode 2, Function 0..13)
  TROWSUM, TROWMAX, TROWMIN, TROWPROD, TROWEXPAND, TROWEXPANDADD, TROWEXPANDSUB, TROWEXPANDMUL,
  TROWEXPANDDIV, TROWEXPANDMAX, TROWEXPANDMIN, TROWEXPANDEXPDIF, TROWARGMAX, TROWARGMIN,
  // Column counterparts (Mode 2, Function 16..29)
  TCOLSUM, TCOLMAX, TCOLMIN, TCOLPROD, TCOLEXPAND, TCOLEXPANDADD, TCOLEXPANDSUB, TCOLEXPANDMUL,
  TCOLEXPANDDIV, TCOLEXPANDMAX, TCOLEXPANDMIN, TCOLEXPANDEXPDIF, TCOLARGMAX, TCOLARGMIN,
  // Generation and rearrangement (Mode 3)
  TCONCAT, TFILLPAD, TCI, TTRI, THISTOGRAM,
  // CUBE (BSTART.<op>, CUBE Function)
  TMATMUL, TMATMUL_BIAS, TMATMUL_ACC, TMATMUL_MX, TMATMUL_MX_BIAS, TMATMUL_MX_ACC,
  TGEMV, TGEMV_BIAS, TGEMV_ACC, TGEMV_MX, TGEMV_MX_BIAS, TGEMV_MX_ACC,
};
constexpr int kOperationCount = static_cast<int>(Operation::TGEMV_MX_ACC) + 1;

struct OperationInfo {
  Operation op;
  const char* mnemonic;  ///< as BSTART spells it: "TROWSUM", "TMATMUL.ACC", "TGEMVMX.BIAS"
  Engine engine;
  std::uint8_t mode;      ///< TEPL Mode (SFU ops); 0 for CUBE
  std::uint8_t function;  ///< TEPL Function or CUBE Function
};

const OperationInfo& operation_info(Operation op);
inline const char* operation_mnemonic(Operation op) { return operation_info(op).mnemonic; }
inline Engine operation_engine(Operation op) { return operation_info(op).engine; }

std::optional<Operation> operation_from_mnemonic(std::string_view mnemonic);
/// The modelled SFU operation at a TEPL Mode:Function selector.
std::optional<Operation> tepl_operation(unsigned mode, unsigned function);
/// The CUBE operation at a CUBE Function code.
std::optional<Operation> cube_operation(unsigned function);

/// Any assigned TEPL selector (modelled or not), from spec/catalog/tile-operations.json.
struct TeplSelectorInfo {
  const char* name;  ///< catalog name, e.g. "TADD"
  std::uint8_t mode;
  std::uint8_t function;
  bool sfu;  ///< assigned to the SFU engine (BSTART.SFU accepts it)
};
const TeplSelectorInfo* tepl_selector(unsigned mode, unsigned function);
const TeplSelectorInfo* tepl_selector_by_name(std::string_view name);

}  // namespace ptosim::model
