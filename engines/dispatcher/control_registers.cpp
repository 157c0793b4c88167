// SPDX-License-Identifier: BSD-3-Clause
#include "engines/dispatcher/control_registers.h"

#include <algorithm>
#include <cstring>

#include "engines/common/address_map.h"
#include "model/bundle/encoding.h"
#include "model/common/text.h"
#include "model/numeric/data_type.h"
#include "model/numeric/flags.h"
#include "model/state/tile_descriptor.h"
#include "model/state/tile_state.h"

namespace ptosim::engines {

namespace cm = control_map;

namespace {

bool read_only(std::uint64_t offset) {
  switch (offset) {
    case cm::kId:
    case cm::kVersion:
    case cm::kKernels:
    case cm::kStatus:
    case cm::kCyclesLo:
    case cm::kCyclesHi:
    case cm::kBundlesLo:
    case cm::kBundlesHi:
    case cm::kFault:
    case cm::kFaultBundle:
    case cm::kError:
    case cm::kTileAddress:
      return true;
    default:
      return false;
  }
}

static_assert(cm::kProgramMemory + cm::kProgramMemorySize == address_map::kControlSize, "the memory ends the block");

bool in_program_memory(std::uint64_t offset) { return offset >= cm::kProgramMemory; }

/// Whether `length` bytes at `offset` (in the program memory) stay within it; no sum can wrap.
bool fits_program_memory(std::uint64_t offset, std::uint64_t length) {
  return length <= cm::kProgramMemorySize && offset - cm::kProgramMemory <= cm::kProgramMemorySize - length;
}

static_assert(address_map::shared_range().base + address_map::shared_range().size <= 0xFFFF'FFFFu,
              "TILE_ADDRESS is 32 bits: every fragment lies below 4 GiB, below kNoTileAddress");

/// TILE_MASK (bit p: PE p) as a model::PeMask (PE0 its most significant bit), and back.
model::PeMask pe_mask_of(std::uint32_t bits) {
  std::uint8_t mask = 0;
  for (int pe = 0; pe < model::kPeCount; ++pe)
    if (bits >> pe & 1) mask |= static_cast<std::uint8_t>(1u << (model::kPeCount - 1 - pe));
  return model::PeMask(mask);
}
std::uint32_t bits_of(model::PeMask mask) {
  std::uint32_t bits = 0;
  for (int pe = 0; pe < model::kPeCount; ++pe)
    if (mask.has(pe)) bits |= 1u << pe;
  return bits;
}

std::uint32_t low(std::uint64_t v) { return static_cast<std::uint32_t>(v); }
std::uint32_t high(std::uint64_t v) { return static_cast<std::uint32_t>(v >> 32); }

}  // namespace

ControlRegisters::ControlRegisters(sc_core::sc_module_name name, BundleDispatcher& dispatcher,
                                   const model::ClockParams& clock)
    : sc_core::sc_module(name), target_socket("target_socket"), irq("irq"), m_dispatcher(dispatcher), m_clock(clock) {
  target_socket.register_b_transport(this, &ControlRegisters::b_transport);
  target_socket.register_transport_dbg(this, &ControlRegisters::transport_dbg);
  m_dispatcher.add_program_end_listener([this](const model::ProgramFrontEnd& ended) { on_program_end(ended); });
  SC_METHOD(drive_irq);
  sensitive << m_irq_changed;
  dont_initialize();
}

void ControlRegisters::trace_to(traces::VcdRecorder& rec, const std::string& scope) {
  m_trace_launch.attach(rec, rec.declare(scope, "launch", 1));
  m_trace_irq.attach(rec, rec.declare(scope, "irq", 1));
  m_trace_error.attach(rec, rec.declare(scope, "error", traces::VcdRecorder::width_for(static_cast<std::uint64_t>(cm::ErrorCause::BadTile))));
}

void ControlRegisters::add_kernel(std::string name, std::vector<model::Instruction> instructions) {
  if (sc_core::sc_start_of_simulation_invoked()) {
    SC_REPORT_ERROR(this->name(), ("add_kernel '" + name + "' after the simulation started: kernels are given before it").c_str());
    return;  // nothing is added, should the report not throw
  }
  m_kernels.push_back(Kernel{std::move(name), std::move(instructions)});
}

tlm::tlm_response_status ControlRegisters::check_access(const tlm::tlm_generic_payload& gp, std::string& why) const {
  const std::uint64_t offset = gp.get_address();
  const std::uint64_t length = gp.get_data_length();
  if (gp.get_byte_enable_ptr()) {
    why = "byte enables are not supported";
    return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
  }
  if (in_program_memory(offset)) {
    if (length == 0 || gp.get_streaming_width() < length) {
      why = "the program memory takes accesses of one or more bytes, not streamed";
      return tlm::TLM_BURST_ERROR_RESPONSE;
    }
    if (!fits_program_memory(offset, length)) {
      why = "past the end of the program memory";
      return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    }
    return tlm::TLM_OK_RESPONSE;
  }
  if (length != 4 || gp.get_streaming_width() < 4 || offset % 4 != 0) {
    why = "registers are accessed one aligned 32-bit word at a time";
    return tlm::TLM_BURST_ERROR_RESPONSE;
  }
  if (!read(offset)) {
    why = "no register there";
    return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  }
  if (gp.is_write() && read_only(offset)) {
    why = "the register is read-only";
    return tlm::TLM_COMMAND_ERROR_RESPONSE;
  }
  return tlm::TLM_OK_RESPONSE;
}

void ControlRegisters::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  std::string why;
  const tlm::tlm_response_status status = check_access(gp, why);
  if (status != tlm::TLM_OK_RESPONSE) {
    const char* access = gp.is_write() ? "write of " : gp.is_read() ? "read of " : "ignored access of ";
    SC_REPORT_WARNING(name(), (access + std::to_string(gp.get_data_length()) +
                               " bytes at offset " + model::hex_literal(gp.get_address()) + " refused: " + why)
                                  .c_str());
    ++m_stats.error_responses;
    gp.set_response_status(status);
    return;
  }
  if (gp.get_command() == tlm::TLM_IGNORE_COMMAND) {  // answered as the access would be, to no effect
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  // An access takes effect at the initiator's local time: a launch starts, and counters read, then.
  if (delay != sc_core::SC_ZERO_TIME) {
    sc_core::wait(delay);
    delay = sc_core::SC_ZERO_TIME;
  }
  if (in_program_memory(gp.get_address())) {
    ++m_stats.program_memory_accesses;
    move_program_bytes(gp);
  } else if (gp.is_write()) {
    ++m_stats.register_writes;
    std::uint32_t value = 0;
    std::memcpy(&value, gp.get_data_ptr(), 4);
    m_write_refused = false;
    write(gp.get_address(), value);
    if (m_write_refused) ++m_stats.refused_writes;  // once, though a CONTROL write may refuse twice
  } else {
    ++m_stats.register_reads;
    const std::uint32_t value = *read(gp.get_address());
    std::memcpy(gp.get_data_ptr(), &value, 4);
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned int ControlRegisters::transport_dbg(tlm::tlm_generic_payload& gp) {
  const std::uint64_t offset = gp.get_address();
  const unsigned int length = gp.get_data_length();
  if (in_program_memory(offset)) {  // reads and writes, as a loader would
    if (gp.get_command() == tlm::TLM_IGNORE_COMMAND || !fits_program_memory(offset, length)) return 0;
    move_program_bytes(gp);
    return length;
  }
  // Registers: reads only (a write could launch a kernel), of whole aligned words; where no
  // register is, 0.
  if (!gp.is_read() || offset % 4 != 0 || length % 4 != 0 || offset + length > cm::kProgramMemory) return 0;
  for (unsigned int i = 0; i < length; i += 4) {
    const std::uint32_t value = read(offset + i).value_or(0);
    std::memcpy(gp.get_data_ptr() + i, &value, 4);
  }
  return length;
}

void ControlRegisters::move_program_bytes(tlm::tlm_generic_payload& gp) {
  // The memory holds what was written, growing to the furthest byte; past that it reads zeros.
  const std::size_t at = gp.get_address() - cm::kProgramMemory;
  const std::size_t length = gp.get_data_length();
  if (gp.is_write()) {
    if (m_program_memory.size() < at + length) m_program_memory.resize(at + length, 0);
    std::memcpy(m_program_memory.data() + at, gp.get_data_ptr(), length);
    return;
  }
  const std::size_t held = at < m_program_memory.size() ? std::min(length, m_program_memory.size() - at) : 0;
  if (held) std::memcpy(gp.get_data_ptr(), m_program_memory.data() + at, held);
  std::memset(gp.get_data_ptr() + held, 0, length - held);
}

// A launch of ours runs exactly while the dispatcher has not finished it: it ends in the
// dispatcher's program-end listener as finished() becomes true.
bool ControlRegisters::busy() const { return !m_dispatcher.finished(); }

std::optional<std::uint32_t> ControlRegisters::read(std::uint64_t offset) const {
  // A launch still running reads its figures so far.
  const std::uint64_t cycles = m_running ? m_clock.now_cycles() - m_launch_cycle : m_cycles;
  const std::uint64_t bundles = m_running ? m_dispatcher.retired().total - m_launch_bundles : m_bundles;
  const model::TileState& state = m_dispatcher.state();
  switch (offset) {
    case cm::kId: return cm::kIdValue;
    case cm::kVersion: return cm::kMapVersion;
    case cm::kKernels: return kernels();
    case cm::kKernel: return m_kernel;
    case cm::kControl: return 0;
    case cm::kStatus:
      return (busy() ? cm::kStatusBusy : 0) | (m_done ? cm::kStatusDone : 0) | (m_fault ? cm::kStatusFault : 0) |
             (m_error != cm::ErrorCause::None ? cm::kStatusError : 0);
    case cm::kIrqEnable: return m_irq_enable;
    case cm::kIrqStatus: return m_irq_status;
    case cm::kCyclesLo: return low(cycles);
    case cm::kCyclesHi: return high(cycles);
    case cm::kBundlesLo: return low(bundles);
    case cm::kBundlesHi: return high(bundles);
    case cm::kFault: return m_fault;
    case cm::kFaultBundle: return m_fault_bundle;
    case cm::kFlags: return state.status();
    case cm::kError: return static_cast<std::uint32_t>(m_error);
    case cm::kGprPe: return m_gpr_pe;
    case cm::kGprSelect: return m_gpr_select;
    case cm::kGprValueLo: return low(state.gpr(static_cast<int>(m_gpr_pe), m_gpr_select));
    case cm::kGprValueHi: return high(state.gpr(static_cast<int>(m_gpr_pe), m_gpr_select));
    case cm::kProgramBytes: return m_program_bytes;
    case cm::kTileSpace: return m_tile.space;
    case cm::kTileIndex: return m_tile.index;
    case cm::kTileDtype: return m_tile.dtype;
    case cm::kTileLayout: return m_tile.layout;
    case cm::kTileLocation: return m_tile.location;
    case cm::kTileRows: return m_tile.rows;
    case cm::kTileCols: return m_tile.cols;
    case cm::kTileValidRows: return m_tile.valid_rows;
    case cm::kTileValidCols: return m_tile.valid_cols;
    case cm::kTileCapacity: return m_tile.capacity;
    case cm::kTileMask: return m_tile.mask;
    case cm::kTileCommand: return 0;
    case cm::kTilePe: return m_tile.pe;
    case cm::kTileAddress: return tile_address();
    default: return std::nullopt;
  }
}

void ControlRegisters::write(std::uint64_t offset, std::uint32_t value) {
  switch (offset) {
    case cm::kKernel:
      m_kernel = value;  // checked by START
      break;
    case cm::kControl:
      if (value & cm::kControlClearError) set_error(cm::ErrorCause::None);
      if (value & cm::kControlStart) start_kernel();
      if (value & cm::kControlStartProgram) start_program();
      break;
    case cm::kProgramBytes:
      if (value > cm::kProgramMemorySize)
        return refuse(cm::ErrorCause::BadProgram, "PROGRAM_BYTES " + std::to_string(value) + ": the program memory holds " +
                                                      std::to_string(cm::kProgramMemorySize) + " bytes");
      m_program_bytes = value;
      break;
    case cm::kIrqEnable:
      m_irq_enable = value & cm::kIrqDone;
      m_irq_changed.notify();
      break;
    case cm::kIrqStatus:
      m_irq_status &= ~value;
      m_irq_changed.notify();
      break;
    case cm::kFlags:
      if (busy()) return refuse(cm::ErrorCause::Busy, "FLAGS written while a program runs");
      m_dispatcher.state().set_status(static_cast<model::NumericFlags>(value & model::kAllFlags));
      break;
    case cm::kGprPe:
      if (value >= static_cast<std::uint32_t>(model::kPeCount))
        return refuse(cm::ErrorCause::NoSuchGpr, "GPR_PE " + std::to_string(value) + ": the PEs are 0.." +
                                                     std::to_string(model::kPeCount - 1));
      m_gpr_pe = value;
      break;
    case cm::kGprSelect:
      if (value == 0 || value >= static_cast<std::uint32_t>(model::kGprCount))
        return refuse(cm::ErrorCause::NoSuchGpr, "GPR_SELECT " + std::to_string(value) + ": the GPRs are 1.." +
                                                     std::to_string(model::kGprCount - 1) + " (r0 is zero)");
      m_gpr_select = value;
      break;
    case cm::kGprValueLo:
    case cm::kGprValueHi:
      write_gpr_half(offset == cm::kGprValueHi, value);
      break;
    case cm::kTileSpace: m_tile.space = value; break;  // the window's fields are checked by TILE_COMMAND
    case cm::kTileIndex: m_tile.index = value; break;
    case cm::kTileDtype: m_tile.dtype = value; break;
    case cm::kTileLayout: m_tile.layout = value; break;
    case cm::kTileLocation: m_tile.location = value; break;
    case cm::kTileRows: m_tile.rows = value; break;
    case cm::kTileCols: m_tile.cols = value; break;
    case cm::kTileValidRows: m_tile.valid_rows = value; break;
    case cm::kTileValidCols: m_tile.valid_cols = value; break;
    case cm::kTileCapacity: m_tile.capacity = value; break;
    case cm::kTileMask: m_tile.mask = value; break;
    case cm::kTileCommand:
      tile_command(value);
      break;
    case cm::kTilePe:
      if (value >= static_cast<std::uint32_t>(model::kPeCount))
        return refuse(cm::ErrorCause::NoSuchGpr, "TILE_PE " + std::to_string(value) + ": the PEs are 0.." +
                                                     std::to_string(model::kPeCount - 1));
      m_tile.pe = value;
      break;
    default:
      break;  // read-only registers never get here (check_access)
  }
}

void ControlRegisters::write_gpr_half(bool high_half, std::uint32_t value) {
  if (busy()) return refuse(cm::ErrorCause::Busy, "a GPR written while a program runs");
  model::TileState& state = m_dispatcher.state();
  const int pe = static_cast<int>(m_gpr_pe);
  const std::uint64_t old = state.gpr(pe, m_gpr_select);
  state.set_gpr(pe, m_gpr_select,
                high_half ? (old & 0xFFFF'FFFFu) | (std::uint64_t{value} << 32) : (old & ~std::uint64_t{0xFFFF'FFFFu}) | value);
}

std::optional<std::string> ControlRegisters::window_register(model::TileRef& ref) const {
  if (m_tile.space != cm::kTileSpaceLocal && m_tile.space != cm::kTileSpaceShared)
    return "TILE_SPACE " + std::to_string(m_tile.space) + " is neither 0 (Local) nor 1 (Shared)";
  const auto space = m_tile.space == cm::kTileSpaceShared ? model::TileRef::Space::Shared : model::TileRef::Space::Local;
  if (auto problem = model::TileState::index_problem(space, m_tile.index)) return "TILE_INDEX: " + *problem;
  ref = model::TileRef{space, static_cast<std::uint16_t>(m_tile.index)};
  return std::nullopt;
}

std::optional<std::string> ControlRegisters::window_descriptor(model::TileDescriptor& desc) const {
  const auto dtype = model::data_type_from_code(m_tile.dtype);
  if (!dtype) return "TILE_DTYPE " + std::to_string(m_tile.dtype) + " is no DataType code";
  if (m_tile.layout > static_cast<std::uint32_t>(model::Layout::CubeN8))
    return "TILE_LAYOUT " + std::to_string(m_tile.layout) + ": the layouts are 0..6 (RowMajor .. CUBE_N8)";
  if (m_tile.location > static_cast<std::uint32_t>(model::Location::Any))
    return "TILE_LOCATION " + std::to_string(m_tile.location) + ": the locations are 0..3 (Vector .. Any)";
  if (m_tile.mask == 0 || m_tile.mask >> model::kPeCount != 0)
    return "TILE_MASK " + model::hex_literal(m_tile.mask) + ": one or more PEs, bits 0.." + std::to_string(model::kPeCount - 1);
  for (const auto& [field, value] : {std::pair{"TILE_ROWS", m_tile.rows}, std::pair{"TILE_COLS", m_tile.cols},
                                     std::pair{"TILE_VALID_ROWS", m_tile.valid_rows}, std::pair{"TILE_VALID_COLS", m_tile.valid_cols}})
    if (value > model::kMaxDimension) return std::string(field) + " " + std::to_string(value) + ": dimensions are 16-bit";
  desc = model::TileDescriptor{};
  desc.dtype = *dtype;
  desc.layout = static_cast<model::Layout>(m_tile.layout);
  desc.location = static_cast<model::Location>(m_tile.location);
  desc.rows = m_tile.rows;
  desc.cols = m_tile.cols;
  desc.valid_rows = m_tile.valid_rows;
  desc.valid_cols = m_tile.valid_cols;
  desc.capacity_bytes = m_tile.capacity;
  desc.pe_mask = pe_mask_of(m_tile.mask);
  return std::nullopt;
}

void ControlRegisters::tile_command(std::uint32_t command) {
  if (command == cm::kTileInstall) return install_tile();
  if (command == cm::kTileDescribe) return describe_tile();
  refuse(cm::ErrorCause::BadTile, "TILE_COMMAND " + std::to_string(command) + ": 1 installs a tile, 2 describes one");
}

void ControlRegisters::install_tile() {
  if (refused_while_busy("a tile install")) return;
  model::TileRef ref;
  model::TileDescriptor desc;
  if (auto problem = window_register(ref); problem || (problem = window_descriptor(desc)))
    return refuse(cm::ErrorCause::BadTile, "tile install: " + *problem);
  model::TileState& state = m_dispatcher.state();
  if (const auto problem = state.input_tile_problem(ref.space, ref.index, desc))
    return refuse(cm::ErrorCause::BadTile, "tile install at " + ref.name() + ": " + *problem);
  // The host writes the payload over TLM: every element of the physical tile counts as defined, as
  // for a program file's raw .bin fragment.
  if (ref.is_shared()) {
    state.install_shared(ref.index, desc, desc.pe_mask, desc.pe_mask, true);
    state.shared(ref.index).defined.assign(desc.element_count(), true);
  } else {
    state.install_local(ref.index, desc);
    for (int pe = 0; pe < model::kPeCount; ++pe)
      if (desc.pe_mask.has(pe)) state.local(ref.index).defined[pe].assign(desc.element_count(), true);
  }
}

void ControlRegisters::describe_tile() {
  if (refused_while_busy("a tile description")) return;
  model::TileRef ref;
  if (const auto problem = window_register(ref)) return refuse(cm::ErrorCause::BadTile, "tile description: " + *problem);
  const model::TileState& state = m_dispatcher.state();
  const bool shared = ref.is_shared();
  if (shared ? !state.shared(ref.index).allocated : !state.local(ref.index).allocated)
    return refuse(cm::ErrorCause::BadTile, "tile description: " + ref.name() + " holds no tile");
  const model::TileDescriptor& d = shared ? state.shared(ref.index).desc : state.local(ref.index).desc;
  m_tile.dtype = static_cast<std::uint32_t>(d.dtype);
  m_tile.layout = static_cast<std::uint32_t>(d.layout);
  m_tile.location = static_cast<std::uint32_t>(d.location);
  m_tile.rows = d.rows;
  m_tile.cols = d.cols;
  m_tile.valid_rows = d.valid_rows;
  m_tile.valid_cols = d.valid_cols;
  m_tile.capacity = d.capacity_bytes;
  m_tile.mask = bits_of(shared ? state.shared(ref.index).allocation_mask : d.pe_mask);
}

std::uint32_t ControlRegisters::tile_address() const {
  model::TileRef ref;
  if (window_register(ref)) return cm::kNoTileAddress;
  const model::TileState& state = m_dispatcher.state();
  return static_cast<std::uint32_t>(address_map::fragment_address(ref.space, state.physical_slot(ref), static_cast<int>(m_tile.pe)));
}

bool ControlRegisters::refused_while_busy(const char* what) {
  if (!busy()) return false;
  refuse(cm::ErrorCause::Busy,
         std::string(what) + " while " + (m_running ? m_launched_name : std::string("a program set directly")) + " runs");
  return true;
}

void ControlRegisters::start_kernel() {
  if (refused_while_busy("START")) return;
  if (m_kernel >= kernels())
    return refuse(cm::ErrorCause::NoSuchKernel, "START of kernel " + std::to_string(m_kernel) + ": the platform was given " +
                                                    std::to_string(kernels()) + " (KERNELS)");
  const Kernel& k = m_kernels[m_kernel];
  launch(k.instructions, "kernel " + std::to_string(m_kernel) + " ('" + k.name + "')");
}

void ControlRegisters::start_program() {
  if (refused_while_busy("START_PROGRAM")) return;
  std::vector<std::uint8_t> image(m_program_bytes, 0);  // past what was written, zeros
  std::copy_n(m_program_memory.begin(), std::min(image.size(), m_program_memory.size()), image.begin());
  model::DecodedProgram decoded = model::decode_program(image, "program memory");
  if (decoded.error) return refuse(cm::ErrorCause::BadProgram, "START_PROGRAM: " + *decoded.error);
  launch(std::move(decoded.instructions), "the program in program memory");
}

void ControlRegisters::launch(std::vector<model::Instruction> instructions, std::string name) {
  m_launched_name = std::move(name);
  m_front_end.emplace(std::move(instructions));
  m_dispatcher.set_program(&*m_front_end);
  ++m_stats.launches;
  m_running = true;
  m_trace_launch.set(1, Clocked::now_ps);
  m_done = false;
  m_launch_cycle = m_clock.now_cycles();
  m_launch_bundles = m_dispatcher.retired().total;
  m_fault = 0;
  m_fault_bundle = 0;
}

void ControlRegisters::refuse(cm::ErrorCause cause, const std::string& why) {
  m_write_refused = true;
  if (m_error == cm::ErrorCause::None) set_error(cause);
  SC_REPORT_WARNING(name(), (why + ": refused (ERROR " + std::to_string(static_cast<unsigned>(cause)) + ")").c_str());
}

void ControlRegisters::set_error(cm::ErrorCause cause) {
  m_error = cause;
  m_trace_error.set(static_cast<std::uint64_t>(cause), Clocked::now_ps);
}

void ControlRegisters::on_program_end(const model::ProgramFrontEnd& ended) {
  if (!m_running || &ended != &*m_front_end) return;  // a program set directly
  m_running = false;
  m_trace_launch.set(0, Clocked::now_ps);
  m_done = true;
  m_cycles = m_dispatcher.finish_cycle() - m_launch_cycle;
  const RetiredBundles& retired = m_dispatcher.retired();
  m_bundles = retired.total - m_launch_bundles;
  if (retired.fault) {
    m_fault = static_cast<std::uint32_t>(retired.fault->fault->code) + 1;
    m_fault_bundle = static_cast<std::uint32_t>(retired.fault->id - m_launch_bundles);
  }
  m_irq_status |= cm::kIrqDone;
  m_irq_changed.notify();
}

void ControlRegisters::drive_irq() {
  const bool level = (m_irq_status & m_irq_enable) != 0;
  irq.write(level);
  m_trace_irq.set(level, Clocked::now_ps);
}

}  // namespace ptosim::engines
