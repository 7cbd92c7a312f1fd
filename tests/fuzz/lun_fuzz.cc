// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for CDB and parameter-list parsing: any byte string,
// taken as a CDB plus data-out, goes through a G2 LUN (in memory). Every
// command must end in GOOD, RESERVATION CONFLICT, or CHECK CONDITION with
// well-formed sense data, and never crash, assert or hang. The LUN persists across inputs, so
// sequences (MODE SELECT then MODE SENSE, MEMS BATCH then RESULTS) are explored too.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "target/scsi/lun.h"
#include "target/scsi/memory_store.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

// The LUN and its store. The store is watched: WRITE SAME alone can fill
// 512 MiB of an in-memory G2 LUN, and over millions of inputs the written
// chunks would pass libFuzzer's 2 GiB limit. Past 256 MiB a fresh LUN is
// made (what is explored is command handling, not a full device).
struct Target {
  std::unique_ptr<memstore::scsi::Lun> lun;
  const memstore::scsi::MemoryStore* store = nullptr;
};

Target make_target() {
  memstore::scsi::LunConfig config;
  config.timing.mode = memstore::scsi::TimingMode::kOff;
  // The fuzzer's nexus is unnamed: let it change page 22h, so that the
  // control page's handling stays explored.
  config.control_access.unnamed = true;
  const memstore::model::Geometry g(config.device);
  auto created_store =
      memstore::scsi::MemoryStore::create(static_cast<std::uint64_t>(g.blocks()), 512);
  auto store = std::move(created_store).value();
  Target t;
  t.store = store.get();
  auto created = memstore::scsi::Lun::create(config, std::move(store));
  t.lun = std::move(created).value();
  return t;
}

memstore::scsi::Lun& lun() {
  static Target target = make_target();
  if (target.store->resident_bytes() > (std::uint64_t{256} << 20)) target = make_target();
  return *target.lun;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // First byte: CDB length (6, 10, 12, 16) and the I_T nexus.
  static constexpr std::size_t kLengths[] = {6, 10, 12, 16};
  const std::size_t cdb_len = kLengths[data[0] & 3];
  std::vector<std::uint8_t> cdb(16, 0);
  for (std::size_t i = 0; i < cdb_len && 1 + i < size; ++i) cdb[i] = data[1 + i];
  const std::size_t out_at = 1 + cdb_len < size ? 1 + cdb_len : size;
  static std::uint64_t tag = 0;
  static memstore::model::Ns now = 0;
  memstore::scsi::ScsiCommand c;
  c.nexus = (data[0] >> 2) & 3;
  c.tag = ++tag;
  c.cdb = cdb;
  c.data_out = std::span<const std::uint8_t>(data + out_at, size - out_at);
  now += 1000;
  c.arrival_ns = now;
  const memstore::scsi::ScsiResult r = lun().execute(c);
  if (r.status == memstore::scsi::Status::kGood ||
      r.status == memstore::scsi::Status::kReservationConflict) {
    // RESERVATION CONFLICT carries no sense data (SPC-4 "Reservations"):
    // another nexus may hold a reservation from an earlier input.
    check(r.sense.empty());
  } else {
    check(r.status == memstore::scsi::Status::kCheckCondition);
    check(r.sense.size() >= 8);
    check(r.sense[0] == 0x70 || r.sense[0] == 0xF0 || r.sense[0] == 0x72);
  }
  check(r.complete_ns >= c.arrival_ns);
  return 0;
}
