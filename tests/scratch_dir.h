// A fresh empty folder for one test's files, removed with its contents when the object dies.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <string>

namespace arena::testing {

class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "arena_test_XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::filesystem::filesystem_error("mkdtemp", pattern, {});
    path_ = pattern;
  }
  ~ScratchDir() {
    // Tests make files and folders read-only to check that results are never lost; give the
    // owner its rights back first, or remove_all would leave them behind.
    std::error_code ec;
    const auto owner = std::filesystem::perms::owner_all;
    std::filesystem::permissions(path_, owner, std::filesystem::perm_options::add, ec);
    for (auto it = std::filesystem::recursive_directory_iterator(path_, ec);
         it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      std::filesystem::permissions(it->path(), owner, std::filesystem::perm_options::add, ec);
    }
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace arena::testing
