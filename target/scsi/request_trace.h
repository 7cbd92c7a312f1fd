// SPDX-License-Identifier: Apache-2.0
// A LUN's capture of the requests its device model is given (trace = "PATH"
// on a LUN, or `memsctl admin trace start`; docs/memstored.md, "Traces"):
// one line per request in DiskSim's ASCII format or SPC's
// (model/trace_line.h), dated on the LUN's model clock. `memsim replay
// --absolute-times` then gives the same device the same requests at the same
// instants, and each line joins the completion log (--completion-log) by its
// arrival_ns.
//
// What is written is what the model times, not what the transport carried:
// a command the model serves in two accesses (an ORWRITE's read and write,
// a command that also pays a spared tip's access) is two lines with one
// arrival; a command that does not touch the media, or fails before it
// does, is no line. A MEMS BATCH has no form in either format: it becomes a comment
// line (the readers skip it), counted in batches_skipped().
//
// Lines go through a buffer of kBufferBytes; close() (or the destructor)
// writes what is left. The first write error is kept and ends the capture:
// close() returns it.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "base/expected.h"
#include "model/request.h"
#include "model/trace_line.h"

namespace memstore::scsi {

class RequestTrace {
 public:
  static constexpr std::size_t kBufferBytes = 256 * 1024;

  // Creates (or truncates) `path` and writes `header`, each of its lines
  // as a comment. `block_bytes`: the model's block, for SPC's byte sizes.
  // Errors name the file.
  static Expected<std::unique_ptr<RequestTrace>> open(const std::string& path,
                                                      model::TraceFormat format,
                                                      std::int32_t block_bytes,
                                                      std::string_view header);
  ~RequestTrace();
  RequestTrace(const RequestTrace&) = delete;
  RequestTrace& operator=(const RequestTrace&) = delete;

  void record(const model::Request& r);
  // Writes what is buffered and closes the file; the first error of the
  // capture, naming the file. Idempotent.
  memstore::Status close();

  const std::string& path() const { return path_; }
  model::TraceFormat format() const { return format_; }
  std::uint64_t requests() const { return requests_; }
  std::uint64_t batches_skipped() const { return batches_skipped_; }

 private:
  RequestTrace(std::FILE* file, std::string path, model::TraceFormat format,
               std::int32_t block_bytes);
  void put(const std::string& text);

  std::FILE* file_;
  std::unique_ptr<char[]> buffer_;
  std::string path_;
  model::TraceFormat format_;
  std::int32_t block_bytes_;
  std::uint64_t requests_ = 0;
  std::uint64_t batches_skipped_ = 0;
  int error_ = 0;  // errno of the first failed write
};

}  // namespace memstore::scsi
