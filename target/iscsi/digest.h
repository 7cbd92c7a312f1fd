// SPDX-License-Identifier: Apache-2.0
// Header and data digests (RFC 7143 §12.1, §13.1): CRC32C (Castagnoli,
// generator 0x11EDC6F41), register preset to all ones, result complemented.
// On the wire the 4 digest bytes are least significant byte first (the
// byte order of the examples in RFC 3720 Appendix B.4). Covered bytes: the
// BHS and AHS for the header digest; the data segment including its padding
// for the data digest.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace memstore::iscsi {

inline constexpr std::size_t kDigestSize = 4;
using DigestBytes = std::array<std::uint8_t, kDigestSize>;

// CRC32C of `data`. Pass a previous result as `previous` to continue it:
// crc32c(b, crc32c(a)) == crc32c(a followed by b); crc32c({}) == 0.
std::uint32_t crc32c(std::span<const std::uint8_t> data, std::uint32_t previous = 0);

// The transmitted form of a digest value (little-endian) and back.
DigestBytes digest_bytes(std::uint32_t crc);
std::uint32_t digest_value(std::span<const std::uint8_t, kDigestSize> bytes);

// Appends the digest of `covered` to `out`; `covered` may be (part of) `out`.
void append_digest(std::vector<std::uint8_t>& out, std::span<const std::uint8_t> covered);

// True when `received` is the digest of `covered`.
bool check_digest(std::span<const std::uint8_t> covered,
                  std::span<const std::uint8_t, kDigestSize> received);

}  // namespace memstore::iscsi
