// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the control socket's requests (target/control/
// control_commands.h), which any local user the socket admits can send:
// every line gets one reply, {"ok": true, ...} or {"ok": false, "error":
// "..."} with words in it, that serializes — never a crash, a hang or an
// exception. Fault rules added on the way (fault-add, parse_fault) run on a
// real in-memory LUN, and a READ after each line exercises them.
#include <boost/asio/io_context.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "target/control/control_commands.h"
#include "target/scsi/memory_store.h"

namespace {

using namespace memstore;

driver::TimedLun& fuzzed_lun() {
  static boost::asio::io_context io;
  static driver::TimedLun* d = [] {
    scsi::LunConfig c;
    c.timing.mode = scsi::TimingMode::kOff;
    const model::Geometry g(c.device);
    auto store = scsi::MemoryStore::create(static_cast<std::uint64_t>(g.blocks()), 512);
    auto lun = scsi::Lun::create(std::move(c), std::move(store).value());
    return new driver::TimedLun(io, std::move(lun).value());
  }();
  return *d;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  driver::TimedLun& d = fuzzed_lun();
  control::ControlCommands commands(
      {{"iqn.2026-11.org.memstore:fuzz", 0, "g2", "memory", &d, "--device g2"}},
      [](driver::TimedLun& lun, std::function<control::json(driver::TimedLun&)> work,
         control::ControlCommands::Reply reply) { reply(work(lun)); });
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    int replies = 0;
    commands.handle(std::string(text.substr(start, end - start)), [&](control::json r) {
      ++replies;
      if (!r.is_object() || !r.contains("ok") || !r["ok"].is_boolean()) std::abort();
      if (!r["ok"].get<bool>() && (!r.contains("error") || !r["error"].is_string() ||
                                   r["error"].get<std::string>().find(' ') == std::string::npos)) {
        std::abort();
      }
      (void)r.dump(-1, ' ', false, control::json::error_handler_t::replace);
    });
    if (replies != 1) std::abort();
    // Back to timing off: a `timing` line may have slowed the model down
    // a thousandfold, and the READ below would then take seconds.
    modepages::ControlPage page = d.lun().control();
    page.timing = scsi::TimingMode::kOff;
    (void)d.set_control(page);
    // A READ, a WRITE and a TEST UNIT READY through whatever rules are
    // there now (every action's path in the LUN and the delivery engine).
    const std::uint8_t read10[10] = {0x28, 0, 0, 0, 0x03, 0xE8, 0, 0, 8, 0};
    const std::uint8_t write10[10] = {0x2A, 0, 0, 0, 0x03, 0xEC, 0, 0, 1, 0};
    const std::uint8_t tur[6] = {0, 0, 0, 0, 0, 0};
    static const std::vector<std::uint8_t> block(512, 0x5A);
    d.submit({.nexus = 1, .tag = 1, .cdb = read10, .data_out = {}}, [](scsi::ScsiResult) {});
    d.submit({.nexus = 1, .tag = 2, .cdb = write10, .data_out = block}, [](scsi::ScsiResult) {});
    d.submit({.nexus = 1, .tag = 3, .cdb = tur, .data_out = {}}, [](scsi::ScsiResult) {});
    d.context().run();
    d.context().restart();
    start = end + 1;
  }
  d.lun().clear_faults();  // each input starts from no rules
  return 0;
}
