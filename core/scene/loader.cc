// LoadScene: dispatch on the file extension. DartDataDir: where Debian's dart-doc data lives.
#include "core/scene/loader.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "core/common/error.h"

namespace arena {

namespace {

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

Scene LoadScene(const std::string& path) {
  std::string lower = path;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (EndsWith(lower, ".urdf")) return LoadUrdf(path);
  if (EndsWith(lower, ".xml") || EndsWith(lower, ".xml.gz") || EndsWith(lower, ".mjcf")) {
    return LoadMjcf(path);
  }
  if (EndsWith(lower, ".stl") || EndsWith(lower, ".obj")) return LoadMeshScene(path);
  throw ParseError(path, "", "unknown scene file type; expected .urdf, .xml, .xml.gz, .mjcf, "
                             ".stl or .obj");
}

std::string DartDataDir() {
  if (const char* dir = std::getenv("ARENA_DART_DATA_DIR"); dir != nullptr && *dir != '\0') {
    return dir;
  }
  return ARENA_DART_DATA_DIR;
}

}  // namespace arena
