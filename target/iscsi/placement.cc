// SPDX-License-Identifier: Apache-2.0
#include "target/iscsi/placement.h"

#include <variant>
#include <vector>

#include "target/iscsi/text_keys.h"

namespace memstore::iscsi {

const void* target_loop(const Bhs& bhs, std::span<const std::uint8_t> rest,
                        const std::function<const TargetContext*(std::string_view)>& find) {
  if (opcode_of(bhs) != Opcode::kLoginRequest) return nullptr;
  const std::size_t ahs = std::size_t{total_ahs_length(bhs)} * 4;
  const std::size_t length = data_segment_length(bhs);
  if (rest.size() < ahs + length) return nullptr;
  const auto keys = parse_text(rest.subspan(ahs, length));
  if (!keys.ok()) return nullptr;
  const TargetContext* target = nullptr;
  for (const TextPair& p : *keys) {
    // A discovery session has no LUNs; its TargetName, if any, is ignored.
    if (p.key == "SessionType" && p.value == "Discovery") return nullptr;
    if (p.key == "TargetName") target = find(p.value);
  }
  if (target == nullptr) return nullptr;
  const void* home = nullptr;
  for (const auto& [id, lun] : target->luns) {
    const void* loop = lun->loop();
    if (loop == nullptr) continue;  // gone, or not known
    if (home != nullptr && loop != home) return nullptr;
    home = loop;
  }
  return home;
}

}  // namespace memstore::iscsi
