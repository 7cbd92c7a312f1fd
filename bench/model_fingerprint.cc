// SPDX-License-Identifier: Apache-2.0
// model_fingerprint: one hash per device variant over everything the MEMStore
// model computes for a fixed random request stream — every Breakdown field,
// the sled state, positioning estimates and bounds, exact positioning
// doubles, batches and the energy report, bit for bit. Build it at two
// commits and compare the output to show a speed-up changed no result
// (docs/benchmarks.md, "Model speed").
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "model/mems_mechanism.h"
#include "model/params.h"

namespace {

using namespace memstore::model;

// FNV-1a over the bytes of each value (structs field by field: no padding).
struct Fingerprint {
  std::uint64_t h = 1469598103934665603ULL;
  template <class T>
  void add(const T& v) {
    const auto* c = reinterpret_cast<const unsigned char*>(&v);
    for (std::size_t i = 0; i < sizeof v; ++i) {
      h ^= c[i];
      h *= 1099511628211ULL;
    }
  }
  void add_breakdown(const Breakdown& b) {
    for (Ns v : {b.startup_ns, b.seek_x_ns, b.settle_ns, b.seek_y_ns, b.turnaround_ns,
                 b.transfer_ns, b.seek_ns, b.switch_ns}) {
      add(v);
    }
    add(b.turnarounds);
    add(b.media_steps);
  }
};

std::vector<std::pair<std::string, DeviceParams>> variants() {
  std::vector<std::pair<std::string, DeviceParams>> out;
  for (const char* name : {"g1", "g2", "g3"}) out.emplace_back(name, *preset(name));
  DeviceParams p = *preset("g2");
  p.bidirectional = false;
  out.emplace_back("g2-unidirectional", p);
  p = *preset("g2");
  p.cylinder_switch = CylinderSwitch::kMinTurnaround;
  out.emplace_back("g2-min-turnaround", p);
  p = *preset("g2");
  p.servo_bits_per_sector = 0;
  p.region_bits_y = 2000;
  out.emplace_back("g2-no-servo", p);
  p = *preset("g2");
  p.region_bits_y = 20000;  // too many rows for the Y seek table
  out.emplace_back("g2-tall", p);
  p = *preset("g2");
  p.active_tips = 1280;
  out.emplace_back("g2-1280-tips", p);
  return out;
}

}  // namespace

int main() {
  for (const auto& [name, params] : variants()) {
    MemsMechanism m(params);
    Fingerprint f;
    std::mt19937_64 rng(42);
    const auto blocks = static_cast<std::uint64_t>(m.blocks());
    Ns now = 0;
    for (int i = 0; i < 300'000; ++i) {
      Request r;
      r.id = static_cast<std::uint64_t>(i);
      r.blocks = 1 + static_cast<std::int32_t>(rng() % (i % 3 == 0 ? 256 : 16));
      r.lbn = static_cast<Lbn>(rng() % (blocks - static_cast<std::uint64_t>(r.blocks)));
      // Now and then a gap past the idle timeout: spin-down and restart.
      now += static_cast<Ns>(rng() % (i % 1000 == 0 ? 300'000'000 : 2'000'000));
      const PositioningTarget t = m.positioning_target(r);
      f.add(m.positioning_ns(r, now));
      f.add(m.positioning_target_ns(r, t, now));
      const PositioningBounds bounds = m.positioning_bounds_ns(r, t, now);
      f.add(bounds.lower);
      f.add(bounds.upper);
      f.add(m.positioning_upper_bound_ns(r, t, now));
      const Breakdown b = m.service(r, now);
      f.add_breakdown(b);
      now += b.service_ns();
      f.add(m.state().x_bits);
      f.add(m.state().y_bits);
      f.add(m.state().y_dir);
      const auto x =
          static_cast<std::int32_t>(rng() % static_cast<std::uint64_t>(m.geometry().sx()));
      const auto y =
          static_cast<std::int32_t>(rng() % static_cast<std::uint64_t>(m.geometry().sy()));
      const Positioning pos = m.position_for(m.state(), x, y, (rng() & 1) != 0 ? 1 : -1);
      f.add(pos.total_s);
      f.add(pos.x_base_s);
      f.add(pos.settle_s);
      f.add(pos.y.base_s);
      f.add(pos.y.turnaround_s);
      f.add(pos.y.turnarounds);
      f.add(pos.dir);
    }
    for (int i = 0; i < 3000; ++i) {  // batches (thesis §6.3.5)
      std::vector<BatchExtent> extents(1 + rng() % 12);
      for (BatchExtent& e : extents) {
        e.blocks = 1 + static_cast<std::int32_t>(rng() % 8);
        e.lbn = static_cast<Lbn>(rng() % (blocks - 8));
      }
      now += static_cast<Ns>(rng() % 2'000'000);
      const BatchOutcome o = m.service_batch(extents, now);
      f.add_breakdown(o.breakdown);
      for (const MediaStep& s : o.steps) {
        f.add(s.x);
        f.add(s.y);
        for (Lbn l : s.lbns) f.add(l);
      }
      now += o.breakdown.service_ns();
    }
    const EnergyReport e = m.energy(now);
    for (int i = 0; i < kPowerStates; ++i) {
      f.add(e.time_ns[i]);
      f.add(e.energy_j[i]);
    }
    f.add(e.startups);
    std::printf("%-18s %016llx\n", name.c_str(), static_cast<unsigned long long>(f.h));
  }
}
