// SPDX-License-Identifier: BSD-3-Clause
// TileMemory: a TLM-2.0 target holding tile payloads around model::TileStorage: one or more alike
// memories ("instances": the Local memories of the PEs, or the one Shared memory) side by side.
// Instance i's slot s occupies [(i * slots + s) * slot_stride, ... + slot_stride). Each instance has
// its own ports, banks and latency (model::MemoryPortModel, given addresses within the instance),
// counters and traced port activity. The target grants DMI per slot (a slot's storage never moves,
// so grants are never revoked), serves debug transport, and times TLM_IGNORE_COMMAND transactions
// that carry a BurstTrain extension as bursts, without moving data.
//
// Mirroring: the PEs of a command stream alike operands into their Local memories, so an engine
// sends the first PE's streams with placeholders for copies of them (see BurstTrain). While every
// instance has booked what instance 0 has, instance 0 books such a train for all of them and the
// other instances count it (what instance 0 counts from the start of the mirroring), their calendars
// and counts caught up when they part; otherwise the memory
// fills the copies in and books each. It is exact: the copies are alike by the initiator's word,
// the instances by the memory's bookkeeping, and instances that parted mirror again only once
// their bookings that can still delay an access are equal. Port activity is traced per instance,
// instance 0's bookings counting for all while they mirror (through a mirror group of the
// recorder, which writes the instances as one signal until they part).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "engines/common/clocked.h"
#include "model/common/invariant_divisor.h"
#include "model/memory/port_model.h"
#include "model/state/tile_storage.h"
#include "traces/vcd_recorder.h"

namespace ptosim::engines {

struct BurstTrain;

class TileMemory : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(TileMemory);
  tlm_utils::simple_target_socket<TileMemory> target_socket;

  TileMemory(sc_core::sc_module_name name, unsigned instances, unsigned slots, std::uint64_t slot_stride,
             const model::MemoryParams& params, const model::ClockParams& clock);

  unsigned instances() const { return static_cast<unsigned>(m_instances.size()); }
  std::uint64_t instance_bytes() const { return m_instance_bytes.divisor(); }
  std::uint64_t size_bytes() const { return instances() * instance_bytes(); }
  std::uint64_t bytes_read(unsigned instance) const;
  std::uint64_t bytes_written(unsigned instance) const;
  model::MemoryPortModel::Counts port_counts(unsigned instance) const;
  /// Whether instances 1.. mirror instance 0 now (see the header).
  bool mirroring() const { return m_mirroring; }
  /// Declares an instance's traced "active_ports" signal (accesses holding a port) under `scope`.
  void trace_to(traces::VcdRecorder& rec, unsigned instance, const std::string& scope);

 private:
  struct Instance {
    explicit Instance(const model::MemoryParams& params) : ports(params) {}
    model::MemoryPortModel ports;
    std::uint64_t bytes_read = 0;
    std::uint64_t bytes_written = 0;
    int trace_group = -1;  ///< the recorder's group of its traced "active_ports" signal, if any
  };

  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& gp);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi);
  /// Whether [addr, addr + len) lies in one slot.
  bool in_slot(std::uint64_t addr, std::uint64_t len) const {
    return m_slot_stride.quotient(addr) < m_storage.slot_count() && m_slot_stride.remainder(addr) + len <= m_slot_stride.divisor();
  }
  unsigned instance_of(std::uint64_t addr) const { return static_cast<unsigned>(m_instance_bytes.quotient(addr)); }
  /// Makes `slot`'s bytes cover its first `bytes` (at most the stride).
  void grow_slot(unsigned slot, std::uint64_t bytes);
  struct ActivityRun;
  /// Books an access to `instance` at `offset` within it, arriving at cycle `arrival` (it is cycle
  /// `now`); returns the grant. Its traced port activity is reported at once, or gathered into
  /// `runs` (see trace_activity).
  model::MemoryPortModel::Grant book(unsigned instance, std::uint64_t now, std::uint64_t arrival, std::uint64_t offset,
                                     std::uint64_t len, std::vector<ActivityRun>* runs);
  /// Books `train`'s bursts, its addresses `shift` above this memory's; `delay` becomes the last
  /// completion. Nothing is booked if the train's streams do not split into groups of its group
  /// size (a generic error) or a group's transfers do not lie in slots of one instance, later than
  /// the previous group's, or its copies run past the last instance (an address error).
  tlm::tlm_response_status book_train(BurstTrain& train, std::uint64_t shift, sc_core::sc_time& delay);
  /// Lets every instance book for itself again (catching up the calendars of those that mirrored).
  void stop_mirroring();
  /// TLM_OK_RESPONSE if `gp` is an access this target serves (whole bytes within one slot), else
  /// the error that names why not.
  tlm::tlm_response_status access_status(const tlm::tlm_generic_payload& gp) const;
  /// Copies between the payload and storage, for an access access_status() accepts (a read never
  /// grows a slot).
  void move_data(tlm::tlm_generic_payload& gp);

  Clocked m_clock;
  model::InvariantDivisor m_slot_stride;
  model::InvariantDivisor m_instance_bytes;
  model::TileStorage m_storage;  ///< the slots of all instances, instance by instance
  std::vector<Instance> m_instances;
  bool m_mirroring = false;  ///< instances 1.. book what instance 0 books (see the header)
  std::vector<unsigned> m_group_instance;   ///< per-train scratch: the instance of each group
  /// Instance 0's counts and bytes when the mirroring began: each other instance has since counted
  /// what instance 0 counted beyond them.
  model::MemoryPortModel::Counts m_mirror_from;
  std::uint64_t m_mirror_read_from = 0;
  std::uint64_t m_mirror_written_from = 0;
  /// Instances 1.. mirror instance 0 from now on.
  void start_mirroring();
  /// The instance of group `g` of `train` (all of its transfers still to book), kNone if it has
  /// nothing left to book; false if a transfer lies outside a slot or the instance.
  static constexpr unsigned kNone = ~0u;
  bool group_instance(const BurstTrain& train, std::size_t g, std::uint64_t shift, unsigned& instance) const;

  // Port activity is traced as a count of the bookings holding an instance's ports: each booking
  // adds one at its start and takes it away at its end, ahead of the caller's time, for its
  // instance or, while they mirror, for all of them. A train's bookings are gathered into runs
  // before they are reported: one that starts where an earlier one of its group ends extends it,
  // as the -1 and +1 there cancel, which spares the writer a pair of scheduled additions (an
  // operand streamed in several bursts on one port is one run).
  struct ActivityRun {
    int group;
    std::uint64_t start;
    std::uint64_t end;  ///< exclusive, in cycles
  };
  /// Reports activity over cycles [start, end) to `group`: at once, or, given `runs`, into them.
  void trace_activity(int group, std::uint64_t start, std::uint64_t end, std::vector<ActivityRun>* runs);
  /// Reports the runs a train gathered (m_runs) and empties them.
  void report_runs();
  traces::VcdRecorder* m_recorder = nullptr;
  int m_trace_all = -1;  ///< the group of every traced instance's signal: the mirrored bookings
  std::vector<ActivityRun> m_runs;  ///< a train's, while it books
};

}  // namespace ptosim::engines
