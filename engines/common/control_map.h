// SPDX-License-Identifier: BSD-3-Clause
// The host control block's map (ControlRegisters): offsets from engines::address_map::kControlBase,
// the registers' fields and codes, and the program memory. 32-bit registers, accessed one whole
// aligned word at a time (64-bit values are LO/HI pairs); the program memory takes accesses of one
// byte or more, at any alignment. A host model includes this header to drive the accelerator.
#pragma once

#include <cstdint>

namespace ptosim::engines::control_map {

// Offsets.
constexpr std::uint64_t kId = 0x00;           ///< RO: kIdValue
constexpr std::uint64_t kVersion = 0x04;      ///< RO: kMapVersion, this map's
constexpr std::uint64_t kKernels = 0x08;      ///< RO: how many kernels the platform was given
constexpr std::uint64_t kKernel = 0x0C;       ///< RW: the kernel the next START launches
constexpr std::uint64_t kControl = 0x10;      ///< WO (reads 0): kControlClearError, kControlStart, kControlStartProgram
constexpr std::uint64_t kStatus = 0x14;       ///< RO: kStatusBusy, kStatusDone, kStatusFault, kStatusError
constexpr std::uint64_t kIrqEnable = 0x18;    ///< RW: kIrqDone
constexpr std::uint64_t kIrqStatus = 0x1C;    ///< RW1C: kIrqDone, pending whether enabled or not
constexpr std::uint64_t kCyclesLo = 0x20;     ///< RO: cycles of the latest launch (so far, while busy)
constexpr std::uint64_t kCyclesHi = 0x24;
constexpr std::uint64_t kBundlesLo = 0x28;    ///< RO: bundles the latest launch retired (so far)
constexpr std::uint64_t kBundlesHi = 0x2C;
constexpr std::uint64_t kFault = 0x30;        ///< RO: the latest launch's fault class, FaultCode + 1 (0: none)
constexpr std::uint64_t kFaultBundle = 0x34;  ///< RO: the faulting bundle's index in its kernel or program
constexpr std::uint64_t kFlags = 0x38;        ///< RW: the sticky numeric status flags (model::kFlag*)
constexpr std::uint64_t kError = 0x3C;        ///< RO: the first refused write's ErrorCause since cleared
constexpr std::uint64_t kGprPe = 0x40;        ///< RW: the PE the GPR window shows
constexpr std::uint64_t kGprSelect = 0x44;    ///< RW: the GPR it shows (1..23)
constexpr std::uint64_t kGprValueLo = 0x48;   ///< RW: that GPR's low and high halves
constexpr std::uint64_t kGprValueHi = 0x4C;
constexpr std::uint64_t kProgramBytes = 0x50;  ///< RW: the length of the program START_PROGRAM launches
// The tile window: a tile register's descriptor, installed (TILE_COMMAND kTileInstall) as an input
// tile whose payload the host writes at TILE_ADDRESS, or read back (kTileDescribe) with where its
// payload lies, to read results.
constexpr std::uint64_t kTileSpace = 0x60;       ///< RW: the register file, kTileSpaceLocal or kTileSpaceShared
constexpr std::uint64_t kTileIndex = 0x64;       ///< RW: the register (model::TileRef's index: X#k is hand*16 + k-1; Sn is n)
constexpr std::uint64_t kTileDtype = 0x68;       ///< RW: the DataType's 5-bit code
constexpr std::uint64_t kTileLayout = 0x6C;      ///< RW: model::Layout (0 RowMajor .. 6 CUBE_N8)
constexpr std::uint64_t kTileLocation = 0x70;    ///< RW: model::Location (0 Vector .. 3 Any)
constexpr std::uint64_t kTileRows = 0x74;        ///< RW: physical rows
constexpr std::uint64_t kTileCols = 0x78;        ///< RW: physical columns
constexpr std::uint64_t kTileValidRows = 0x7C;   ///< RW
constexpr std::uint64_t kTileValidCols = 0x80;   ///< RW
constexpr std::uint64_t kTileCapacity = 0x84;    ///< RW: bytes per PE (TSize)
constexpr std::uint64_t kTileMask = 0x88;        ///< RW: the PEs holding a fragment, bit p for PE p (a Shared tile's allocation)
constexpr std::uint64_t kTileCommand = 0x8C;     ///< WO (reads 0): kTileInstall, kTileDescribe
constexpr std::uint64_t kTilePe = 0x90;          ///< RW: the PE whose fragment TILE_ADDRESS gives (0..3)
constexpr std::uint64_t kTileAddress = 0x94;     ///< RO: where that fragment of TILE_SPACE/TILE_INDEX lies now (kNoTileAddress: no such register)
/// The program memory: a program's encoded instructions (as `ptosim asm` writes them), from its start.
constexpr std::uint64_t kProgramMemory = 0x10'0000;
constexpr std::uint64_t kProgramMemorySize = 0x10'0000;

constexpr std::uint32_t kIdValue = 0x50544F53;  // "PTOS"
constexpr std::uint32_t kMapVersion = 2;  ///< 2: the tile window

// CONTROL bits, acting in the order CLEAR_ERROR, START, START_PROGRAM.
constexpr std::uint32_t kControlStart = 1u << 0;         ///< launch the kernel KERNEL selects
constexpr std::uint32_t kControlClearError = 1u << 1;    ///< clear ERROR
constexpr std::uint32_t kControlStartProgram = 1u << 2;  ///< launch the PROGRAM_BYTES in program memory
// STATUS bits.
constexpr std::uint32_t kStatusBusy = 1u << 0;   ///< a program runs (launched here or set directly)
constexpr std::uint32_t kStatusDone = 1u << 1;   ///< the latest launch has ended (until the next launch)
constexpr std::uint32_t kStatusFault = 1u << 2;  ///< ... at a fault (FAULT, FAULT_BUNDLE)
constexpr std::uint32_t kStatusError = 1u << 3;  ///< ERROR is not None
// IRQ_ENABLE / IRQ_STATUS bits.
constexpr std::uint32_t kIrqDone = 1u << 0;  ///< a launch ended
// TILE_SPACE values.
constexpr std::uint32_t kTileSpaceLocal = 0;
constexpr std::uint32_t kTileSpaceShared = 1;
// TILE_COMMAND values.
constexpr std::uint32_t kTileInstall = 1;   ///< install the window's descriptor, every element defined
constexpr std::uint32_t kTileDescribe = 2;  ///< fill the window's fields from the register's tile
constexpr std::uint32_t kNoTileAddress = 0xFFFF'FFFF;

/// Why a write the map allows was refused (it changed nothing).
enum class ErrorCause : std::uint32_t {
  None = 0,
  Busy = 1,          ///< a launch, FLAGS, a GPR or a TILE_COMMAND written while a program runs
  NoSuchKernel = 2,  ///< START with KERNEL not below KERNELS
  NoSuchGpr = 3,     ///< GPR_PE, GPR_SELECT or TILE_PE written with a PE or GPR that does not exist
  BadProgram = 4,    ///< PROGRAM_BYTES past the program memory, or START_PROGRAM of bytes that end inside an instruction
  BadTile = 5,       ///< a TILE_COMMAND the window's fields or the register's state do not allow
};

}  // namespace ptosim::engines::control_map
