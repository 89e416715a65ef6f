// package:// resolution (the order and its reasons: package_paths.h).
#include "core/scene/package_paths.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "core/common/error.h"

namespace arena {

namespace {

namespace fs = std::filesystem;

const std::string kPackageScheme = "package://";

bool IsDirectory(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

bool Exists(const fs::path& p) {
  std::error_code ec;
  return fs::exists(p, ec);
}

// The non-empty entries of a colon-separated list, without trailing slashes ("/a/b/" ->
// "/a/b", so that its folder name is "b").
std::vector<std::string> SplitColons(const std::string& text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t colon = std::min(text.find(':', start), text.size());
    std::string part = text.substr(start, colon - start);
    while (part.size() > 1 && part.back() == '/') part.pop_back();
    if (!part.empty()) parts.push_back(std::move(part));
    start = colon + 1;
  }
  return parts;
}

// rospack's crawl stops at a package (packages do not nest) and at a marked or hidden folder.
bool IsPackage(const fs::path& dir) { return Exists(dir / "package.xml"); }
bool SkipFolder(const fs::path& dir) {
  const std::string name = dir.filename().string();
  return (!name.empty() && name[0] == '.') || Exists(dir / "CATKIN_IGNORE") ||
         Exists(dir / "COLCON_IGNORE") || Exists(dir / "AMENT_IGNORE");
}

// Rule (b) on one ROS_PACKAGE_PATH entry: the package folder, or "".
std::string SearchRosEntry(const std::string& entry, const std::string& name) {
  if (fs::path(entry).filename() == name) return entry;
  if (IsDirectory(fs::path(entry) / name)) return (fs::path(entry) / name).string();
  std::vector<fs::path> level = {fs::path(entry)};
  for (int depth = 1; depth <= kRosSearchDepth && !level.empty(); ++depth) {
    std::vector<fs::path> next;
    for (const fs::path& dir : level) {
      if (depth > 1 && (IsPackage(dir) || SkipFolder(dir))) continue;
      std::vector<fs::path> children;
      std::error_code ec;
      for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
           !ec && it != end; it.increment(ec)) {
        if (IsDirectory(it->path())) children.push_back(it->path());
      }
      std::sort(children.begin(), children.end());  // the iterator's order is unspecified
      for (const fs::path& child : children) {
        if (child.filename() == name && IsPackage(child)) return child.string();
        next.push_back(child);
      }
    }
    level = std::move(next);
  }
  return "";
}

std::string Quoted(const std::string& s) { return "'" + s + "'"; }

}  // namespace

std::string PackagePaths::Validate() const {
  for (const auto& [name, dir] : folders) {
    if (name.empty() || name.find('/') != std::string::npos) {
      return "package name '" + name + "' must be non-empty and hold no '/'";
    }
    if (!IsDirectory(dir)) {
      return "package " + name + "=" + dir + ": " + dir +
             (Exists(dir) ? " is not a folder" : " does not exist");
    }
  }
  return "";
}

std::pair<std::string, std::string> ParsePackageMapping(const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    throw InvalidArgument("package mapping '" + text +
                          "': expected NAME=DIR (the folder that package://NAME/ stands for)");
  }
  return {text.substr(0, eq), text.substr(eq + 1)};
}

void AddPackageMapping(PackagePaths* paths, const std::string& text) {
  const auto [name, dir] = ParsePackageMapping(text);
  const auto [it, added] = paths->folders.emplace(name, dir);
  if (!added && it->second != dir) {
    throw InvalidArgument("package '" + name + "' is mapped twice: to " + it->second + " and to " + dir);
  }
}

PackageResolver::PackageResolver(PackagePaths paths, fs::path urdf_dir)
    : paths_(std::move(paths)), urdf_dir_(std::move(urdf_dir)) {}

const PackageResolver::Found& PackageResolver::FindPackage(const std::string& name) {
  if (auto it = found_.find(name); it != found_.end()) return it->second;
  Found f;
  // (a) the user's mapping.
  if (auto it = paths_.folders.find(name); it != paths_.folders.end()) {
    f.dir = it->second;
    f.source = "--package " + name + "=" + it->second;
    return found_[name] = f;
  }
  std::string mapped;
  for (const auto& [other, dir] : paths_.folders) mapped += (mapped.empty() ? "" : ", ") + other;
  f.searched = "--package mappings: " + (mapped.empty() ? "none given" : "only for " + mapped);
  // (b) ROS_PACKAGE_PATH.
  std::optional<std::string> ros = paths_.ros_package_path;
  if (!ros) {
    const char* env = std::getenv("ROS_PACKAGE_PATH");
    if (env != nullptr) ros = env;
  }
  const std::vector<std::string> entries = ros ? SplitColons(*ros) : std::vector<std::string>{};
  if (entries.empty()) {
    f.searched += "; ROS_PACKAGE_PATH: " + std::string(ros ? "empty" : "not set");
  } else {
    std::string list;
    for (const std::string& entry : entries) {
      list += (list.empty() ? "" : ", ") + Quoted(entry);
      if (!IsDirectory(entry)) {
        list += Exists(entry) ? " (not a folder)" : " (does not exist)";
        continue;
      }
      if (std::string dir = SearchRosEntry(entry, name); !dir.empty()) {
        f.dir = dir;
        f.source = "ROS_PACKAGE_PATH entry " + Quoted(entry);
        return found_[name] = f;
      }
    }
    f.searched += "; ROS_PACKAGE_PATH entries " + list + " (no folder named '" + name +
                  "' in them, nor one holding a package.xml up to " +
                  std::to_string(kRosSearchDepth) + " levels below)";
  }
  return found_[name] = f;
}

PackageResolver::Result PackageResolver::Resolve(const std::string& uri) {
  const std::string rest = uri.substr(kPackageScheme.size());
  const size_t slash = rest.find('/');
  const std::string name = rest.substr(0, slash);
  const std::string rel = slash == std::string::npos ? "" : rest.substr(slash + 1);
  const Found& f = FindPackage(name);
  if (!f.dir.empty()) {
    const fs::path file = fs::path(f.dir) / rel;
    if (Exists(file)) return {file.string(), ""};
    std::string problem = "package '" + name + "' is " + f.dir + " (" + f.source + "), which has no '" +
                          rel + "'";
    if (!f.searched.empty()) problem += " (before it, searched " + f.searched + ")";
    if (f.source.rfind("--package", 0) != 0) problem += "; --package " + name + "=DIR overrides it";
    return {"", problem};
  }
  // (c) upward from the URDF's folder.
  std::error_code ec;
  std::string walked;
  for (fs::path dir = fs::absolute(urdf_dir_, ec);; dir = dir.parent_path()) {
    if (dir.filename() == name && Exists(dir / rel)) return {(dir / rel).string(), ""};
    if (IsDirectory(dir / name) && Exists(dir / name / rel)) return {(dir / name / rel).string(), ""};
    walked += (walked.empty() ? "" : ", ") + dir.string();
    if (dir == dir.parent_path()) break;
  }
  return {"", "package '" + name + "' not found; searched " + f.searched +
                  "; upward from the URDF, no folder named '" + name + "' holding '" + rel +
                  "' at or in " + walked + ". Give --package " + name +
                  "=DIR, add the folder that holds " + name +
                  " to ROS_PACKAGE_PATH, keep the URDF inside its package, or give the mesh path "
                  "relative to the URDF"};
}

}  // namespace arena
