#include "harness/folder_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/common/error.h"

namespace arena {

FolderLock::FolderLock(const std::string& path) {
  fd_ = ::open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
  if (fd_ < 0) throw Error("cannot open " + path + ": " + std::strerror(errno));
  // Non-blocking: a second run fails at once instead of queueing behind the first.
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd_);
    throw Error("another `arena run` is writing " +
                std::filesystem::path(path).parent_path().string() + " (lock " + path +
                " is held)");
  }
}

FolderLock::~FolderLock() { ::close(fd_); }

}  // namespace arena
