// SPDX-License-Identifier: Apache-2.0
// What the files beside a LUN (its image, file_store.cc; its identity,
// lun_identity.cc; its write log, write_log.cc) share: an errno as text, a
// path's directory, whole transfers, and making a newly created file's
// directory entry durable.
#pragma once

#include <sys/types.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>

namespace memstore::scsi {

// The text of an errno value ("No such file or directory").
std::string errno_text(int e);

// The directory a path names its file in: "." for a bare file name.
std::string parent_directory(const std::string& path);

// Flushes a directory, so that a file created in it survives a crash:
// fsync or fdatasync on the file itself does not make its name durable
// (fsync(2)). Returns 0 or the errno.
int fsync_directory(const std::string& dir);

// pread/pwrite until `buf` is done, at most `piece` bytes per call,
// retrying EINTR and short transfers. Returns 0 or the errno; a transfer of
// 0 bytes (end of file) is EIO. `done` says how far it got, for the message.
template <typename Syscall, typename Byte>
int transfer_all(Syscall io, int fd, std::span<Byte> buf, std::uint64_t offset, std::size_t& done,
                 std::size_t piece = std::numeric_limits<std::size_t>::max()) {
  done = 0;
  while (done < buf.size()) {
    const ssize_t n = io(fd, buf.data() + done, std::min(buf.size() - done, piece),
                         static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0) return EIO;
    done += static_cast<std::size_t>(n);
  }
  return 0;
}

}  // namespace memstore::scsi
