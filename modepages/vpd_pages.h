// SPDX-License-Identifier: Apache-2.0
// Standard INQUIRY data (SPC-4 §6.4.2) and the vital product data pages a
// direct-access block device answers (SPC-4 §7.8, SBC-3 §6.6).
//
// Pages come from one table of {page code, encoder}; page 00h (Supported VPD
// Pages) is generated from that table, so the list cannot drift from what
// exists. Encoders return the whole page: the target applies the allocation
// length in one place.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/geometry.h"
#include "modepages/bytes.h"

namespace memstore::modepages {

// Version descriptor codes (SPC-4 §6.4.2 version descriptor values, "no version claimed" forms).
inline constexpr std::uint16_t kVersionSam5 = 0x00A0;
inline constexpr std::uint16_t kVersionSpc4 = 0x0460;
inline constexpr std::uint16_t kVersionSbc3 = 0x04C0;
inline constexpr std::uint16_t kVersionIscsi = 0x0960;

struct LunIdentity {
  std::string vendor = "MEMSTORE";      // T10 vendor identification, 8 ASCII
  std::string product = "MEMStore G2";  // 16 ASCII, space padded
  std::string revision = "0001";        // 4 ASCII, space padded
  // VPD 80h, and the T10 vendor ID designator of page 83h (which holds its
  // first 231 characters: a designator length is one byte).
  std::string serial;
  // Bits 59..0 identify the LU; the NAA nibble is always 3 (locally
  // assigned, SPC-4 §7.8.6, NAA designator), so bits 63..60 given here are ignored.
  std::uint64_t naa_id = 0;
  // Up to 8 (SPC-4 §6.4.2: bytes 58..73); extra ones are dropped. A transport
  // may add its own (kVersionIscsi).
  std::vector<std::uint16_t> version_descriptors = {kVersionSam5, kVersionSpc4, kVersionSbc3};
};

// SBC-3 §6.6.3 (Block Limits, page length 3Ch). 0 means "not reported" for
// every limit, as the standard defines.
struct BlockLimits {
  bool wsnz = false;                        // WRITE SAME with 0 blocks refused
  std::uint8_t max_compare_and_write = 0;   // blocks
  std::uint16_t optimal_granularity = 0;    // blocks; p for a MEMStore
  std::uint32_t max_transfer = 0;           // blocks
  std::uint32_t optimal_transfer = 0;       // blocks; ST (one track) for a MEMStore
  std::uint32_t max_unmap_lba_count = 0;    // blocks
  std::uint32_t max_unmap_descriptors = 0;  // UNMAP block descriptors
  std::uint32_t optimal_unmap_granularity = 0;
  std::optional<std::uint32_t> unmap_granularity_alignment;  // set: UGAVALID = 1
  std::uint64_t max_write_same = 0;                          // blocks
};

// Granularity p and optimal length ST from the virtual geometry (docs/design.md,
// "What an unmodified host sees"); other fields
// left at "not reported". Values that do not fit a field saturate.
BlockLimits block_limits_for(const model::Geometry& geometry);

// SBC-3 §6.6.4 (Logical Block Provisioning). Defaults: thin provisioned,
// UNMAP and WRITE SAME(10/16) with UNMAP supported, unmapped blocks read zeros.
struct ProvisioningInfo {
  std::uint8_t threshold_exponent = 0;
  bool lbpu = true;                    // UNMAP
  bool lbpws = true;                   // WRITE SAME(16) with UNMAP
  bool lbpws10 = true;                 // WRITE SAME(10) with UNMAP
  bool lbprz = true;                   // unmapped LBAs read as zeros
  std::uint8_t provisioning_type = 2;  // 0 full, 1 resource, 2 thin
};

// SBC-3 §6.6.2 (Block Device Characteristics).
enum class FormFactor : std::uint8_t {
  kNotReported = 0,
  k5_25in = 1,
  k3_5in = 2,
  k2_5in = 3,
  k1_8in = 4,
  kBelow1_8in = 5,
};
inline constexpr std::uint16_t kRotationNotReported = 0x0000;
inline constexpr std::uint16_t kNonRotating = 0x0001;
struct RotationInfo {
  // 0 = not reported (docs/design.md default: Linux keeps rotational=1), 1 =
  // non-rotating medium, 0401h..FFFEh = nominal rpm.
  std::uint16_t medium_rotation_rate = kRotationNotReported;
  FormFactor form_factor = FormFactor::kNotReported;
};
// True for the values SBC-3 §6.6.2 defines: 0, 1, 0401h..FFFEh (others are reserved).
bool valid_rotation_rate(std::uint16_t rate);

// Everything the VPD encoders read. `extra_designators` are complete
// designation descriptors (see make_designator) a transport appends to page
// 83h: target port name, relative target port, target port group...
// Lifetime: the spans must outlive the vpd_page() call only.
struct VpdInputs {
  LunIdentity identity;
  BlockLimits limits;
  ProvisioningInfo provisioning;
  RotationInfo rotation;
  std::span<const Bytes> extra_designators;
};

// The page for `code`, or nullopt when the page is not supported (the
// target answers INVALID FIELD IN CDB, byte 2).
std::optional<Bytes> vpd_page(std::uint8_t code, const VpdInputs& in);

// The page codes in the table, ascending (the body of page 00h).
std::vector<std::uint8_t> supported_vpd_pages();

// Standard INQUIRY data, 96 bytes (SPC-4 §6.4.2): direct-access device,
// SPC-4, response data format 2, HISUP, CMDQUE.
Bytes standard_inquiry(const LunIdentity& identity);

// One designation descriptor (SPC-4 §7.8.6). `protocol` set: PIV = 1 and
// the protocol identifier (SPC-4 §7.6, 5h = iSCSI) — only meaningful for
// target-port and target-device associations.
// REQUIRES: value.size() <= 255.
enum class CodeSet : std::uint8_t { kBinary = 1, kAscii = 2, kUtf8 = 3 };
enum class Association : std::uint8_t { kLogicalUnit = 0, kTargetPort = 1, kTargetDevice = 2 };
enum class DesignatorType : std::uint8_t {
  kVendorSpecific = 0,
  kT10VendorId = 1,
  kEui64 = 2,
  kNaa = 3,
  kRelativeTargetPort = 4,
  kTargetPortGroup = 5,
  kLogicalUnitGroup = 6,
  kMd5LogicalUnit = 7,
  kScsiNameString = 8,
};
Bytes make_designator(CodeSet code_set, Association association, DesignatorType type,
                      std::span<const std::uint8_t> value,
                      std::optional<std::uint8_t> protocol = std::nullopt);

}  // namespace memstore::modepages
