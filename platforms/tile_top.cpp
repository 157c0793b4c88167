// SPDX-License-Identifier: BSD-3-Clause
#include "platforms/tile_top.h"

#include <algorithm>

#include "engines/common/address_map.h"

namespace ptosim::platforms {

namespace am = engines::address_map;

namespace {

std::vector<std::uint8_t> pack(const model::TileDescriptor& d, const model::FragmentData& data,
                               model::Definedness& defined) {
  std::vector<std::uint8_t> bytes(d.capacity_bytes, 0);
  model::store_fragment(d, bytes.data(), defined, data);
  return bytes;
}

/// `p`, once every parameter lies in its range: the children would divide by a zero clock period
/// or size nothing from a zero depth. SC_REPORT_ERROR naming every violation otherwise.
const model::PlatformParams& checked(const model::PlatformParams& p, const char* module) {
  const std::vector<std::string> problems = p.validate();
  if (!problems.empty()) {
    std::string text = "parameters out of range:";
    for (const std::string& problem : problems) text += " " + problem + ";";
    SC_REPORT_ERROR(module, text.c_str());
  }
  return p;
}

}  // namespace

TileTop::TileTop(sc_core::sc_module_name name, const model::PlatformParams& params, model::AllocationSpec allocation,
                 bool timing_only)
    : sc_core::sc_module(name),
      dispatcher("dispatcher", checked(params, this->name()).dispatch, params.clock, allocation, timing_only),
      sfu("sfu", params.sfu, params.clock, params.sim),
      cube("cube", params.cube, params.clock, params.sim),
      local_memory("local_memory", model::kPeCount, model::kLocalTileCount, am::kLocalSlotStride, params.local_memory,
                   params.clock),
      shared_memory("shared_memory", 1, model::kSharedTileCount, am::kSharedSlotStride, params.shared_memory, params.clock),
      router("router", engines::Clocked(params.clock).to_time(model::Cycles(params.interconnect_hop_cycles))),
      debug_port("debug_port"),
      control("control", dispatcher, params.clock) {
  dispatcher.sfu_cmd_initiator_socket.bind(sfu.cmd_target_socket);
  dispatcher.cube_cmd_initiator_socket.bind(cube.cmd_target_socket);
  dispatcher.dbg_initiator_socket.bind(router.target_socket);
  sfu.mem_initiator_socket.bind(router.target_socket);
  cube.mem_initiator_socket.bind(router.target_socket);
  debug_port.initiator_socket.bind(router.target_socket);
  router.initiator_socket.bind(local_memory.target_socket);
  router.map(0, am::locals_range(), local_memory.name());
  router.initiator_socket.bind(shared_memory.target_socket);
  router.map(1, am::shared_range(), shared_memory.name());
  router.initiator_socket.bind(control.target_socket);
  router.map(2, am::control_range(), control.name());
}

void TileTop::load_local(unsigned index, const model::TileDescriptor& desc,
                         const std::array<model::FragmentData, model::kPeCount>& data) {
  if (report_started("load_local") ||
      report_problem("load_local", model::TileState::install_problem(model::TileRef::Space::Local, index, desc)))
    return;  // nothing is installed, should the report not throw
  model::TileState& s = dispatcher.state();
  s.install_local(index, desc);
  const unsigned slot = s.physical_index(index);
  for (int pe = 0; pe < model::kPeCount; ++pe) {
    if (!desc.pe_mask.has(pe)) continue;
    m_pending.push_back({am::fragment_address(model::TileRef::Space::Local, slot, pe),
                         pack(desc, data[pe], s.local(index).defined[pe])});
  }
}

void TileTop::load_shared(unsigned index, const model::TileDescriptor& desc, model::PeMask allocation,
                          const model::FragmentData& data) {
  if (report_started("load_shared") ||
      report_problem("load_shared", model::TileState::install_problem(model::TileRef::Space::Shared, index, desc)))
    return;  // nothing is installed, should the report not throw
  model::TileState& s = dispatcher.state();
  s.install_shared(index, desc, allocation, allocation, true);
  m_pending.push_back({am::fragment_address(model::TileRef::Space::Shared, index, 0),
                       pack(desc, data, s.shared(index).defined)});
}

void TileTop::set_gpr(int pe, unsigned selector, std::uint64_t value) {
  if (report_started("set_gpr") || report_problem("set_gpr", model::TileState::gpr_problem(pe, selector)))
    return;  // nothing is written, should the report not throw
  dispatcher.state().set_gpr(pe, selector, value);
}

void TileTop::set_status(model::NumericFlags flags) {
  if (report_started("set_status")) return;  // nothing is written, should the report not throw
  dispatcher.state().set_status(flags);
}

bool TileTop::report_started(const char* what) const {
  const bool started = sc_core::sc_start_of_simulation_invoked();
  if (started) SC_REPORT_ERROR(name(), (std::string(what) + " after the simulation started: inputs are loaded before it").c_str());
  return started;
}

bool TileTop::report_problem(const char* what, const std::optional<std::string>& problem) const {
  if (problem) SC_REPORT_ERROR(name(), (std::string(what) + ": " + *problem).c_str());
  return problem.has_value();
}

void TileTop::start_of_simulation() {
  for (const PendingPayload& p : m_pending)
    if (!debug_port.write(p.address, p.bytes.data(), p.bytes.size()))
      SC_REPORT_ERROR(name(), "input payload outside the tile memories");
  m_pending.clear();
  m_payloads_placed = true;
}

std::vector<std::uint8_t> TileTop::read_bytes(std::uint64_t address, std::uint64_t length) {
  std::vector<std::uint8_t> bytes(length, 0);
  if (m_payloads_placed) {
    debug_port.read(address, bytes.data(), bytes.size());
    return bytes;
  }
  // Before the simulation starts the memories are empty: the inputs wait to be placed (the last
  // one loaded at an address is what will be there).
  for (auto p = m_pending.rbegin(); p != m_pending.rend(); ++p) {
    if (p->address != address) continue;
    std::copy_n(p->bytes.begin(), std::min<std::size_t>(length, p->bytes.size()), bytes.begin());
    break;
  }
  return bytes;
}

model::FragmentData TileTop::read_local(unsigned index, int pe) {
  if (report_problem("read_local", model::TileState::fragment_problem(index, pe)))
    return {};  // should the report not throw
  const model::TileState& s = dispatcher.state();
  const model::LocalTile& t = s.local(index);
  const std::vector<std::uint8_t> bytes =
      read_bytes(am::fragment_address(model::TileRef::Space::Local, s.physical_index(index), pe), t.desc.capacity_bytes);
  return model::fetch_fragment(t.desc, bytes.data(), t.defined[pe]);
}

model::FragmentData TileTop::read_shared(unsigned index) {
  if (report_problem("read_shared", model::TileState::index_problem(model::TileRef::Space::Shared, index)))
    return {};  // should the report not throw
  const model::SharedTile& t = dispatcher.state().shared(index);
  const std::vector<std::uint8_t> bytes =
      read_bytes(am::fragment_address(model::TileRef::Space::Shared, index, 0), t.desc.capacity_bytes);
  return model::fetch_fragment(t.desc, bytes.data(), t.defined);
}

const std::vector<std::string>& TileTop::traceable_modules() {
  static const std::vector<std::string> modules = {"dispatcher", "sfu", "cube", "local_memory", "shared_memory", "control"};
  return modules;
}

bool TileTop::parse_modules(const std::string& list, std::vector<std::string>& modules, std::string& error) {
  const auto& known = traceable_modules();
  modules.clear();
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = list.find(',', start);
    const std::string name = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      error = "unknown module '" + name + "' in '" + list + "' (expected";
      for (std::size_t i = 0; i < known.size(); ++i) error += (i == 0 ? " " : ", ") + known[i];
      error += ")";
      return false;
    }
    modules.push_back(name);
    if (comma == std::string::npos) return true;
    start = comma + 1;
  }
}

