// SPDX-License-Identifier: Apache-2.0
// memsim geometry, params, equiv and seek: the device's virtual geometry, its
// parameters, equivalence classes (thesis §6.3.2) and the positioning
// breakdown of one seek (§3.1).
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "model/device_factory.h"
#include "model/disk_layout.h"
#include "model/geometry.h"
#include "model/mems_mechanism.h"
#include "model/params_toml.h"
#include "model/seek_reference.h"
#include "sim/commands.h"

namespace memstore::sim {
namespace {

std::optional<model::DeviceParams> params_or_report(const DeviceOptions& o) {
  if (model::is_comparison_disk(o.device) || model::is_zoned_disk(o.device)) {
    std::cerr << "memsim: --device: '" << o.device
              << "' is a comparison disk or a zoned disk; geometry, params, equiv and seek need a "
                 "MEMStore:";
    for (const std::string& name : model::preset_names()) std::cerr << " " << name;
    std::cerr << "\n";
    return std::nullopt;
  }
  auto p = resolve_params(o);
  if (!p.ok()) {
    std::cerr << "memsim: " << p.error().message << "\n";
    return std::nullopt;
  }
  return *p;
}

bool lbn_in_range(const char* option, std::int64_t lbn, const model::Geometry& g) {
  if (lbn >= 0 && lbn < g.blocks()) return true;
  std::cerr << "memsim: " << option << " " << lbn << " is outside the device (0.." << g.blocks() - 1
            << ")\n";
  return false;
}

// A zoned disk's parameters as JSON: what bench/disksim-atlas10k reads to place requests on
// cylinders, and what a mode page 03h/04h or VPD B1h writer needs.
nlohmann::ordered_json disk_params_json(const model::ZonedDiskParams& p) {
  nlohmann::ordered_json zones = nlohmann::json::array();
  for (const model::DiskZone& z : p.zones) {
    zones.push_back({{"first_cylinder", z.first_cylinder},
                     {"last_cylinder", z.last_cylinder},
                     {"sectors_per_track", z.sectors_per_track},
                     {"track_skew_sectors", z.track_skew_sectors},
                     {"cylinder_skew_sectors", z.cylinder_skew_sectors},
                     {"spare_sectors", z.spare_sectors},
                     {"slips", z.slips}});
  }
  nlohmann::ordered_json seek = nlohmann::json::array();
  for (const model::SeekPoint& s : p.seek_curve) seek.push_back({s.distance_cylinders, s.time_ns});
  const model::DiskOverheads& o = p.overheads;
  return {{"name", p.name},
          {"rotation_rpm", p.rotation_rpm},
          {"surfaces", p.surfaces},
          {"cylinders", p.cylinders},
          {"block_bytes", p.block_bytes},
          {"blocks", model::ZonedLayout(p).blocks()},
          {"spare_range_cylinders", p.spare_range_cylinders},
          {"cylinder_switch_on_surface", p.cylinder_switch_on_surface},
          {"head_switch_ns", p.head_switch_ns},
          {"write_settle_ns", p.write_settle_ns},
          {"zero_latency", p.zero_latency},
          {"bus_ns_per_block", p.bus_ns_per_block},
          {"overheads_ns",
           {{"read_hit_after_read", o.read_hit_after_read_ns},
            {"read_hit_after_write", o.read_hit_after_write_ns},
            {"read_miss_after_read", o.read_miss_after_read_ns},
            {"read_miss_after_write", o.read_miss_after_write_ns},
            {"write_after_read", o.write_after_read_ns},
            {"write_after_write", o.write_after_write_ns}}},
          {"cache",
           {{"segments", p.cache.segments},
            {"segment_blocks", p.cache.segment_blocks},
            {"write_back", p.cache.write_back}}},
          {"zones", zones},
          {"seek_curve_ns", seek}};
}

int disk_params(const ParamsArgs& a) {
  std::optional<model::ZonedDiskParams> p = model::disk_preset(a.device.device);
  for (const std::string& kv : a.device.set) {
    if (const auto e = model::apply_disk_override(*p, kv); !e.ok()) {
      std::cerr << "memsim: --set " << kv << ": " << e.error().message << "\n";
      return 2;
    }
  }
  if (a.format != OutputFormat::kJson) {
    std::cerr << "memsim: params: a zoned disk's parameters print as JSON only (add --json)\n";
    return 2;
  }
  std::cout << disk_params_json(*p).dump(2) << "\n";
  return 0;
}

}  // namespace

int cmd_params(const ParamsArgs& a) {
  if (model::is_zoned_disk(a.device.device)) return disk_params(a);
  const auto p = params_or_report(a.device);
  if (!p) return 2;
  std::cout << (a.format == OutputFormat::kJson ? model::params_to_json(*p)
                                                : model::params_to_toml(*p));
  return 0;
}

int cmd_geometry(const GeometryArgs& a) {
  auto p = params_or_report(a.device);
  if (!p) return 2;
  const model::Geometry g(*p);
  nlohmann::ordered_json j = {
      {"p", g.p()},   {"N", g.n()},         {"Sx", g.sx()},         {"Sy", g.sy()},
      {"M", g.m()},   {"Nx", g.nx()},       {"Ny", g.ny()},         {"ST", g.st()},
      {"SC", g.sc()}, {"sleds", g.sleds()}, {"blocks", g.blocks()}, {"block_size", p->block_bytes}};
  j["conflict_group"] = g.conflict_group();
  j["bidirectional"] = p->bidirectional;
  if (a.format == OutputFormat::kJson) {
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  std::printf("device %s: %lld blocks of %d bytes (%.3f GB) on %d sled(s)\n", p->name.c_str(),
              static_cast<long long>(g.blocks()), p->block_bytes,
              static_cast<double>(g.blocks()) * p->block_bytes / 1e9, g.sleds());
  std::printf("  p  = %d (level of parallelism)\n  N  = %d (squares)\n", g.p(), g.n());
  std::printf("  Sx = %d, Sy = %d (sectors per square in X, Y)\n  M  = %d (micropositioning)\n",
              g.sx(), g.sy(), g.m());
  std::printf("  Nx = %d, Ny = %d\n  ST = %d (sectors per track)\n  SC = %lld (per cylinder)\n",
              g.nx(), g.ny(), g.st(), static_cast<long long>(g.sc()));
  std::printf("  G  = %d (conflict group size; 0 = none)\n  %s access\n", g.conflict_group(),
              p->bidirectional ? "bidirectional" : "unidirectional");
  return 0;
}

int cmd_equiv(const EquivArgs& a) {
  auto p = params_or_report(a.device);
  if (!p) return 2;
  const model::Geometry g(*p);
  if (!lbn_in_range("--lbn", a.lbn, g)) return 2;
  if (a.micropositioning >= g.sx()) {
    std::cerr << "memsim: --micropositioning " << a.micropositioning
              << " must be below Sx = " << g.sx() << " (the number of cylinders)\n";
    return 2;
  }
  const std::vector<model::Lbn> e = g.equivalence_class(a.lbn, a.micropositioning);
  const model::Ensemble ens = g.ensemble(a.lbn);
  if (a.format == OutputFormat::kJson) {
    nlohmann::ordered_json j = {
        {"lbn", a.lbn}, {"equivalence_class", e}, {"ensemble", {ens.first, ens.last}}};
    std::cout << j.dump() << "\n";
    return 0;
  }
  const model::PhysicalAddress at = g.to_physical(a.lbn);
  std::printf("LBN %lld: sled %d, cylinder x=%d, row y=%d, square %d\n",
              static_cast<long long>(a.lbn), at.sled, at.x, at.y, at.square);
  std::printf("ensemble (track): %lld..%lld\n", static_cast<long long>(ens.first),
              static_cast<long long>(ens.last));
  std::printf("equivalence class (%zu LBNs):", e.size());
  for (std::size_t i = 0; i < e.size(); ++i) {
    std::printf("%s%lld", i % 10 == 0 ? "\n  " : " ", static_cast<long long>(e[i]));
  }
  std::printf("\n");
  return 0;
}

int cmd_seek(const SeekArgs& a) {
  auto p = params_or_report(a.device);
  if (!p) return 2;
  // One sled's geometry; LBNs on other sleds are not reachable by one seek.
  p->sleds = 1;
  const model::MemsMechanism m(*p);
  const model::Geometry& g = m.geometry();
  if (!lbn_in_range("--from-lbn", a.from_lbn, g) || !lbn_in_range("--to-lbn", a.to_lbn, g)) {
    return 2;
  }
  const model::PhysicalAddress from = g.to_physical(a.from_lbn);
  const model::SledState start = m.state_after_reading(a.from_lbn);
  const model::PhysicalAddress to = g.to_physical(a.to_lbn);
  const int to_dir = model::Geometry::track_runs_up(g.track_of(a.to_lbn)) ? 1 : -1;
  const model::Positioning pos = m.position_for(start, to.x, to.y, to_dir);
  const double ms = 1e3;
  nlohmann::ordered_json j = {{"from_lbn", a.from_lbn},
                              {"to_lbn", a.to_lbn},
                              {"x_cylinders", to.x - from.x},
                              {"direction", pos.dir > 0 ? "up" : "down"},
                              {"seek_ms", pos.total_s * ms},
                              {"seek_x_ms", pos.x_base_s * ms},
                              {"settle_ms", pos.settle_s * ms},
                              {"seek_y_ms", pos.y.base_s * ms},
                              {"turnaround_ms", pos.y.turnaround_s * ms},
                              {"turnarounds", pos.y.turnarounds},
                              {"transfer_row_ms", m.row_s() * ms}};
  if (a.reference) {
    // Same endpoints through the integrated spring-mass system (no turnarounds).
    const double x0 = m.x_position_m(from.x);
    const double x1 = m.x_position_m(to.x);
    j["reference_seek_x_ms"] =
        x0 == x1 ? 0.0 : model::reference_base_seek_s(m.x_axis(), x0, x1, 0, 0) * ms;
  }
  if (a.format == OutputFormat::kJson) {
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  std::printf("seek from LBN %lld (x=%d, y=%d) to LBN %lld (x=%d, y=%d), accessing %s\n",
              static_cast<long long>(a.from_lbn), from.x, from.y, static_cast<long long>(a.to_lbn),
              to.x, to.y, pos.dir > 0 ? "up" : "down");
  std::printf("  X seek      %9.4f ms\n  settle      %9.4f ms\n", pos.x_base_s * ms,
              pos.settle_s * ms);
  std::printf("  Y seek      %9.4f ms\n  turnarounds %9.4f ms (%d)\n", pos.y.base_s * ms,
              pos.y.turnaround_s * ms, pos.y.turnarounds);
  std::printf("  positioning %9.4f ms = max(X + settle, Y + turnarounds)\n", pos.total_s * ms);
  std::printf("  one row     %9.4f ms\n", m.row_s() * ms);
  if (a.reference) {
    std::printf("  reference X %9.4f ms (spring-mass integration)\n",
                j["reference_seek_x_ms"].get<double>());
  }
  return 0;
}

}  // namespace memstore::sim
