// What the files beside a LUN (its image, file_store.cc; its identity,
// lun_identity.cc) share: an errno as text, a path's directory, and making
// a newly created file's directory entry durable.
#pragma once

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

}  // namespace memstore::scsi
