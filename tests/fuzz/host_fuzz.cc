// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the host library's decoders of what a device sends:
// sense data, MODE SENSE(10) data, INQUIRY and READ CAPACITY data, mode page
// 20h (and the geometry built on it), MEMS BATCH RESULTS; plus memsctl's
// LBN:COUNT@FILE syntax. The first byte picks the decoder. Anything must
// decode or be refused — never crash, hang or break an invariant. One more
// case builds a consistent geometry from the input and compares HostGeometry
// with model::Geometry (differential).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string_view>
#include <vector>

#include "host/batch.h"
#include "host/geometry.h"
#include "host/memsctl_args.h"
#include "host/scsi_commands.h"
#include "host/sense_text.h"
#include "model/geometry.h"
#include "modepages/mode_vendor.h"

namespace host = memstore::host;

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

void geometry(std::span<const std::uint8_t> in) {
  auto g = host::HostGeometry::from_page_bytes(in);
  if (!g.ok()) {
    check(!g.error().message.empty());
    return;
  }
  const std::uint64_t n = g->blocks();
  for (const std::uint64_t l : {std::uint64_t{0}, n / 3, n / 2, n - 1}) {
    const host::Location at = g->locate(l);
    check(g->lbn_at(at) == l);
    const host::Ensemble e = g->ensemble(l);
    check(e.first <= l && l <= e.last && e.last - e.first + 1 == g->page().st);
    check(!g->conflicting(l, l));
    // Keep the class small enough to enumerate in a fuzzer's time.
    const std::uint64_t size = std::uint64_t{g->page().n} * (2 * std::uint64_t{g->page().m} + 1);
    if (size <= 4096) {
      const auto eq = g->equivalent(l);
      check(eq.size() <= size && std::is_sorted(eq.begin(), eq.end()));
      check(std::binary_search(eq.begin(), eq.end(), l));
      for (const std::uint64_t o : eq) check(o < n && g->locate(o).y == at.y);
    }
  }
}

void results(std::span<const std::uint8_t> in) {
  host::Batch b(host::BatchLimits{8, 64, 1000, 4});
  if (!b.add_read(1, 2).ok() || !b.add_write(3, std::vector<std::uint8_t>(4, 0)).ok() ||
      !b.add_read(9, 1).ok()) {
    std::abort();
  }
  auto r = host::split_results(b, in.size() >= 4 ? in[3] : 0, in);
  if (r.ok()) {
    check(r->data.size() == 3 && r->data[0].size() == 8 && r->data[1].empty() &&
          r->data[2].size() == 4);
  }
  for (std::uint32_t byte = 0; byte < 8 + 48 + 4 + 2; ++byte) {
    check(!b.describe_list_byte(byte).empty());
  }
}

// A small consistent device from the input's bytes: the host's answers must
// be the model's. The model's device has one tip per block, so its page
// fields are exactly these.
void against_model(std::span<const std::uint8_t> in) {
  if (in.size() < 12) return;
  memstore::model::DeviceParams d = *memstore::model::preset("g2");
  const int p = 1 + in[0] % 12;
  d.tips_per_block = 1;
  d.block_bytes = 8;
  d.active_tips = p;
  d.tips = p * (1 + in[1] % 6);
  d.region_bits_x = 1 + in[2] % 64;
  d.region_bits_y = 10 + 90 * (1 + in[3] % 12);
  d.micropositioning = in[4] % 6;
  d.conflict_group = in[5] % (d.tips + 1);
  d.sleds = 1 + in[6] % 3;
  const memstore::model::Geometry m(d);
  auto h = host::HostGeometry::from_page_bytes(
      memstore::modepages::encode(memstore::modepages::geometry_page_from(d)));
  check(h.ok() && h->blocks() == static_cast<std::uint64_t>(m.blocks()));
  const auto n = static_cast<std::uint64_t>(m.blocks());
  const std::uint64_t a = (std::uint64_t{in[7]} << 8 | in[8]) % n;
  const std::uint64_t b = (std::uint64_t{in[9]} << 8 | in[10]) % n;
  const auto ma = static_cast<memstore::model::Lbn>(a);
  const auto mb = static_cast<memstore::model::Lbn>(b);
  const memstore::model::PhysicalAddress pa = m.to_physical(ma);
  const host::Location la = h->locate(a);
  check(la.sled == static_cast<std::uint32_t>(pa.sled) &&
        la.x == static_cast<std::uint32_t>(pa.x) && la.y == static_cast<std::uint32_t>(pa.y) &&
        la.square == static_cast<std::uint32_t>(pa.square));
  const auto me = m.equivalence_class(ma, in[11] % 4);
  check(h->equivalent(a, in[11] % 4u) == std::vector<host::Lbn>(me.begin(), me.end()));
  check(h->conflicting(a, b) == m.conflicting(ma, mb));
  for (const memstore::model::Lbn o : m.equivalence_class(ma)) {
    check(h->conflicting(a, static_cast<host::Lbn>(o)) == m.conflicting(ma, o));
  }
  check(h->ensemble(a).first == static_cast<std::uint64_t>(m.ensemble(ma).first));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::span<const std::uint8_t> in(data + 1, size - 1);
  switch (data[0] % 7) {
    case 0:
      if (const auto s = host::decode_sense(in)) check(!host::describe(*s).empty());
      break;
    case 1:
      if (const auto page = host::find_mode_page(in, in.empty() ? 0x20 : in[0] & 0x3F)) {
        check(page->data() >= in.data() && page->data() + page->size() <= in.data() + in.size());
      }
      break;
    case 2:
      (void)host::decode_inquiry(in);
      (void)host::decode_read_capacity10(in);
      (void)host::decode_read_capacity16(in);
      break;
    case 3:
      geometry(in);
      break;
    case 4:
      results(in);
      break;
    case 5:
      against_model(in);
      break;
    default: {
      const std::string_view text(reinterpret_cast<const char*>(in.data()), in.size());
      const auto r = memstore::memsctl::parse_extent("--read", text, false);
      if (r.ok()) check(r->count >= 1);
      break;
    }
  }
  return 0;
}
