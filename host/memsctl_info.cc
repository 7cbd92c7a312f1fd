// SPDX-License-Identifier: Apache-2.0
// memsctl info: INQUIRY, capacity, the geometry of page 20h, the physics of
// page 21h and the control settings of page 22h.
#include <cstdio>
#include <iostream>

#include "host/memsctl_args.h"

namespace memstore::memsctl {
namespace {

const char* timing_name(modepages::TimingMode m) {
  switch (m) {
    case modepages::TimingMode::kRealtime:
      return "realtime";
    case modepages::TimingMode::kScaled:
      return "scaled";
    case modepages::TimingMode::kOff:
      return "off";
  }
  return "unknown";
}

// Key names as memsim geometry prints them, so the two can be compared.
Json geometry_json(const modepages::GeometryPage& g) {
  Json failed = Json::array();
  for (const modepages::FailedTip& t : g.failed_tips) {
    failed.push_back({{"sled", t.sled}, {"tip", t.tip}, {"spared", t.spared}});
  }
  return {{"p", g.p},
          {"N", g.n},
          {"Sx", g.sx},
          {"Sy", g.sy},
          {"M", g.m},
          {"Nx", g.nx},
          {"Ny", g.ny},
          {"ST", g.st},
          {"SC", g.sc},
          {"sleds", g.sleds},
          {"blocks_per_sled", g.blocks_per_sled},
          {"conflict_group", g.conflict_group},
          {"bidirectional", g.bidirectional},
          {"max_batch_descriptors", g.max_batch_descriptors},
          {"max_batch_blocks", g.max_batch_blocks},
          {"failed_tips", failed}};
}

Json physics_json(const modepages::PhysicsPage& p) {
  return {
      {"bidirectional", p.bidirectional},
      {"cylinder_switch", p.min_turnaround_cylinder_switch ? "min_turnaround" : "seek"},
      {"servo_bits_per_sector", p.servo_bits_per_sector},
      {"data_bits_per_sector", p.data_bits_per_sector},
      {"bit_width_pm", p.bit_width_pm},
      {"region_bits_x", p.region_bits_x},
      {"region_bits_y", p.region_bits_y},
      {"tips", p.tips},
      {"active_tips", p.active_tips},
      {"tips_per_block", p.tips_per_block},
      {"sled_accel_um_s2", p.sled_accel_um_s2},
      {"per_tip_rate_bit_s", p.per_tip_rate_bit_s},
      {"access_velocity_um_s", p.access_velocity_um_s},
      {"spring_factor_micro", p.spring_factor_micro},
      {"resonant_frequency_mhz", p.resonant_frequency_mhz},
      {"settle_time_constants_micro", p.settle_time_constants_micro},
      {"row_ns", p.row_ns},
      {"settle_ns", p.settle_ns},
      {"turnaround_centre_ns", p.turnaround_centre_ns},
      {"tip_active_uw", p.tip_active_uw},
      {"sled_motion_uw", p.sled_motion_uw},
      {"inactive_uw", p.inactive_uw},
      {"startup_ns", p.startup_ns},
      {"idle_timeout_ms",
       p.idle_timeout_ms == modepages::kNeverIdleTimeout ? Json(nullptr) : Json(p.idle_timeout_ms)},
      {"startup_nj", p.startup_nj},
      {"idle_tips", p.idle_tips}};
}

}  // namespace

Json control_json(const modepages::ControlPage& c) {
  return {{"scheduler", modepages::scheduler_name(c.scheduler).value_or("unknown")},
          {"timing", timing_name(c.timing)},
          {"scale", c.scale_milli / 1000.0}};
}

int cmd_info(const Common& c) {
  int status = 0;
  auto dev = open_device(c, status);
  if (!dev) return status;
  const host::InquiryData& q = dev->inquiry();
  Json j;
  j["target"] = dev->name();
  j["inquiry"] = {{"vendor", q.vendor},
                  {"product", q.product},
                  {"revision", q.revision},
                  {"device_type", host::device_type_name(q.device_type)}};
  j["capacity"] = {{"blocks", dev->blocks()},
                   {"block_size", dev->block_size()},
                   {"bytes", dev->blocks() * dev->block_size()}};
  j["memstore"] = dev->is_memstore();
  if (!dev->is_memstore()) {
    j["not_memstore_reason"] = dev->not_memstore_reason();
  } else {
    j["geometry"] = geometry_json(dev->geometry()->page());
    auto physics = dev->physics_page();
    if (!physics.ok()) return report(c, physics.error());
    j["physics"] = physics_json(*physics);
    auto control = dev->control_page();
    if (!control.ok()) return report(c, control.error());
    j["control"] = control_json(*control);
  }
  if (c.json) {
    std::cout << j.dump(2) << "\n";
    return kExitOk;
  }
  std::printf("%s\n", dev->name().c_str());
  std::printf("  %s %s %s (%s)\n", q.vendor.c_str(), q.product.c_str(), q.revision.c_str(),
              host::device_type_name(q.device_type).c_str());
  std::printf("  %llu blocks of %u bytes (%.3f GB)\n",
              static_cast<unsigned long long>(dev->blocks()), dev->block_size(),
              static_cast<double>(dev->blocks()) * dev->block_size() / 1e9);
  if (!dev->is_memstore()) {
    std::printf("  not a MEMStore: %s\n", dev->not_memstore_reason().c_str());
    return kExitOk;
  }
  const modepages::GeometryPage& g = dev->geometry()->page();
  std::printf("geometry (mode page 20h):\n");
  std::printf("  p  = %u (level of parallelism)\n  N  = %u (squares)\n", g.p, g.n);
  std::printf("  Sx = %u, Sy = %u (sectors per square in X, Y)\n  M  = %u (micropositioning)\n",
              g.sx, g.sy, g.m);
  std::printf("  Nx = %u, Ny = %u\n  ST = %u (sectors per track)\n  SC = %u (per cylinder)\n", g.nx,
              g.ny, g.st, g.sc);
  std::printf("  G  = %u (conflict group size; 0 = none)\n  %u sled(s) of %llu blocks, %s access\n",
              g.conflict_group, g.sleds, static_cast<unsigned long long>(g.blocks_per_sled),
              g.bidirectional ? "bidirectional" : "unidirectional");
  std::printf("  batches: up to %u descriptors, %u blocks\n", g.max_batch_descriptors,
              g.max_batch_blocks);
  for (const modepages::FailedTip& t : g.failed_tips) {
    std::printf("  failed tip %u of sled %u: %s\n", t.tip, t.sled,
                t.spared ? "spared (one extra access)" : "its blocks fail (MEDIUM ERROR)");
  }
  const Json& p = j["physics"];
  std::printf("physics (mode page 21h):\n");
  std::printf("  %u tips, %u active, %u per block; %u x %u bits per tip region\n",
              p["tips"].get<unsigned>(), p["active_tips"].get<unsigned>(),
              p["tips_per_block"].get<unsigned>(), p["region_bits_x"].get<unsigned>(),
              p["region_bits_y"].get<unsigned>());
  std::printf("  acceleration %.1f m/s^2, resonance %.1f Hz, access velocity %.1f mm/s\n",
              p["sled_accel_um_s2"].get<double>() / 1e6,
              p["resonant_frequency_mhz"].get<double>() / 1e3,
              p["access_velocity_um_s"].get<double>() / 1e3);
  std::printf("  one row %.1f us, settle %.1f us, turnaround %.1f us\n",
              p["row_ns"].get<double>() / 1e3, p["settle_ns"].get<double>() / 1e3,
              p["turnaround_centre_ns"].get<double>() / 1e3);
  const Json& ctl = j["control"];
  std::printf("control (mode page 22h):\n  scheduler %s, timing %s, scale %g\n",
              ctl["scheduler"].get<std::string>().c_str(), ctl["timing"].get<std::string>().c_str(),
              ctl["scale"].get<double>());
  return kExitOk;
}

}  // namespace memstore::memsctl
