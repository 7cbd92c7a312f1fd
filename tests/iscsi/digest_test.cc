// SPDX-License-Identifier: Apache-2.0
// CRC32C digests (RFC 7143 §12.1) against the published examples of RFC 3720
// Appendix B.4, whose bytes are shown in transmission order.
#include "target/iscsi/digest.h"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

namespace memstore::iscsi {
namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes incrementing(std::size_t n, std::uint8_t first = 0) {
  Bytes b(n);
  std::iota(b.begin(), b.end(), first);
  return b;
}

// RFC 3720 B.4 "iSCSI Read PDU" (a SCSI Command BHS).
const Bytes kReadPdu = {
    0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18,
    0x28, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

TEST(Crc32c, Rfc3720Vectors) {
  EXPECT_EQ(crc32c(Bytes(32, 0x00)), 0x8A9136AAu);
  EXPECT_EQ(crc32c(Bytes(32, 0xFF)), 0x62A8AB43u);
  EXPECT_EQ(crc32c(incrementing(32)), 0x46DD794Eu);
  Bytes decrementing(32);
  for (std::size_t i = 0; i < 32; ++i) decrementing[i] = static_cast<std::uint8_t>(31 - i);
  EXPECT_EQ(crc32c(decrementing), 0x113FDB5Cu);
  EXPECT_EQ(crc32c(kReadPdu), 0xD9963A56u);
}

TEST(Crc32c, CheckValue) {
  // The CRC-32C catalogue check value: "123456789" -> E3069283.
  const Bytes digits = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
  EXPECT_EQ(crc32c(digits), 0xE3069283u);
}

TEST(Crc32c, EmptyIsZero) {
  EXPECT_EQ(crc32c({}), 0u);
}

TEST(Crc32c, ContinuesAPreviousResult) {
  const Bytes all = incrementing(1000, 7);
  const std::span<const std::uint8_t> s(all);
  for (const std::size_t cut : {0u, 1u, 3u, 48u, 999u, 1000u}) {
    EXPECT_EQ(crc32c(s.subspan(cut), crc32c(s.first(cut))), crc32c(all)) << cut;
  }
}

TEST(Digest, WireOrderIsLeastSignificantByteFirst) {
  // RFC 3720 B.4 shows "CRC: aa 36 91 8a" for 32 zero bytes.
  EXPECT_EQ(digest_bytes(0x8A9136AA), (DigestBytes{0xaa, 0x36, 0x91, 0x8a}));
  EXPECT_EQ(digest_bytes(crc32c(kReadPdu)), (DigestBytes{0x56, 0x3a, 0x96, 0xd9}));
  const DigestBytes d{0x01, 0x02, 0x03, 0x04};
  EXPECT_EQ(digest_value(d), 0x04030201u);
}

TEST(Digest, AppendThenCheck) {
  Bytes pdu = kReadPdu;
  append_digest(pdu, pdu);  // the covered bytes are the vector itself
  ASSERT_EQ(pdu.size(), 52u);
  EXPECT_EQ(pdu[48], 0x56);
  EXPECT_EQ(pdu[51], 0xd9);
  const std::span<const std::uint8_t> all(pdu);
  EXPECT_TRUE(check_digest(all.first(48), all.subspan<48, 4>()));
}

TEST(Digest, CheckFailsOnAnyFlippedBit) {
  Bytes pdu = kReadPdu;
  append_digest(pdu, pdu);
  for (std::size_t bit = 0; bit < pdu.size() * 8; ++bit) {
    Bytes bad = pdu;
    bad[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
    const std::span<const std::uint8_t> all(bad);
    ASSERT_FALSE(check_digest(all.first(48), all.subspan<48, 4>())) << bit;
  }
}

TEST(Digest, DataDigestCoversPadding) {
  // A 5-byte data segment is sent with 3 zero pad bytes; the digest covers 8.
  const Bytes data = {1, 2, 3, 4, 5};
  Bytes padded = data;
  padded.resize(8, 0);
  EXPECT_NE(crc32c(data), crc32c(padded));
  Bytes wire = padded;
  append_digest(wire, padded);
  const std::span<const std::uint8_t> all(wire);
  EXPECT_TRUE(check_digest(all.first(8), all.subspan<8, 4>()));
}

}  // namespace
}  // namespace memstore::iscsi
