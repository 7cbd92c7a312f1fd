// SPDX-License-Identifier: Apache-2.0
#include "target/scsi/request_trace.h"

#include <cerrno>
#include <cstring>

namespace memstore::scsi {

Expected<std::unique_ptr<RequestTrace>> RequestTrace::open(const std::string& path,
                                                           model::TraceFormat format,
                                                           std::int32_t block_bytes,
                                                           std::string_view header) {
  std::FILE* file = std::fopen(path.c_str(), "we");
  if (file == nullptr) {
    const int e = errno;
    return Error(e, "cannot write the trace '" + path + "': " + std::strerror(e));
  }
  std::unique_ptr<RequestTrace> trace(new RequestTrace(file, path, format, block_bytes));
  while (!header.empty()) {
    const std::size_t end = header.find('\n');
    trace->put("# " + std::string(header.substr(0, end)) + "\n");
    header.remove_prefix(end == std::string_view::npos ? header.size() : end + 1);
  }
  return trace;
}

RequestTrace::RequestTrace(std::FILE* file, std::string path, model::TraceFormat format,
                           std::int32_t block_bytes)
    : file_(file),
      buffer_(new char[kBufferBytes]),
      path_(std::move(path)),
      format_(format),
      block_bytes_(block_bytes) {
  std::setvbuf(file_, buffer_.get(), _IOFBF, kBufferBytes);
}

RequestTrace::~RequestTrace() {
  (void)close();
}

void RequestTrace::put(const std::string& text) {
  if (file_ == nullptr || error_ != 0) return;
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size())
    error_ = errno != 0 ? errno : EIO;
}

void RequestTrace::record(const model::Request& r) {
  if (r.batch != nullptr) {
    ++batches_skipped_;
    put("# a MEMS BATCH arriving at " + std::to_string(r.arrival_ns) +
        " ns: the format has no form for it; a replay leaves it out\n");
    return;
  }
  ++requests_;
  put(model::trace_line(format_, r, block_bytes_));
}

memstore::Status RequestTrace::close() {
  if (file_ != nullptr) {
    errno = 0;
    if (std::fclose(file_) != 0 && error_ == 0) error_ = errno != 0 ? errno : EIO;
    file_ = nullptr;
  }
  if (error_ != 0) {
    return Error(error_, "writing the trace '" + path_ + "': " + std::strerror(error_));
  }
  return {};
}

}  // namespace memstore::scsi
