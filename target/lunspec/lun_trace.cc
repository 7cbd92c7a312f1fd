// SPDX-License-Identifier: Apache-2.0
#include "target/lunspec/lun_trace.h"

namespace memstore::lunspec {

namespace {

// A shell word: as is when it needs no quoting, else in single quotes.
std::string shell_word(const std::string& s) {
  const bool plain = !s.empty() && s.find_first_not_of(
                                       "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                       "0123456789_-+./=:,@%") == std::string::npos;
  if (plain) return s;
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::string memsim_device_args(const LunSpec& spec) {
  std::string args = "--device " + shell_word(spec.device);
  if (!spec.device_config.empty()) args += " --config " + shell_word(spec.device_config);
  for (const std::string& s : spec.set) args += " --set " + shell_word(s);
  return args;
}

std::string replay_command(const std::string& path, model::TraceFormat format,
                           const std::string& device_args, const scsi::Lun& lun) {
  std::string cmd = "memsim replay " + device_args;
  if (!lun.is_disk()) {
    // What pages 1Ah and 22h set in the model, as the LUN has it now: an
    // initiator's MODE SELECT since it opened is in neither the spec nor
    // the trace (and one during the capture is not replayed at all:
    // docs/memstored.md, "Traces"). A later --set wins over the spec's.
    const model::PowerParams& p = lun.config().device.power;
    cmd += " --set power.idle_timeout_ns=" + std::to_string(p.idle_timeout_ns);
    cmd += std::string(" --set power.merge_requests=") + (p.merge_requests ? "true" : "false");
    cmd += std::string(" --set power.subsector=") + (p.subsector ? "true" : "false");
  }
  cmd += " --scheduler " + lun.config().scheduler;
  cmd += " --absolute-times --format " + std::string(model::trace_format_name(format));
  return cmd + " --trace " + shell_word(path);
}

Expected<std::unique_ptr<scsi::RequestTrace>> open_trace(const std::string& path,
                                                         model::TraceFormat format,
                                                         const std::string& lun_name,
                                                         const std::string& device_args,
                                                         const scsi::Lun& lun, scsi::Ns now) {
  const std::string header = "memstore capture of " + lun_name + ", from " + std::to_string(now) +
                             " ns on the LUN's model clock (0: the LUN opened)\n"
                             "replay: " +
                             replay_command(path, format, device_args, lun) +
                             " --completions FILE.csv";
  return scsi::RequestTrace::open(path, format, static_cast<std::int32_t>(lun.block_size()),
                                  header);
}

}  // namespace memstore::lunspec
