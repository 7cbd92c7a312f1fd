// SPDX-License-Identifier: Apache-2.0
#include "model/params.h"

#include <cmath>
#include <string>
#include <utility>

namespace memstore::model {
namespace {

// G1: 50 nm bits, 70 g, 400 kbit/s, settle 0.431 ms, 640 of 6400 tips
// active, unidirectional (thesis Table 3.1, §3.2). The settle time is two time
// constants of the 739 Hz sled (Eq. 3.5), as in DiskSim 4.0's G1; 70 g is
// DiskSim's 688.8 m/s^2.
DeviceParams g1() {
  DeviceParams p;
  p.name = "g1";
  p.bit_width_nm = 50.0;
  p.region_bits_x = 2000;
  p.region_bits_y = 2000;
  p.sled_accel_m_s2 = 688.8;
  p.per_tip_rate_bit_s = 400'000;
  p.settle_time_constants = 2.0;
  p.bidirectional = false;
  return p;
}

// G2: the defaults of DeviceParams (thesis Table 3.1; second paper Table I,
// except its 1280 active tips: the thesis' G2 has 640, p = 10).
DeviceParams g2() {
  return DeviceParams{};
}

// G3: 30 nm bits, 105 g (DiskSim's 1033.2 m/s^2), 1000 kbit/s, settle
// 0.144 ms (one time constant at 1108 Hz), 1280 active tips (thesis Table 3.1;
// DiskSim 4.0's G3 activates 3200).
DeviceParams g3() {
  DeviceParams p;
  p.name = "g3";
  p.bit_width_nm = 30.0;
  p.region_bits_x = 3333;
  p.region_bits_y = 3333;
  p.sled_accel_m_s2 = 1033.2;
  p.per_tip_rate_bit_s = 1'000'000;
  p.resonant_frequency_hz = 1108.0;
  p.active_tips = 1280;
  return p;
}

// uysal03: the MEMS chip of Uysal,
// Merchant and Alvarez, "Using MEMS-based storage in disk arrays" (FAST '03), Table 1: 50 nm bits,
// 70 g, 400 kbit/s per tip, settle 0.431 ms on x, 6400 tips of which 640 are active, one sled
// of 2.56 GB, 25.6 MB/s, no bidirectional reads (§2). That is G1's motion (DiskSim's 688.8 m/s^2
// for 70 g, two time constants at 739 Hz for 0.431 ms) with G1's 2000 x 2000-bit tip regions; Table
// 1's capacity and rate both count the 8-of-10 encoded data bits and nothing for servo: 6400 x 2000
// x 2000 x 0.8 bits is 2.56 GB and 640 x 400 kbit/s x 0.8 is 25.6 MB/s. So no servo bits: 25 tip
// sectors of 80 bits fill a 2000-bit column exactly (G1 keeps 10 servo bits a sector: 2.25 GB, 22.8
// MB/s).
DeviceParams uysal03() {
  DeviceParams p = g1();
  p.name = "uysal03";
  p.servo_bits_per_sector = 0;
  return p;
}

// tos05: the power paper's device (ACM ToS 2005, §2 Table I, the CMU G2). Every motion
// and media figure of Table I is G2's (40 nm bits, 2500 x 2500-bit tip regions = 100 um of
// travel, 803.6 m/s^2, 28 mm/s = 700 kbit/s x 40 nm, 739 Hz, settle 0.215 ms = one time
// constant, springs 75%, 6400 tips); what differs is its "maximum concurrent tips 1280"
// (the thesis' G2 activates 640). Table I's 89.6 MB/s is 1280 x 700 kbit/s x 8/10 (the
// encoding; servo not counted) and its 3.2 GB is G2's 6,750,000 blocks (3.2 GiB). Power
// (§3.1): 1 mW a tip, 100 mW sled motion, 50 mW inactive, 0.5 ms and 5e-5 J to start up.
// One choice where §3.1 is ambiguous: IDLE "rereads the last sector accessed" "using a few
// tips", so it keeps one block's 64 tips on (100 + 64 mW), not all 1280 ("the same power
// as when transferring data" would be that only for a transfer of one block).
DeviceParams tos05() {
  DeviceParams p;
  p.name = "tos05";
  p.active_tips = 1280;
  p.power.idle_tips = 64;
  return p;
}

// --- Seed 003's three generations ----------------------------------------------------------
// Schlosser, Griffin, Nagle and Ganger, "Designing computer systems with MEMS-based storage"
// (ASPLOS IX), Table 1 and §2.1, §3.1. These predate the thesis' G1/G2/G3 and differ from
// them in every motion figure. What the paper gives, field by field:
// - bit width 50/40/30 nm (Table 1); each tip's region is the sled's 100 um of travel
//   (§2, Fig. 3) in bits: 2000, 2500 and 3333 along X;
// - 6400 tips a sled (§2.1, G1: "The sled footprint is 0.64 cm² allowing 6,400 tips"), 64 of
//   them per 512-byte block and 90 bits a tip per block, 80 data and 10 servo (§3.1; §2.1:
//   "about 10 bits every 80 data bits"), 10 encoded bits a byte (§2.1);
// - sled acceleration 11.7/11.7/17.6 g (Table 1; g = 9.80665 m/s^2);
// - per-tip rate 200/400/400 kbit/s (Table 1), so the access speeds 10/16/12 mm/s of Table 1
//   follow from rate x bit width, never stored twice;
// - resonant frequency 220/220/330 Hz and post-seek X settling 1.447/0.723/0.482 ms (Table 1):
//   one time constant 1/(2 pi f) is 0.723 ms at 220 Hz and 0.482 ms at 330 Hz, so G1 settles
//   for two time constants, G2 and G3 for one;
// - one sled; G1 unidirectional, G2 and G3 bidirectional (Table 1, §2.1).
// Derived from Table 1 rather than stated:
// - active tips 640/640/1600: the table's maximum throughput is active tips x rate x 80/90
//   (servo) x 8/10 (encoding), and 10.85, 21.70 and 54.25 MiB/s give exactly these counts.
//   §2.1's "640-3200 tips" is the range the authors considered; 3200 would give G3 108.5 MiB/s;
// - per-sled capacities 2.098 and 3.219 GiB are 100 columns of 2000 (2500) cylinders of 22
//   (27) tip sectors, memsim's layout with a trailing servo burst. G3's 5.880 GiB needs 37
//   sectors a column, floor(3333 / 90), i.e. no room kept for the trailing burst; memsim's
//   layout keeps it, so G3's Y region is 3340 bits (100.2 um) to hold 37 x 90 + 10 bits.
// Choices where the paper is silent or differs from the thesis, each named:
// - no springs (spring_factor 0): §3.1's seek is 2 sqrt(dx / a) + t_settle, constant
//   acceleration from rest to rest, which is memsim's seek with the spring taken out;
// - the sled never spins down (power.idle_timeout_ns = -1): the paper's model keeps the sled's
//   position and velocity from one request to the next (§3.1) and has no power management.
DeviceParams asplos99(const char* name, double bit_width_nm, std::int32_t region_bits,
                      double accel_g, double rate_bit_s, double resonant_hz, double settle_tcs,
                      std::int32_t active_tips, bool bidirectional) {
  constexpr double kG = 9.80665;  // m/s^2 per g
  DeviceParams p;
  p.name = name;
  p.bit_width_nm = bit_width_nm;
  p.region_bits_x = region_bits;
  p.region_bits_y = region_bits;
  p.tips = 6400;
  p.active_tips = active_tips;
  p.tips_per_block = 64;
  p.servo_bits_per_sector = 10;
  p.data_bits_per_sector = 80;
  p.sled_accel_m_s2 = accel_g * kG;
  p.per_tip_rate_bit_s = rate_bit_s;
  p.spring_factor = 0;
  p.resonant_frequency_hz = resonant_hz;
  p.settle_time_constants = settle_tcs;
  p.bidirectional = bidirectional;
  p.power.idle_timeout_ns = -1;
  return p;
}

DeviceParams asplos99_g1() {
  return asplos99("asplos99-g1", 50, 2000, 11.7, 200'000, 220, 2, 640, false);
}
DeviceParams asplos99_g2() {
  return asplos99("asplos99-g2", 40, 2500, 11.7, 400'000, 220, 1, 640, true);
}
DeviceParams asplos99_g3() {
  DeviceParams p = asplos99("asplos99-g3", 30, 3333, 17.6, 400'000, 330, 1, 1600, true);
  p.region_bits_y = 3340;  // 37 tip sectors of 90 bits and the trailing servo (see above)
  return p;
}

// The presets by name, one table: preset() and preset_names() both read it.
struct NamedPreset {
  const char* name;
  DeviceParams (*make)();
};
constexpr NamedPreset kPresets[] = {
    {"g1", g1},
    {"g2", g2},
    {"g3", g3},
    {"uysal03", uysal03},
    {"tos05", tos05},
    {"asplos99-g1", asplos99_g1},
    {"asplos99-g2", asplos99_g2},
    {"asplos99-g3", asplos99_g3},
};

}  // namespace

std::optional<DeviceParams> preset(std::string_view name) {
  for (const NamedPreset& p : kPresets) {
    if (name == p.name) return p.make();
  }
  return std::nullopt;
}

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  for (const NamedPreset& p : kPresets) names.emplace_back(p.name);
  return names;
}

std::vector<ParamError> validate(const DeviceParams& p) {
  std::vector<ParamError> errors;
  auto fail = [&errors](std::string key, std::string message) {
    errors.push_back({std::move(key), std::move(message)});
  };
  auto positive = [&fail](const char* key, double v) {
    if (!(v > 0) || !std::isfinite(v)) fail(key, "must be a positive number");
  };
  positive("bit_width_nm", p.bit_width_nm);
  positive("region_bits_x", p.region_bits_x);
  positive("region_bits_y", p.region_bits_y);
  positive("tips", p.tips);
  positive("active_tips", p.active_tips);
  positive("tips_per_block", p.tips_per_block);
  positive("data_bits_per_sector", p.data_bits_per_sector);
  positive("block_bytes", p.block_bytes);
  positive("sleds", p.sleds);
  positive("sled_accel_m_s2", p.sled_accel_m_s2);
  positive("per_tip_rate_bit_s", p.per_tip_rate_bit_s);
  positive("resonant_frequency_hz", p.resonant_frequency_hz);
  positive("max_batch_descriptors", p.max_batch_descriptors);
  positive("max_batch_blocks", p.max_batch_blocks);
  if (p.servo_bits_per_sector < 0) fail("servo_bits_per_sector", "must be 0 or more");
  // Bit counts stay small enough that sums of them cannot overflow.
  if (p.servo_bits_per_sector > 1'000'000) fail("servo_bits_per_sector", "must be at most 1000000");
  if (p.data_bits_per_sector > 1'000'000) fail("data_bits_per_sector", "must be at most 1000000");
  if (!(p.settle_time_constants >= 0) || !std::isfinite(p.settle_time_constants)) {
    fail("settle_time_constants", "must be a finite number, 0 or more");
  }
  if (!(p.spring_factor >= 0 && p.spring_factor < 1)) {
    // At 100% the springs cancel the actuators at full displacement and a
    // seek from the edge could never start.
    fail("spring_factor", "must be in [0, 1), e.g. 0.75");
  }
  if (p.micropositioning < 0) fail("micropositioning", "must be 0 or more");
  if (p.conflict_group < 0) fail("conflict_group", "must be 0 (no shared components) or more");
  if (p.max_batch_descriptors > 65535) {
    fail("max_batch_descriptors", "must fit the 16-bit field of mode page 20h (at most 65535)");
  }
  if (!errors.empty()) return errors;  // cross-field checks need sane fields

  if (p.active_tips > p.tips) {
    fail("active_tips", "is " + std::to_string(p.active_tips) + " but the device has only " +
                            std::to_string(p.tips) + " tips");
  }
  if (p.tips % p.tips_per_block != 0) {
    fail("tips_per_block", "must divide tips (" + std::to_string(p.tips) + ")");
  }
  if (p.active_tips % p.tips_per_block != 0) {
    fail("active_tips",
         "must be a multiple of tips_per_block (" + std::to_string(p.tips_per_block) + ")");
  }
  if (std::int64_t{p.tips_per_block} * p.data_bits_per_sector != std::int64_t{p.block_bytes} * 10) {
    // 10 encoded bits per byte (thesis §2.2): a block's data bits over its tips.
    fail("tips_per_block", "times data_bits_per_sector must equal block_bytes * 10 (" +
                               std::to_string(p.block_bytes * 10) + " encoded bits)");
  }
  const std::int64_t sector_bits = p.servo_bits_per_sector + p.data_bits_per_sector;
  if (sector_bits + p.servo_bits_per_sector > p.region_bits_y) {
    fail("region_bits_y", "must hold at least one tip sector (" + std::to_string(sector_bits) +
                              " bits plus trailing servo)");
  }
  if (errors.empty()) {
    const std::int32_t n = p.tips / p.tips_per_block;
    const std::int32_t par = p.active_tips / p.tips_per_block;
    if (n % par != 0) {
      fail("active_tips", "gives p = " + std::to_string(par) + ", which does not divide N = " +
                              std::to_string(n) + " (tips / tips_per_block)");
    }
    if (p.conflict_group > n) {
      fail("conflict_group", "must not exceed the number of squares N = " + std::to_string(n));
    }
    if (p.micropositioning >= p.region_bits_x) {
      fail("micropositioning", "must be below region_bits_x (the number of cylinders)");
    }
  }
  if (errors.empty()) {
    // Keep every derived quantity far from integer overflow: 2^48 blocks is
    // 128 PiB of 512-byte blocks, well beyond any MEMStore design.
    const std::int32_t servo = p.servo_bits_per_sector;
    const double rows = (p.region_bits_y - servo) / static_cast<double>(sector_bits);
    // Both divisions are exact (checked above), so doubles lose nothing.
    const double squares = static_cast<double>(p.tips) / p.tips_per_block;
    const double parallel = static_cast<double>(p.active_tips) / p.tips_per_block;
    const double blocks = squares * p.region_bits_x * std::floor(rows) * p.sleds;
    if (blocks > 281474976710656.0) {
      fail("region_bits_x", "with region_bits_y, tips and sleds gives more than 2^48 blocks");
    }
    // Sectors per track (Sy * p) is a 32-bit quantity (mode page 20h).
    if (std::floor(rows) * parallel > 2147483647.0) {
      fail("region_bits_y", "with active_tips gives more than 2^31 sectors per track");
    }
  }
  const double v = p.per_tip_rate_bit_s * p.bit_width_nm * 1e-9;
  const double half_range = p.region_bits_x * p.bit_width_nm * 1e-9 / 2;
  if (errors.empty() && v * v / (2 * p.sled_accel_m_s2 * (1 - p.spring_factor)) > half_range) {
    fail("per_tip_rate_bit_s",
         "gives an access velocity the actuators cannot reverse within the "
         "sled's range; lower it or raise sled_accel_m_s2");
  }
  // Power figures only feed the energy account, but inf or NaN would poison it.
  const std::pair<const char*, double> watts[] = {{"power.tip_active_w", p.power.tip_active_w},
                                                  {"power.sled_motion_w", p.power.sled_motion_w},
                                                  {"power.inactive_w", p.power.inactive_w},
                                                  {"power.startup_j", p.power.startup_j}};
  for (const auto& [key, value] : watts) {
    if (!(value >= 0) || !std::isfinite(value)) fail(key, "must be a finite number, 0 or more");
  }
  if (p.power.idle_timeout_ns < -1) fail("power.idle_timeout_ns", "must be -1 (never), 0 or more");
  if (p.power.startup_ns < 0) fail("power.startup_ns", "must be 0 or more");
  if (p.power.idle_tips < 0 || p.power.idle_tips > p.tips) {
    fail("power.idle_tips", "must be between 0 and tips");
  }
  return errors;
}

}  // namespace memstore::model