void TileTop::trace_to(traces::VcdRecorder& rec, const std::vector<std::string>& modules) {
  // Each module reports to one recorder; a second declaration would leave the first's signals dead.
  if (m_traced) {
    SC_REPORT_ERROR(name(), "trace_to: the platform is traced already (once, before the recorder is opened)");
    return;
  }
  if (rec.opened()) {
    SC_REPORT_ERROR(name(), "trace_to: the recorder was opened already: declare the signals before opening it");
    return;
  }
  m_traced = true;
  const auto traced = [&](const char* module) { return std::find(modules.begin(), modules.end(), module) != modules.end(); };
  const std::string top = name();
  if (traced("dispatcher")) dispatcher.trace_to(rec, top + ".dispatcher");
  if (traced("sfu")) sfu.trace_to(rec, top + ".sfu");
  if (traced("cube")) cube.trace_to(rec, top + ".cube");
  if (traced("local_memory"))
    for (unsigned pe = 0; pe < model::kPeCount; ++pe) local_memory.trace_to(rec, pe, top + ".local_memory_pe" + std::to_string(pe));
  if (traced("shared_memory")) shared_memory.trace_to(rec, 0, top + ".shared_memory");
  if (traced("control")) control.trace_to(rec, top + ".control");
}

}  // namespace ptosim::platforms
