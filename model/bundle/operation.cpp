// SPDX-License-Identifier: BSD-3-Clause
#include "model/bundle/operation.h"

#include <array>
#include <cstddef>

#include "model/common/text.h"

namespace ptosim::model {

namespace {

constexpr OperationInfo kOps[kOperationCount] = {
    {Operation::TROWSUM, "TROWSUM", Engine::Sfu, 2, 0},
    {Operation::TROWMAX, "TROWMAX", Engine::Sfu, 2, 1},
    {Operation::TROWMIN, "TROWMIN", Engine::Sfu, 2, 2},
    {Operation::TROWPROD, "TROWPROD", Engine::Sfu, 2, 3},
    {Operation::TROWEXPAND, "TROWEXPAND", Engine::Sfu, 2, 4},
    {Operation::TROWEXPANDADD, "TROWEXPANDADD", Engine::Sfu, 2, 5},
    {Operation::TROWEXPANDSUB, "TROWEXPANDSUB", Engine::Sfu, 2, 6},
    {Operation::TROWEXPANDMUL, "TROWEXPANDMUL", Engine::Sfu, 2, 7},
    {Operation::TROWEXPANDDIV, "TROWEXPANDDIV", Engine::Sfu, 2, 8},
    {Operation::TROWEXPANDMAX, "TROWEXPANDMAX", Engine::Sfu, 2, 9},
    {Operation::TROWEXPANDMIN, "TROWEXPANDMIN", Engine::Sfu, 2, 10},
    {Operation::TROWEXPANDEXPDIF, "TROWEXPANDEXPDIF", Engine::Sfu, 2, 11},
    {Operation::TROWARGMAX, "TROWARGMAX", Engine::Sfu, 2, 12},
    {Operation::TROWARGMIN, "TROWARGMIN", Engine::Sfu, 2, 13},
    {Operation::TCOLSUM, "TCOLSUM", Engine::Sfu, 2, 16},
    {Operation::TCOLMAX, "TCOLMAX", Engine::Sfu, 2, 17},
    {Operation::TCOLMIN, "TCOLMIN", Engine::Sfu, 2, 18},
    {Operation::TCOLPROD, "TCOLPROD", Engine::Sfu, 2, 19},
    {Operation::TCOLEXPAND, "TCOLEXPAND", Engine::Sfu, 2, 20},
    {Operation::TCOLEXPANDADD, "TCOLEXPANDADD", Engine::Sfu, 2, 21},
    {Operation::TCOLEXPANDSUB, "TCOLEXPANDSUB", Engine::Sfu, 2, 22},
    {Operation::TCOLEXPANDMUL, "TCOLEXPANDMUL", Engine::Sfu, 2, 23},
    {Operation::TCOLEXPANDDIV, "TCOLEXPANDDIV", Engine::Sfu, 2, 24},
    {Operation::TCOLEXPANDMAX, "TCOLEXPANDMAX", Engine::Sfu, 2, 25},
    {Operation::TCOLEXPANDMIN, "TCOLEXPANDMIN", Engine::Sfu, 2, 26},
    {Operation::TCOLEXPANDEXPDIF, "TCOLEXPANDEXPDIF", Engine::Sfu, 2, 27},
    {Operation::TCOLARGMAX, "TCOLARGMAX", Engine::Sfu, 2, 28},
    {Operation::TCOLARGMIN, "TCOLARGMIN", Engine::Sfu, 2, 29},
    {Operation::TCONCAT, "TCONCAT", Engine::Sfu, 3, 0},
    {Operation::TFILLPAD, "TFILLPAD", Engine::Sfu, 3, 5},
    {Operation::TCI, "TCI", Engine::Sfu, 3, 6},
    {Operation::TTRI, "TTRI", Engine::Sfu, 3, 7},
    {Operation::THISTOGRAM, "THISTOGRAM", Engine::Sfu, 3, 8},
    {Operation::TMATMUL, "TMATMUL", Engine::Cube, 0, 0},
    {Operation::TMATMUL_BIAS, "TMATMUL.BIAS", Engine::Cube, 0, 1},
    {Operation::TMATMUL_ACC, "TMATMUL.ACC", Engine::Cube, 0, 2},
    {Operation::TMATMUL_MX, "TMATMULMX", Engine::Cube, 0, 4},
    {Operation::TMATMUL_MX_BIAS, "TMATMULMX.BIAS", Engine::Cube, 0, 5},
    {Operation::TMATMUL_MX_ACC, "TMATMULMX.ACC", Engine::Cube, 0, 6},
    {Operation::TGEMV, "TGEMV", Engine::Cube, 0, 16},
    {Operation::TGEMV_BIAS, "TGEMV.BIAS", Engine::Cube, 0, 17},
    {Operation::TGEMV_ACC, "TGEMV.ACC", Engine::Cube, 0, 18},
    {Operation::TGEMV_MX, "TGEMVMX", Engine::Cube, 0, 20},
    {Operation::TGEMV_MX_BIAS, "TGEMVMX.BIAS", Engine::Cube, 0, 21},
    {Operation::TGEMV_MX_ACC, "TGEMVMX.ACC", Engine::Cube, 0, 22},
};

// Every assigned TEPL selector of spec/catalog/tile-operations.json (0.58.3).
constexpr TeplSelectorInfo kTepl[] = {
    {"TADD", 0, 0, false},    {"TSUB", 0, 1, false},     {"TMUL", 0, 2, false},
    {"TDIV", 0, 3, true},     {"TREM", 0, 4, true},      {"TAND", 0, 6, false},
    {"TOR", 0, 7, false},     {"TXOR", 0, 8, false},     {"TSHL", 0, 9, false},
    {"TSHR", 0, 10, false},   {"TMAX", 0, 11, false},    {"TMIN", 0, 12, false},
    {"TCMP", 0, 13, false},   {"TABS", 0, 15, false},    {"TNOT", 0, 16, false},
    {"TNEG", 0, 17, false},   {"TEXP", 0, 18, true},     {"TLOG", 0, 19, true},
    {"TRECIP", 0, 20, true},  {"TSQRT", 0, 21, true},    {"TRSQRT", 0, 22, true},
    {"TRELU", 0, 23, false},  {"TSEL", 0, 26, false},    {"TCVT", 0, 27, false},
    {"TFMA", 0, 28, false},   {"TADDS", 1, 0, false},    {"TSUBS", 1, 1, false},
    {"TMULS", 1, 2, false},   {"TDIVS", 1, 3, true},     {"TREMS", 1, 4, true},
    {"TANDS", 1, 6, false},   {"TORS", 1, 7, false},     {"TXORS", 1, 8, false},
    {"TSHLS", 1, 9, false},   {"TSHRS", 1, 10, false},   {"TMAXS", 1, 11, false},
    {"TMINS", 1, 12, false},  {"TCMPS", 1, 13, false},   {"TSELS", 1, 26, false},
    {"TEXPANDS", 1, 27, false},
    {"TROWSUM", 2, 0, true},  {"TROWMAX", 2, 1, true},   {"TROWMIN", 2, 2, true},
    {"TROWPROD", 2, 3, true}, {"TROWEXPAND", 2, 4, true}, {"TROWEXPANDADD", 2, 5, true},
    {"TROWEXPANDSUB", 2, 6, true}, {"TROWEXPANDMUL", 2, 7, true}, {"TROWEXPANDDIV", 2, 8, true},
    {"TROWEXPANDMAX", 2, 9, true}, {"TROWEXPANDMIN", 2, 10, true}, {"TROWEXPANDEXPDIF", 2, 11, true},
    {"TROWARGMAX", 2, 12, true}, {"TROWARGMIN", 2, 13, true},
    {"TCOLSUM", 2, 16, true}, {"TCOLMAX", 2, 17, true},  {"TCOLMIN", 2, 18, true},
    {"TCOLPROD", 2, 19, true}, {"TCOLEXPAND", 2, 20, true}, {"TCOLEXPANDADD", 2, 21, true},
    {"TCOLEXPANDSUB", 2, 22, true}, {"TCOLEXPANDMUL", 2, 23, true}, {"TCOLEXPANDDIV", 2, 24, true},
    {"TCOLEXPANDMAX", 2, 25, true}, {"TCOLEXPANDMIN", 2, 26, true}, {"TCOLEXPANDEXPDIF", 2, 27, true},
    {"TCOLARGMAX", 2, 28, true}, {"TCOLARGMIN", 2, 29, true},
    {"TCONCAT", 3, 0, true},  {"TEXTRACT", 3, 2, true},  {"TINSERT", 3, 3, true},
    {"TIMG2COL", 3, 4, true}, {"TFILLPAD", 3, 5, true},  {"TCI", 3, 6, true},
    {"TTRI", 3, 7, true},     {"THISTOGRAM", 3, 8, true}, {"TQUANT", 3, 10, true},
    {"TDEQUANT", 3, 11, true}, {"TSORT", 3, 12, true},   {"TMRGSORT", 3, 13, true},
    {"TTRANS", 3, 14, true},  {"TGATHER", 3, 15, true},  {"TSCATTER", 3, 16, true},
    {"TPARTADD", 3, 17, true}, {"TPARTMUL", 3, 18, true}, {"TPARTMAX", 3, 19, true},
    {"TPARTMIN", 3, 20, true},
};

// Decode looks every BSTART up by its selector: direct tables instead of scanning the lists.
constexpr unsigned kTeplSelectors = 4 * 32;  ///< Mode (2 bits) : Function (5 bits)
constexpr unsigned kCubeFunctions = 32;

constexpr unsigned tepl_key(unsigned mode, unsigned function) { return mode * 32 + function; }

/// Position + 1 in `list` of the first selected entry at each key; 0 where none is.
template <std::size_t Keys, typename Entry, std::size_t N, typename Key, typename Select>
constexpr std::array<std::uint8_t, Keys> index_of(const Entry (&list)[N], Key key, Select select) {
  static_assert(N < 255, "positions must fit a byte");
  std::array<std::uint8_t, Keys> index{};
  for (std::size_t i = 0; i < N; ++i)
    if (select(list[i]) && index[key(list[i])] == 0) index[key(list[i])] = static_cast<std::uint8_t>(i + 1);
  return index;
}

constexpr auto kSfuOpIndex = index_of<kTeplSelectors>(
    kOps, [](const OperationInfo& i) { return tepl_key(i.mode, i.function); },
    [](const OperationInfo& i) { return i.engine == Engine::Sfu; });
constexpr auto kCubeOpIndex = index_of<kCubeFunctions>(
    kOps, [](const OperationInfo& i) { return unsigned{i.function}; },
    [](const OperationInfo& i) { return i.engine == Engine::Cube; });
constexpr auto kTeplIndex = index_of<kTeplSelectors>(
    kTepl, [](const TeplSelectorInfo& i) { return tepl_key(i.mode, i.function); },
    [](const TeplSelectorInfo&) { return true; });

}  // namespace

const OperationInfo& operation_info(Operation op) { return kOps[static_cast<int>(op)]; }

std::optional<Operation> operation_from_mnemonic(std::string_view mnemonic) {
  static constexpr auto kMnemonics = names_of(kOps, [](const OperationInfo& i) { return i.mnemonic; });
  for (std::size_t k = 0; k < kMnemonics.size(); ++k)
    if (mnemonic == kMnemonics[k]) return kOps[k].op;
  return std::nullopt;
}

std::optional<Operation> tepl_operation(unsigned mode, unsigned function) {
  if (mode >= 4 || function >= 32 || kSfuOpIndex[tepl_key(mode, function)] == 0) return std::nullopt;
  return kOps[kSfuOpIndex[tepl_key(mode, function)] - 1].op;
}

std::optional<Operation> cube_operation(unsigned function) {
  if (function >= kCubeFunctions || kCubeOpIndex[function] == 0) return std::nullopt;
  return kOps[kCubeOpIndex[function] - 1].op;
}

const TeplSelectorInfo* tepl_selector(unsigned mode, unsigned function) {
  if (mode >= 4 || function >= 32 || kTeplIndex[tepl_key(mode, function)] == 0) return nullptr;
  return &kTepl[kTeplIndex[tepl_key(mode, function)] - 1];
}

const TeplSelectorInfo* tepl_selector_by_name(std::string_view name) {
  static constexpr auto kNames = names_of(kTepl, [](const TeplSelectorInfo& i) { return i.name; });
  for (std::size_t k = 0; k < kNames.size(); ++k)
    if (name == kNames[k]) return &kTepl[k];
  return nullptr;
}

}  // namespace ptosim::model
