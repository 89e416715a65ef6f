#include "core/common/input_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/common/error.h"

namespace arena {

void CheckInputFile(const std::string& path, const std::string& kind) {
  namespace fs = std::filesystem;
  if (path.empty()) throw ParseError("''", "", "empty path; give the " + kind + " to read");
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status)) {
    std::string where;
    if (fs::path(path).is_relative()) {
      where = " (relative to the working directory " + fs::current_path(ec).string() + ")";
    }
    throw ParseError(path, "", "file not found" + where + "; check the path of the " + kind);
  }
  if (fs::is_directory(status)) {
    throw ParseError(path, "", "is a directory, not a " + kind + "; give the path of the " +
                                   kind + " itself");
  }
  if (!fs::is_regular_file(status)) {
    throw ParseError(path, "", "is not a regular file (a device, pipe or socket); give the path "
                               "of a " + kind);
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const std::string why = errno != 0 ? std::strerror(errno) : "reason unknown";
    throw ParseError(path, "", "cannot be opened for reading (" + why +
                                   "); check the file's permissions");
  }
  if (fs::file_size(path, ec) == 0 && !ec) {
    throw ParseError(path, "", "the file is empty; expected a " + kind);
  }
}

}  // namespace arena
