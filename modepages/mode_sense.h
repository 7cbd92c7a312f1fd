// SPDX-License-Identifier: Apache-2.0
// MODE SENSE(6/10) and MODE SELECT(6/10) over one table of mode pages (SPC-4
// MODE SENSE, MODE SELECT and "Mode parameters"; SBC-3 "Mode parameters").
// Every page the device has is a row of ModeState's table — code, subpage,
// default, changeable mask, current value, and an optional semantic check —
// and everything else (page 3Fh, the set of supported pages, MODE SELECT's
// checks) is generated from it.
//
// Nothing is savable: pages carry PS = 0, MODE SENSE with PC = 11b (saved)
// fails with SAVING PARAMETERS NOT SUPPORTED (SPC-4, MODE SENSE page
// control field), and MODE SELECT with SP = 1 is INVALID FIELD IN CDB.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "model/disk_presets.h"
#include "model/params.h"
#include "modepages/bytes.h"
#include "modepages/field_error.h"
#include "modepages/mode_vendor.h"

namespace memstore::modepages {

// A proposed current value of a page, checked beyond its changeable mask;
// errors name byte `at` + the field's offset in the page.
using PageCheck = FieldStatus (*)(std::span<const std::uint8_t> page, std::uint16_t at);

// One row of the page table. All images are whole pages, header included;
// `changeable` is what MODE SENSE returns for PC = 01b.
struct ModePage {
  std::uint8_t code = 0;
  std::uint8_t subpage = 0;  // 0: page_0 format; else sub_page format (SPF = 1)
  Bytes defaults;
  Bytes changeable;
  Bytes current;
  PageCheck check = nullptr;
  // A control page: its values change how the LUN times every initiator's
  // commands, so only some initiators may change it (mode_select's
  // `may_change_control`; target/scsi/control_access.h).
  bool control = false;
  bool read_only() const;  // no changeable bit
};

// What the LUN decides about its mode pages (from its configuration).
struct ModeOptions {
  bool write_cache = true;             // WCE's default
  bool write_cache_changeable = true;  // may the host switch WCE?
  bool power_changeable = true;        // may the host change page 1Ah?
  ControlPage control{};               // page 22h's defaults
};

class ModeState {
 public:
  // REQUIRES: model::validate(params) is empty. An invalid options.control
  // (unknown scheduler or timing mode, scale 0) is replaced by ControlPage{}.
  ModeState(const model::DeviceParams& params, const ModeOptions& options);
  // A rotating disk of `blocks` blocks: the standard pages, Format Device
  // (03h) and Rigid Disk Geometry (04h) from its parameters (mode_disk.h),
  // and the control page 22h. No MEMStore page (1Ah, 20h, 21h): the disk
  // model has no power states and no probe-tip geometry, so a MODE SENSE of
  // them is INVALID FIELD IN CDB like any page the device lacks. Caching's
  // RCD is 0 when the disk has a read cache. REQUIRES: model::validate(disk)
  // is empty.
  ModeState(const model::ZonedDiskParams& disk, std::uint64_t blocks, const ModeOptions& options);

  // The page table, in ascending (code, subpage) order.
  std::span<const ModePage> pages() const { return pages_; }
  const ModePage* find(std::uint8_t code, std::uint8_t subpage) const;
  // (code, subpage) of every page, generated from the table.
  std::vector<std::pair<std::uint8_t, std::uint8_t>> supported_pages() const;

  // Capacity the MODE SELECT block descriptor is checked against.
  std::uint64_t blocks() const { return blocks_; }
  std::uint32_t block_size() const { return block_size_; }

  // Current values the LUN acts on.
  bool wce() const;
  bool d_sense() const;
  // The idle timeout of page 1Ah in ns (-1 = never spin down): exactly the
  // configured model::PowerParams::idle_timeout_ns while the page holds its
  // default (or when there is no page 1Ah), else its standby_z timer x 100 ms.
  std::int64_t idle_timeout_ns() const;
  ControlPage control() const;

  // Page 20h lists the device's failed tips (a fault rule failed them); the
  // page's default, current and changeable images change length with the
  // list. The caller raises MODE PARAMETERS CHANGED when the list changes.
  void set_failed_tips(std::vector<FailedTip> tips);
  const std::vector<FailedTip>& failed_tips() const { return geometry_.failed_tips; }

 private:
  friend FieldStatus mode_select(ModeState&, bool, bool, bool, std::span<const std::uint8_t>, bool);
  const Bytes& current(std::uint8_t code) const;
  // Pages 08h, 0Ah, 1Ch and 22h, which every LUN has, followed by `own`;
  // the table sorted.
  void set_pages(const ModeOptions& options, bool read_cache, std::vector<ModePage> own);

  std::vector<ModePage> pages_;
  std::uint64_t blocks_;
  std::uint32_t block_size_;
  std::int64_t configured_idle_timeout_ns_;
  GeometryPage geometry_;  // page 20h as the parameters give it
};

enum class PageControl : std::uint8_t { kCurrent = 0, kChangeable = 1, kDefault = 2, kSaved = 3 };

inline constexpr std::uint8_t kAllPages = 0x3F;
inline constexpr std::uint8_t kAllSubpages = 0xFF;

// The decoded fields of a MODE SENSE(6) or (10) CDB, plus what the LUN knows.
struct ModeSenseRequest {
  bool ten = false;  // MODE SENSE(10)
  PageControl pc = PageControl::kCurrent;
  std::uint8_t page = 0;
  std::uint8_t subpage = 0;
  bool dbd = false;    // disable block descriptors
  bool llbaa = false;  // long LBA block descriptor (MODE SENSE(10) only)
  std::uint64_t blocks = 0;
  std::uint32_t block_size = 0;
  bool write_protected = false;
  std::uint16_t alloc_len = 0;  // not applied here: the caller truncates
};

// The full mode parameter data: header, block descriptor unless DBD, pages.
// Page 3Fh lists every page in ascending code order; with subpage FFh (or a
// page code with subpage FFh) subpages too — the device has none, so that
// is the same list. MODE SENSE(6) can describe at most 256 bytes of mode
// data (a 1-byte MODE DATA LENGTH): its 3Fh response stops before the first
// page that would not fit. Errors: unsupported page -> INVALID FIELD IN CDB
// byte 2 bit 5; unsupported subpage -> byte 3; PC = 11b -> SAVING
// PARAMETERS NOT SUPPORTED (byte 2 bit 7).
Expected<Bytes, FieldError> mode_sense(const ModeState& state, const ModeSenseRequest& req);

// Applies a MODE SELECT(6) (ten = false) or (10) parameter list: header,
// optional block descriptor (must match the capacity and block size), pages.
// Each page must be supported, have PS = 0 and its exact page length, and
// change only changeable bits relative to the current value; then its
// semantic check runs. All or nothing: on error the state is unchanged.
// An empty list changes nothing (SPC-4 MODE SELECT: not an error).
//
// Without `may_change_control`, a control page (ModePage::control) that
// differs from its current value in any byte is refused with kAccessDenied
// at the page's code (byte 0 bit 5 of the page), before its fields are
// checked; sending it back unchanged is accepted.
FieldStatus mode_select(ModeState& state, bool ten, bool pf, bool sp,
                        std::span<const std::uint8_t> param_list, bool may_change_control = true);

}  // namespace memstore::modepages
