// SPDX-License-Identifier: Apache-2.0
// A LUN's identity: the unit serial number (VPD 80h) and the NAA designator
// (VPD 83h). Hosts key multipath, udev's /dev/disk/by-id links and fstab
// entries on them, so they must survive a restart of memstored. For an
// image-backed LUN they are generated once (from getrandom(2)) and kept
// beside the image as "<image>.identity":
//
//   # memstore LUN identity for /srv/lun0.img; keep this file with the image.
//   serial = 3F09A1C2D4E5B687
//   naa = 0x3A1B2C3D4E5F6071
//
// Format: `key = value` lines; blank lines and lines starting with '#' are
// ignored. `serial`: 1-64 printable ASCII characters, no spaces. `naa`: the
// whole 8-byte NAA designator as 0x + 16 hex digits; its first digit, the NAA
// field, is 2, 3 or 5 (SPC-4 §7.8.6.6: the 8-byte formats). A generated one is
// NAA 3 (locally assigned) with 60 random bits. Both keys once each, nothing else.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "base/expected.h"
#include "target/scsi/backing_store.h"

namespace memstore::scsi {

struct LunIdentityRecord {
  std::string serial;
  std::uint64_t naa_id = 0;  // NAA field in the top 4 bits

  bool operator==(const LunIdentityRecord&) const = default;
};

using IdentityResult = Expected<LunIdentityRecord>;

// "<image_path>.identity"
std::string identity_path(const std::string& image_path);

// Reads the identity file beside the image, or creates it if absent. The new
// file is written atomically (temporary file, fsync, link into place, fsync of
// the directory); when two processes race, both return the one that won.
// Errors name the file, and for malformed content the line.
IdentityResult load_or_create_identity(const std::string& image_path);

// The parser and printer behind it. `source` names the text in messages.
IdentityResult parse_identity(std::string_view text, const std::string& source);
std::string format_identity(const LunIdentityRecord& id, const std::string& image_path);

// For in-memory LUNs: a fixed function of `name` (FNV-1a, then mixed), so the
// same name gives the same identity on every run. Pass a name that is unique
// among the targets a host sees, e.g. "<target IQN>/<lun>".
LunIdentityRecord identity_for_name(std::string_view name);

}  // namespace memstore::scsi
