// SPDX-License-Identifier: Apache-2.0
#include "target/scsi/unit_attention.h"

#include <algorithm>

namespace memstore::scsi {

void UnitAttentions::establish(const InitiatorPort& port, Reason r) {
  if (!queues_.contains(port) && queues_.size() >= kMaxPorts && !evict_absent()) return;
  std::deque<Reason>& q = queues_[port];
  if (q.size() >= kMaxQueued || std::find(q.begin(), q.end(), r) != q.end()) return;
  q.push_back(r);
}

std::optional<Reason> UnitAttentions::take(const InitiatorPort& port) {
  const auto it = queues_.find(port);
  if (it == queues_.end()) return std::nullopt;
  const Reason r = it->second.front();
  it->second.pop_front();
  if (it->second.empty()) queues_.erase(it);
  return r;
}

void UnitAttentions::port_left(const InitiatorPort& port) {
  if (!queues_.contains(port)) return;
  // Entries whose conditions were taken or forgotten since are dropped
  // before the list outgrows the map it indexes.
  if (absent_.size() >= kMaxPorts) {
    std::erase_if(absent_, [this](const InitiatorPort& p) { return !queues_.contains(p); });
  }
  absent_.push_back(port);
}

void UnitAttentions::port_returned(const InitiatorPort& port) {
  std::erase(absent_, port);
}

bool UnitAttentions::evict_absent() {
  while (!absent_.empty()) {
    const InitiatorPort oldest = std::move(absent_.front());
    absent_.pop_front();
    if (queues_.erase(oldest) > 0) return true;
  }
  return false;
}

bool passes_unit_attention(std::uint8_t opcode) {
  constexpr std::uint8_t kRequestSense = 0x03;
  constexpr std::uint8_t kInquiry = 0x12;
  constexpr std::uint8_t kReportLuns = 0xA0;
  return opcode == kRequestSense || opcode == kInquiry || opcode == kReportLuns;
}

}  // namespace memstore::scsi
