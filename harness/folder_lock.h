// Keeps two `arena run`s from writing the same results folder at once.
#pragma once

#include <string>

namespace arena {

/// An exclusive lock on the file `path` (created if missing), released when the object dies.
/// Throws Error when another process holds it. A flock rather than a marker file: the kernel
/// drops it when its holder is killed, so a killed run never leaves the folder locked.
class FolderLock {
 public:
  explicit FolderLock(const std::string& path);
  ~FolderLock();
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace arena
