// LoadScene: dispatch on the file extension. DartDataDir: where Debian's dart-doc data lives.
#include "core/scene/loader.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "core/common/error.h"
#include "core/scene/source_elements.h"

namespace arena {

namespace {

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

void ValidateLoadedScene(const Scene& scene, const std::string& path,
                         const SourceElements& elements) {
  using Subject = SceneIssue::Subject;
  for (const SceneIssue& issue : scene.Check()) {
    if (issue.severity != SceneIssue::Severity::kError) continue;
    const std::vector<std::string>* names = nullptr;
    switch (issue.subject) {
      case Subject::kBody: names = &elements.body; break;
      case Subject::kInertia: names = &elements.inertia; break;
      case Subject::kJoint: names = &elements.joint; break;
      case Subject::kCollider: names = &elements.collider; break;
      case Subject::kActuator: names = &elements.actuator; break;
      default: break;
    }
    std::string element;
    if (names != nullptr && issue.index >= 0 && issue.index < static_cast<int>(names->size())) {
      element = (*names)[issue.index];
    }
    if (element.empty()) element = scene.Describe(issue);
    throw ParseError(path, element, issue.problem);
  }
}

namespace {

Scene LoadByExtension(const std::string& path, const PackagePaths& packages) {
  std::string lower = path;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (EndsWith(lower, ".urdf")) {
    UrdfOptions urdf;
    urdf.packages = packages;
    return LoadUrdf(path, urdf);
  }
  if (EndsWith(lower, ".xml") || EndsWith(lower, ".xml.gz") || EndsWith(lower, ".mjcf")) {
    return LoadMjcf(path);
  }
  if (EndsWith(lower, ".stl") || EndsWith(lower, ".obj")) return LoadMeshScene(path);
  throw ParseError(path, "",
                   "unknown scene file type; expected a robot description (.urdf, or MJCF as "
                   ".xml, .xml.gz or .mjcf) or a mesh (.stl or .obj); convert other formats to "
                   "one of these");
}

}  // namespace

Scene LoadScene(const std::string& path, const SceneLoadOptions& options) {
  if (std::string problem = options.packages.Validate(); !problem.empty()) {
    throw InvalidArgument("--package: " + problem);
  }
  Scene scene = LoadByExtension(path, options.packages);
  ApplySceneOptions(options, &scene);
  return scene;
}

std::string DartDataDir() {
  if (const char* dir = std::getenv("ARENA_DART_DATA_DIR"); dir != nullptr && *dir != '\0') {
    return dir;
  }
  return ARENA_DART_DATA_DIR;
}

}  // namespace arena
