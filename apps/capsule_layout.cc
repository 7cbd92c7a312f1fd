// SPDX-License-Identifier: Apache-2.0
#include "apps/capsule_layout.h"

#include <algorithm>

namespace memstore::apps {
namespace {

std::string num(std::uint64_t v) {
  return std::to_string(v);
}

std::string sizes(const TableSchema& s) {
  std::string out;
  for (const std::uint32_t b : s.attribute_bytes) out += (out.empty() ? "" : ",") + num(b);
  return out;
}

}  // namespace

host::Result<CapsuleShape> capsule_resolve(const TableSchema& s, std::uint32_t bs,
                                           const host::HostGeometry& g,
                                           std::uint64_t records_per_capsule) {
  if (s.attributes() == 0 || s.attributes() > kMaxAttributes ||
      std::find(s.attribute_bytes.begin(), s.attribute_bytes.end(), 0u) !=
          s.attribute_bytes.end()) {
    return host::invalid_argument("the table needs 1 to 64 attributes, each at least 1 byte");
  }
  const std::uint32_t p = g.parallelism();
  const std::uint32_t ny = g.page().ny;
  const std::uint32_t limit = std::min(p, ny);
  CapsuleShape c;
  c.records = records_per_capsule;
  if (c.records == 0) {
    // As many records as fill one block with the smallest attribute; the
    // others round up to whole blocks. Fig. 6.14: 8 and 16 bytes -> 64
    // records in 1 + 2 blocks. The thesis' table (8, 32, 15, 16 bytes):
    // 64 records in 1 + 4 + 2 + 2 = 9 blocks, a3's 960 bytes padded to 1024.
    const std::uint32_t smallest =
        *std::min_element(s.attribute_bytes.begin(), s.attribute_bytes.end());
    c.records = std::max<std::uint64_t>(1, bs / smallest);
  }
  std::uint64_t total = 0;
  for (const std::uint32_t b : s.attribute_bytes) {
    // K * b cannot overflow while total stays within the limit: K <= bs·limit.
    const std::uint64_t blocks = c.records > std::uint64_t{bs} * limit
                                     ? std::uint64_t{limit} + 1
                                     : (c.records * b + bs - 1) / bs;
    c.attribute_offset.push_back(static_cast<std::uint32_t>(total));
    c.attribute_blocks.push_back(static_cast<std::uint32_t>(blocks));
    total += blocks;
    if (total > limit) {
      return host::invalid_argument(
          "a capsule of " + num(c.records) + " records of attributes " + sizes(s) +
          " bytes needs more than " + num(limit) + " blocks; it must be one parallel access (p = " +
          num(p) + ") with its blocks on different tracks of one cylinder (Ny = " + num(ny) +
          "): use fewer or smaller attributes, or --records-per-capsule");
    }
  }
  c.blocks = static_cast<std::uint32_t>(total);
  return c;
}

host::Result<CapsuleLayout> CapsuleLayout::create(const TableSchema& s, const host::HostGeometry& g,
                                                  std::uint32_t bs, Lbn first_lbn,
                                                  std::uint64_t records_per_capsule) {
  auto shape = capsule_resolve(s, bs, g, records_per_capsule);
  if (!shape.ok()) return shape.error();
  const std::uint64_t sc = g.page().sc;
  const Lbn first = (first_lbn + sc - 1) / sc * sc;
  CapsuleLayout l(s, g, std::move(*shape), bs, first);
  const std::uint64_t capsules = (s.records + l.shape_.records - 1) / l.shape_.records;
  l.anchors_.reserve(capsules);
  Lbn at = first;
  for (std::uint64_t q = 0; q < capsules; ++q) {
    if (q > 0) at = l.capsule_alloc(at);
    if (at >= g.blocks()) {
      return host::invalid_argument("the capsule table needs " + num(capsules) +
                                    " capsules from LBN " + num(first) + "; only " + num(q) +
                                    " fit on the device");
    }
    l.anchors_.push_back(at);
  }
  l.end_ = capsules == 0 ? first : (l.anchors_.back() / sc + 1) * sc;
  return l;
}

Lbn CapsuleLayout::capsule_alloc(Lbn last) const {
  const host::Ensemble track = g_.ensemble(last);  // get_ensemble
  if (last != track.last) return last + 1;
  // The track is full: this row of capsules also owns the c - 1 tracks after
  // it, so the next row starts c tracks on, if a cylinder has room for c
  // more tracks; else at the next cylinder.
  const std::uint64_t st = g_.page().st, sc = g_.page().sc, ny = g_.page().ny;
  const std::uint64_t c = shape_.blocks;
  const std::uint64_t track_in_cylinder = track.first % sc / st;
  if (track_in_cylinder + 2 * c <= ny) return track.first + c * st;
  return (last / sc + 1) * sc;
}

std::vector<Lbn> CapsuleLayout::capsule_blocks(std::uint64_t q) const {
  const Lbn anchor = anchors_[q];
  const std::vector<Lbn> e = g_.equivalent(anchor, 0);  // get_equivalent, no micropositioning
  const auto i = static_cast<std::size_t>(std::lower_bound(e.begin(), e.end(), anchor) - e.begin());
  std::vector<Lbn> out(shape_.blocks);
  for (std::uint32_t k = 0; k < shape_.blocks; ++k) {
    out[k] = e[i + std::size_t{k} * g_.parallelism()];
  }
  return out;
}

std::optional<CapsuleLayout::Place> CapsuleLayout::place_of(Lbn lbn) const {
  if (lbn < first_ || lbn >= end_) return std::nullopt;
  // The inverse of capsule_blocks: the block's column in the first track of
  // its group of c tracks is the capsule's starting LBN.
  host::Location at = g_.locate(lbn);
  const std::uint32_t p = g_.parallelism();
  const std::uint32_t track = at.square / p;
  const std::uint32_t c = shape_.blocks;
  if (track / c >= g_.page().ny / c) return std::nullopt;  // a track no group uses
  at.square = track / c * c * p + at.square % p;
  const Lbn anchor = g_.lbn_at(at);
  const auto it = std::lower_bound(anchors_.begin(), anchors_.end(), anchor);
  if (it == anchors_.end() || *it != anchor) return std::nullopt;
  return Place{static_cast<std::uint64_t>(it - anchors_.begin()), track % c};
}

std::vector<Lbn> CapsuleLayout::blocks_for(std::uint64_t first, std::uint64_t count,
                                           AttributeMask attrs) const {
  std::vector<Lbn> out;
  if (count == 0) return out;
  const std::uint64_t q0 = first / shape_.records;
  const std::uint64_t q1 = (first + count - 1) / shape_.records;
  for (std::uint64_t q = q0; q <= q1; ++q) {
    const std::vector<Lbn> blocks = capsule_blocks(q);
    for (std::size_t a = 0; a < schema_.attributes(); ++a) {
      if (((attrs >> a) & 1U) == 0) continue;
      for (std::uint32_t k = 0; k < shape_.attribute_blocks[a]; ++k) {
        out.push_back(blocks[shape_.attribute_offset[a] + k]);
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

void CapsuleLayout::block_image(Lbn lbn, std::span<std::uint8_t> out) const {
  std::fill(out.begin(), out.end(), 0);
  const auto place = place_of(lbn);
  if (!place) return;
  std::size_t a = 0;
  while (place->block >= shape_.attribute_offset[a] + shape_.attribute_blocks[a]) ++a;
  const std::uint32_t size = schema_.attribute_bytes[a];
  // Attribute a of the capsule's K records, back to back over its b_a blocks.
  const std::uint64_t column_byte =
      std::uint64_t{place->block - shape_.attribute_offset[a]} * block_bytes_;
  for (std::uint32_t i = 0; i < block_bytes_; ++i) {
    const std::uint64_t b = column_byte + i;
    const std::uint64_t slot = b / size;
    const std::uint64_t record = place->capsule * shape_.records + slot;
    if (slot >= shape_.records || record >= schema_.records) continue;  // padding
    out[i] = value_byte(record, a, static_cast<std::uint32_t>(b % size));
  }
}

}  // namespace memstore::apps
