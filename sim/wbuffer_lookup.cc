// SPDX-License-Identifier: Apache-2.0
// The write buffer's data lookup table; described in the header.
#include "sim/wbuffer_lookup.h"

#include <algorithm>

namespace memstore::sim {

model::Lbn DataLookupTable::Entry::slot(int i) const {
  if (!fragments) return whole == kNone ? kNone : whole + i * kFragmentBlocks;
  return (*fragments)[static_cast<std::size_t>(i)];
}

void DataLookupTable::split(Entry& e) {
  if (e.fragments) return;
  e.fragments = std::make_unique<std::array<model::Lbn, kFragmentsPerBlock>>();
  for (int i = 0; i < kFragmentsPerBlock; ++i) {
    (*e.fragments)[static_cast<std::size_t>(i)] =
        e.whole == kNone ? kNone : e.whole + i * kFragmentBlocks;
  }
  e.whole = kNone;
}

void DataLookupTable::join(Entry& e) {
  const auto& f = *e.fragments;
  if (f[0] == kNone) return;
  for (int i = 1; i < kFragmentsPerBlock; ++i) {
    if (f[static_cast<std::size_t>(i)] != f[0] + i * kFragmentBlocks) return;
  }
  e.whole = f[0];
  e.fragments.reset();
}

std::optional<model::Lbn> DataLookupTable::find(std::int64_t fragment) const {
  const auto it = table_.find(fragment / kFragmentsPerBlock);
  if (it == table_.end()) return std::nullopt;
  const model::Lbn s = it->second.slot(static_cast<int>(fragment % kFragmentsPerBlock));
  if (s == kNone) return std::nullopt;
  return s;
}

std::optional<model::Lbn> DataLookupTable::set(std::int64_t fragment, model::Lbn slot_lbn) {
  Entry& e = table_[fragment / kFragmentsPerBlock];
  const int i = static_cast<int>(fragment % kFragmentsPerBlock);
  const model::Lbn old = e.slot(i);
  split(e);
  (*e.fragments)[static_cast<std::size_t>(i)] = slot_lbn;
  join(e);
  if (old == kNone) return std::nullopt;
  return old;
}

std::optional<model::Lbn> DataLookupTable::erase(std::int64_t fragment) {
  const auto it = table_.find(fragment / kFragmentsPerBlock);
  if (it == table_.end()) return std::nullopt;
  Entry& e = it->second;
  const int i = static_cast<int>(fragment % kFragmentsPerBlock);
  const model::Lbn old = e.slot(i);
  if (old == kNone) return std::nullopt;
  split(e);
  (*e.fragments)[static_cast<std::size_t>(i)] = kNone;
  const auto& f = *e.fragments;
  if (std::all_of(f.begin(), f.end(), [](model::Lbn s) { return s == kNone; })) table_.erase(it);
  return old;
}

std::size_t DataLookupTable::fragmented_entries() const {
  return static_cast<std::size_t>(std::count_if(
      table_.begin(), table_.end(), [](const auto& kv) { return kv.second.fragments != nullptr; }));
}

}  // namespace memstore::sim
