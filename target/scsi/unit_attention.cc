#include "target/scsi/unit_attention.h"

#include <algorithm>

namespace memstore::scsi {

void UnitAttentions::establish(const InitiatorPort& port, Reason r) {
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

bool passes_unit_attention(std::uint8_t opcode) {
  constexpr std::uint8_t kRequestSense = 0x03;
  constexpr std::uint8_t kInquiry = 0x12;
  constexpr std::uint8_t kReportLuns = 0xA0;
  return opcode == kRequestSense || opcode == kInquiry || opcode == kReportLuns;
}

}  // namespace memstore::scsi
