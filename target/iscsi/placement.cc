#include "target/iscsi/placement.h"

#include <variant>
#include <vector>

#include "target/iscsi/text_keys.h"

namespace memstore::iscsi {

const void* target_loop(const Bhs& bhs, std::span<const std::uint8_t> rest,
                        const std::function<const TargetContext*(std::string_view)>& find) {
  constexpr std::uint8_t kLoginRequest = 0x03;  // RFC 7143 §11.12
  if ((bhs[0] & 0x3F) != kLoginRequest) return nullptr;
  const std::size_t ahs = std::size_t{bhs[4]} * 4;
  const std::size_t length = (std::size_t{bhs[5]} << 16) | (std::size_t{bhs[6]} << 8) | bhs[7];
  if (rest.size() < ahs + length) return nullptr;
  const auto keys = parse_text(rest.subspan(ahs, length));
  const auto* pairs = std::get_if<std::vector<TextPair>>(&keys);
  if (pairs == nullptr) return nullptr;
  const TargetContext* target = nullptr;
  for (const TextPair& p : *pairs) {
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
