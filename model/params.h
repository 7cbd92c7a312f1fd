// SPDX-License-Identifier: Apache-2.0
// Device parameters: immutable description of one MEMStore design point.
//
// Units are in every field name. Presets follow the thesis' Table 3.1 (G1, G2,
// G3), for G2 the second paper's Table I, for uysal03 the disk-array
// study's Table 1, and for asplos99-g1..g3 seed 003's Table 1 (docs/model.md,
// "Parameters"; docs/reproduction.md, "Seed 003").
// Everything derived (virtual geometry, access velocity, settle time) is
// computed from these fields, never stored twice.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace memstore::model {

// How a sequential transfer crosses from the last track of one cylinder to the
// first track of the next (thesis §3.1, end): as a one-cylinder X seek with
// settle (the default, DiskSim's behaviour), or at the cost of the minimum
// turnaround, the optimistic case the thesis expects from tip deflection.
enum class CylinderSwitch { kSeek, kMinTurnaround };

struct PowerParams {
  double tip_active_w = 0.001;        // per active tip (second paper §3.1)
  double sled_motion_w = 0.100;       // keeping the sled in motion
  double inactive_w = 0.050;          // sled "spun down"
  std::int64_t startup_ns = 500'000;  // INACTIVE -> SEEK
  double startup_j = 5e-5;            // energy of one startup
  // IDLE -> INACTIVE after this long without work; 0 = aggressive spin-down
  // (second paper §5.2.1); -1 = never spin down. 100 ms as in DiskSim 4.0's G2.
  std::int64_t idle_timeout_ns = 100'000'000;
  // Tips kept active while IDLE to read servo information (second paper §3.1:
  // "using a few tips"). 0 charges IDLE as sled motion alone, as DiskSim does.
  std::int32_t idle_tips = 0;
  // Request merging (second paper §5.2.2): queued requests that continue the
  // one being started (same operation, next LBN) join its media access, so a
  // row shared by two requests is read once with more tips active, never
  // more than active_tips at a time.
  bool merge_requests = false;
  // Subsector accesses (second paper §5.2.3): of a block a request needs only
  // in part (Request::tail_bytes), only the tip sectors holding those bytes
  // are activated. Saves ACCESS energy; cannot shorten a service.
  bool subsector = false;
  // Which tips a media access activates without subsector accesses. false: the tips of the
  // blocks it transfers (tips_per_block each; the power paper §5.2.3: "a 512 byte logical
  // sector consists of a group of 64 tip sectors"). true: every concurrently active tip for
  // each row the sled passes, the paper's §2 reading: "A set of concurrently accessible tip
  // sectors is grouped as a logical sector". With subsector on, only the tips holding the
  // bytes a request needs are active in either case.
  bool access_all_tips = false;
};

struct DeviceParams {
  std::string name = "g2";

  // Media (thesis §2.2).
  double bit_width_nm = 40.0;
  std::int32_t region_bits_x = 2500;  // bits per tip region along X
  std::int32_t region_bits_y = 2500;  // bits per tip region along Y
  std::int32_t tips = 6400;
  std::int32_t active_tips = 640;
  std::int32_t tips_per_block = 64;  // a 512-byte block is striped over 64 tips
  std::int32_t servo_bits_per_sector = 10;
  std::int32_t data_bits_per_sector = 80;  // 8 encoded bytes per tip sector
  std::int32_t block_bytes = 512;
  std::int32_t sleds = 1;

  // Motion (thesis §2.3, §3.1; second paper Table I).
  double sled_accel_m_s2 = 803.6;       // 82 g
  double per_tip_rate_bit_s = 700'000;  // access velocity = rate * bit width
  double spring_factor = 0.75;
  double resonant_frequency_hz = 739.0;
  double settle_time_constants = 1.0;  // Eq. 3.5
  bool bidirectional = true;
  CylinderSwitch cylinder_switch = CylinderSwitch::kSeek;

  // Host-visible geometry extras (thesis §6.3.1).
  std::int32_t micropositioning = 0;  // M, cylinders each way
  std::int32_t conflict_group = 0;    // G; 0 = no shared components

  // Vendor batch limits advertised in mode page 20h.
  std::int32_t max_batch_descriptors = 256;
  std::int32_t max_batch_blocks = 4096;

  PowerParams power;
};

// A named preset: "g1", "g2" (default), "g3", "uysal03" (the disk-array study's chip,
// FAST '03 Table 1), "tos05" (the power paper's device, ACM ToS 2005 Table I: G2 with 1280
// active tips), or "asplos99-g1", "asplos99-g2", "asplos99-g3" (the three generations of
// Schlosser et al., ASPLOS IX, Table 1). Returns nullopt for others.
std::optional<DeviceParams> preset(std::string_view name);
std::vector<std::string> preset_names();

// One problem with a parameter set: the key (as spelled in the TOML file) and
// what is wrong with it, phrased so the fix is obvious.
struct ParamError {
  std::string key;
  std::string message;
};

// Checks every field and every cross-field constraint (e.g. active tips not
// above tips, p dividing N). Empty when the parameters describe a device.
std::vector<ParamError> validate(const DeviceParams& params);

}  // namespace memstore::model
