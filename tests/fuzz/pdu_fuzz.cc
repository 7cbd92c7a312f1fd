// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the iSCSI codec: the first 48 bytes as a BHS through
// both dispatching decoders, the rest as a SCSI Command's AHS and as a text
// data segment. Nothing may crash; whatever decodes must re-encode to bytes
// that decode to the same value, and parsed text must survive serialising.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <variant>
#include <vector>

#include "target/iscsi/digest.h"
#include "target/iscsi/pdu.h"
#include "target/iscsi/text_keys.h"

namespace {

using namespace memstore::iscsi;

void check(bool ok) {
  if (!ok) std::abort();
}

template <typename Pdus>
void round_trip(const memstore::Expected<Pdus, PduError>& decoded,
                memstore::Expected<Pdus, PduError> (*decode)(const Bhs&)) {
  if (!decoded.ok()) {
    check(!decoded.error().what.empty());
    return;
  }
  const auto again = decode(encode(*decoded));
  check(again.ok() && *again == *decoded);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < kBhsSize) return 0;
  const std::span<const std::uint8_t> input(data, size);
  Bhs bhs{};
  std::copy_n(data, kBhsSize, bhs.begin());
  round_trip(decode_initiator_pdu(bhs), &decode_initiator_pdu);
  round_trip(decode_target_pdu(bhs), &decode_target_pdu);
  (void)decode_lun(LunBytes{bhs[8], bhs[9], bhs[10], bhs[11], bhs[12], bhs[13], bhs[14], bhs[15]});

  const auto rest = input.subspan(kBhsSize);
  const std::size_t ahs_bytes =
      std::min<std::size_t>(rest.size() & ~std::size_t{3}, std::size_t{total_ahs_length(bhs)} * 4);
  const auto ahs = decode_ahs(rest.first(ahs_bytes));
  if (ahs.ok() && ahs->extended_cdb.size() <= 244) {
    const auto again = decode_ahs(encode_ahs(*ahs));
    check(again.ok() && *again == *ahs);
  }

  const auto text = parse_text(rest);
  if (text.ok()) {
    const auto again = parse_text(serialize_text(*text));
    check(again.ok() && *again == *text);
    for (const TextPair& p : *text) {
      (void)parse_numerical(p.value);
      (void)parse_large_numerical(p.value);
      (void)split_value_list(p.value);
    }
  }
  (void)crc32c(input);
  return 0;
}
