// SPDX-License-Identifier: Apache-2.0
// Session: write data received in place (Session::landing). A 128 KB write
// would otherwise come in twice: from the socket into the connection's
// buffer, then into the task's (12.6% of the daemon's time in memmove:
// docs/benchmarks/log/2026-11-27.md, "Full scale, quiet machine, after
// connection placement"). The connection reads a segment straight into
// the buffer the session lends it here.
#include "target/iscsi/session.h"
#include "target/iscsi/session_task.h"

namespace memstore::iscsi {
namespace {

// Enough for the commands of one read from the socket; beyond that, let go.
constexpr std::size_t kSpareWrites = 4;

}  // namespace

std::optional<Session::Landing> Session::landing(const Bhs& bhs) {
  const std::uint32_t length = data_segment_length(bhs);
  // With an AHS (a long CDB) the segment does not start right after the
  // header digest: those few PDUs take the copying path.
  if (!full_feature_ || logged_out_ || length == 0 || total_ahs_length(bhs) != 0) return {};
  const auto decoded = decode_initiator_pdu(bhs);
  if (!decoded.ok()) return {};
  if (const auto* cmd = std::get_if<ScsiCommandPdu>(&*decoded)) {
    // Immediate data: no task yet, so a spare buffer that on_command hands
    // to the new task, whatever else it decides.
    if (discovery_session_ || !cmd->write) return {};
    Landing l;
    if (!spare_writes_.empty()) {
      l.buffer = std::move(spare_writes_.back());
      spare_writes_.pop_back();
    }
    if (l.buffer.size() < length) l.buffer.resize(length);
    return l;
  }
  const auto* out = std::get_if<DataOutPdu>(&*decoded);
  if (out == nullptr) return {};
  auto [task, expected] = data_out_place(*out, length);
  // Only a segment kept whole, right after what is kept; data past the
  // CDB's own length, and refusals, take the copying path.
  if (expected == nullptr || task->kept != task->received ||
      std::uint64_t{task->received} + length > task->wanted) {
    return {};
  }
  task->room(length);  // the buffer reaches the segment's end
  return Landing{std::move(task->data), task->kept, task->tag};
}

void Session::land(const Bhs& bhs, Landing landing, bool arrived) {
  const auto decoded = decode_initiator_pdu(bhs);  // as landing() decoded it
  const InitiatorPdu& pdu = *decoded;
  const auto data = std::span<const std::uint8_t>(landing.buffer)
                        .subspan(landing.offset, data_segment_length(bhs));
  if (const auto* cmd = std::get_if<ScsiCommandPdu>(&pdu)) {
    if (arrived && !logged_out_) on_command(*cmd, {}, data, &landing.buffer);
    if (spare_writes_.size() < kSpareWrites) spare_writes_.push_back(std::move(landing.buffer));
    return;
  }
  const auto& out = std::get<DataOutPdu>(pdu);
  auto it = tasks_.find(out.itt);
  // The task went while its data came (a reset): its buffer goes too.
  if (it == tasks_.end() || it->second->tag != landing.tag) return;
  Task& t = *it->second;
  t.data = std::move(landing.buffer);
  // Not arrived: what the buffer holds past `kept` does not count.
  if (arrived) on_data_out(out, data, true);
}

}  // namespace memstore::iscsi
