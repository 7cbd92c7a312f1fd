// SPDX-License-Identifier: Apache-2.0
// memsctl equiv, ensemble and conflict: the thesis' get_equivalent,
// get_ensemble and check_conflicting (§6.3.4) for one device, computed by
// the library from mode page 20h.
#include <cstdio>
#include <iostream>

#include "host/memsctl_args.h"

namespace memstore::memsctl {

int cmd_equiv(const Common& c, const EquivArgs& a) {
  int status = 0;
  auto dev = open_device(c, status);
  if (!dev) return status;
  std::optional<std::uint32_t> m;
  if (a.micropositioning >= 0) m = static_cast<std::uint32_t>(a.micropositioning);
  auto e = dev->get_equivalent(a.lbn, m);
  if (!e.ok()) return report(c, e.error());
  const host::HostGeometry& g = *dev->geometry();
  const host::Ensemble ens = g.ensemble(a.lbn);
  const host::Location at = g.locate(a.lbn);
  if (c.json) {
    // The keys memsim equiv --json prints, plus the location and M used.
    Json j = {{"lbn", a.lbn},
              {"equivalence_class", *e},
              {"ensemble", {ens.first, ens.last}},
              {"location", {{"sled", at.sled}, {"x", at.x}, {"y", at.y}, {"square", at.square}}},
              {"micropositioning", m.value_or(g.micropositioning())},
              {"parallelism", g.parallelism()}};
    std::cout << j.dump() << "\n";
    return kExitOk;
  }
  std::printf("LBN %llu: sled %u, cylinder x=%u, row y=%u, square %u\n",
              static_cast<unsigned long long>(a.lbn), at.sled, at.x, at.y, at.square);
  std::printf("ensemble (track): %llu..%llu\n", static_cast<unsigned long long>(ens.first),
              static_cast<unsigned long long>(ens.last));
  if (g.on_failed_tip(a.lbn)) {
    std::printf("on a failed tip (page 20h): it shares no access with another block\n");
  }
  std::printf(
      "equivalence class (%zu LBNs, M = %u; any %u of them without conflicts in one "
      "access):",
      e->size(), m.value_or(g.micropositioning()), g.parallelism());
  for (std::size_t i = 0; i < e->size(); ++i) {
    std::printf("%s%llu", i % 10 == 0 ? "\n  " : " ", static_cast<unsigned long long>((*e)[i]));
  }
  std::printf("\n");
  return kExitOk;
}

int cmd_ensemble(const Common& c, std::uint64_t lbn) {
  int status = 0;
  auto dev = open_device(c, status);
  if (!dev) return status;
  auto e = dev->get_ensemble(lbn);
  if (!e.ok()) return report(c, e.error());
  const std::uint64_t blocks = e->last - e->first + 1;
  if (c.json) {
    std::cout
        << Json{{"lbn", lbn}, {"first", e->first}, {"last", e->last}, {"blocks", blocks}}.dump()
        << "\n";
    return kExitOk;
  }
  std::printf("LBN %llu: ensemble (track) %llu..%llu, %llu blocks\n",
              static_cast<unsigned long long>(lbn), static_cast<unsigned long long>(e->first),
              static_cast<unsigned long long>(e->last), static_cast<unsigned long long>(blocks));
  return kExitOk;
}

int cmd_conflict(const Common& c, std::uint64_t a, std::uint64_t b) {
  int status = 0;
  auto dev = open_device(c, status);
  if (!dev) return status;
  auto r = dev->check_conflicting(a, b);
  if (!r.ok()) return report(c, r.error());
  if (c.json) {
    std::cout << Json{{"a", a}, {"b", b}, {"conflicting", *r}}.dump() << "\n";
    return kExitOk;
  }
  std::printf("LBN %llu and LBN %llu %s\n", static_cast<unsigned long long>(a),
              static_cast<unsigned long long>(b),
              *r ? "conflict: they cannot be accessed in parallel"
                 : "do not conflict: they can be accessed in parallel");
  return kExitOk;
}

}  // namespace memstore::memsctl
