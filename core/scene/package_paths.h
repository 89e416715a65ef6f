// ROS `package://NAME/rel` URIs in URDF mesh filenames -> files on disk.
//
// Where package NAME is, in this order (docs/deviations.md, "Loaders", says why the user's
// mapping comes first although issue 16 listed it last):
//   (a) an explicit mapping NAME=DIR (`--package`, PackagePaths::folders): the user said so;
//   (b) each entry of ROS_PACKAGE_PATH (colon-separated), in order: the entry itself if it is
//       named NAME, a folder NAME directly in it, or a folder NAME holding a package.xml at most
//       kRosSearchDepth levels below it (ROS finds packages by their package.xml, rospack/
//       catkin's crawl; we match the folder name, the ROS convention, instead of reading the
//       manifest's <name>, and, like rospack, do not descend into a package or into hidden
//       folders or folders marked CATKIN_IGNORE / COLCON_IGNORE);
//   (c) upward from the URDF's folder (the loader's rule before ROS paths existed, kept for the
//       files that sit inside their package, like dart-doc's drchubo): a folder named NAME at or
//       above the URDF's folder, or a folder NAME inside one of those folders, that holds `rel`.
// A package found by (a) or (b) decides: when it lacks `rel` the URI is unresolved, as with ROS
// (a stale package earlier on the path is reported, not silently passed over); (c) knows no
// package, only folder names, so there the file itself must exist.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace arena {

/// How deep (b) looks below a ROS_PACKAGE_PATH entry: entry/a/b/c/NAME is depth 4.
inline constexpr int kRosSearchDepth = 4;

struct PackagePaths {
  /// NAME -> folder given by the user (`--package NAME=DIR`); searched first.
  std::map<std::string, std::string> folders;
  /// Colon-separated folders, as $ROS_PACKAGE_PATH; nullopt reads that environment variable
  /// when a URI is resolved (tests set it here instead).
  std::optional<std::string> ros_package_path;

  /// Empty when valid, else the problem: a name that is empty or holds '/', a folder that does
  /// not exist or is not a folder.
  std::string Validate() const;
};

/// "NAME=DIR" -> {NAME, DIR}. Throws InvalidArgument quoting `text` when there is no '=' or
/// either side is empty.
std::pair<std::string, std::string> ParsePackageMapping(const std::string& text);

/// Adds NAME=DIR to `paths`; throws InvalidArgument when NAME is already mapped elsewhere.
void AddPackageMapping(PackagePaths* paths, const std::string& text);

/// Resolves the package:// URIs of one URDF. Packages found by (a) and (b) are remembered, so
/// a robot with fifty meshes crawls ROS_PACKAGE_PATH once per package.
class PackageResolver {
 public:
  PackageResolver(PackagePaths paths, std::filesystem::path urdf_dir);

  struct Result {
    std::string path;     // the file, or empty when unresolved
    std::string problem;  // when unresolved: why, naming every place searched
  };
  /// `uri` starts with "package://".
  Result Resolve(const std::string& uri);

 private:
  struct Found {
    std::string dir;     // the package's folder, empty when (a) and (b) did not find it
    std::string source;  // how: "--package NAME=DIR", "ROS_PACKAGE_PATH entry '...'"
    std::string searched;  // where (a) and (b) looked, for the error message
  };
  const Found& FindPackage(const std::string& name);

  PackagePaths paths_;
  std::filesystem::path urdf_dir_;
  std::map<std::string, Found> found_;
};

}  // namespace arena
