// SPDX-License-Identifier: Apache-2.0
// The host library from C++ (docs/host-library.md): open a MEMStore, take an
// LBN's equivalence class (thesis §6.3.4), choose blocks of it that can be
// accessed together, and read them in one MEMS BATCH.
//
//   host_cpp_example iscsi://127.0.0.1:3260/iqn.2026-11.org.memstore:g2/0 [LBN]
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "host/device.h"

namespace host = memstore::host;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s iscsi://host:port/target-iqn/lun [LBN]\n", argv[0]);
    return 2;
  }
  const host::Lbn lbn = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 33;

  auto dev = host::Device::open(argv[1]);
  if (!dev.ok()) {
    std::fprintf(stderr, "%s\n", dev.error().message.c_str());
    return 1;
  }
  auto p = (*dev)->get_parallelism();
  auto e = (*dev)->get_equivalent(lbn);
  if (!p.ok() || !e.ok()) {  // e.g. "… is not a MEMStore: the device has no mode page 20h (…)"
    std::fprintf(stderr, "%s\n", (p.ok() ? e.error() : p.error()).message.c_str());
    return 1;
  }

  // Up to p members of E(lbn), no two of them conflicting. The geometry is
  // there once get_equivalent succeeded; its calls need no error checks.
  const host::HostGeometry& g = *(*dev)->geometry();
  std::vector<host::Lbn> chosen;
  for (const host::Lbn candidate : *e) {
    if (chosen.size() == *p) break;
    bool ok = true;
    for (const host::Lbn c : chosen) ok = ok && !g.conflicting(c, candidate);
    if (ok) chosen.push_back(candidate);
  }

  auto batch = (*dev)->new_batch();
  for (const host::Lbn l : chosen) {
    if (auto s = batch->add_read(l, 1); !s.ok()) {
      std::fprintf(stderr, "%s\n", s.error().message.c_str());
      return 1;
    }
  }
  auto result = (*dev)->submit(*batch, {.strict = true, .fua = false});
  if (!result.ok()) {
    // A CHECK CONDITION comes with the sense in words, and decoded:
    // result.error().sense->asc == 0x26, ->ascq == 0x80 for "not parallel-accessible".
    std::fprintf(stderr, "%s\n", result.error().message.c_str());
    return 1;
  }
  std::printf("read %zu blocks of E(%llu) in %u media step(s), modeled %u us\n", chosen.size(),
              static_cast<unsigned long long>(lbn), result->media_steps, result->service_us);
  return 0;
}
