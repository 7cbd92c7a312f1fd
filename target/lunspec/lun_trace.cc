// SPDX-License-Identifier: Apache-2.0
#include "target/lunspec/lun_trace.h"

#include "modepages/mode_vendor.h"

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
  const modepages::ControlPage page = lun.control();
  std::string cmd = "memsim replay " + device_args;
  // Page 22h as the LUN has it now: a MODE SELECT during the capture is not
  // in the trace (docs/memstored.md, "Traces").
  if (page.merge_requests) cmd += " --set power.merge_requests=true";
  if (page.subsector) cmd += " --set power.subsector=true";
  cmd += " --scheduler " + modepages::scheduler_name(page.scheduler).value_or("fcfs");
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
