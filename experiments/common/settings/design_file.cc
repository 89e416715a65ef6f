#include "experiments/common/settings/design_file.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "core/common/error.h"

namespace arena {

std::map<std::string, std::vector<Vec3>> ReadDesignFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InvalidArgument("design file " + path + ": cannot be read");
  std::map<std::string, std::vector<Vec3>> objects;
  std::vector<Vec3>* current = nullptr;
  int line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    const std::string where = "line " + std::to_string(line_number);
    std::istringstream fields(line);
    std::string tag;
    fields >> tag;
    if (tag == "o") {
      std::string name;
      fields >> name;
      if (name.empty()) throw ParseError(path, where, "an object without a name");
      if (objects.count(name) > 0) throw ParseError(path, where, "object '" + name + "' appears twice");
      current = &objects[name];
    } else if (tag == "v") {
      if (current == nullptr) throw ParseError(path, where, "a vertex before any object ('o <collider>')");
      Vec3 v;
      if (!(fields >> v.x() >> v.y() >> v.z()) || !v.allFinite()) {
        throw ParseError(path, where, "a vertex needs three finite coordinates: '" + line + "'");
      }
      current->push_back(v);
    }
  }
  if (objects.empty()) throw InvalidArgument("design file " + path + ": no object ('o <collider>' and its 'v' lines)");
  return objects;
}

VecX DesignFromFile(const Simulator& sim, const std::string& path) {
  const std::map<std::string, std::vector<Vec3>> objects = ReadDesignFile(path);
  const std::vector<DesignVertexId> ids = RequireDesignVertices(sim).DesignVertexIds();
  std::map<std::string, int> points;  // per designed collider
  for (const auto& id : ids) points[id.collider] = std::max(points[id.collider], id.vertex + 1);
  for (const auto& [collider, n] : points) {
    const auto it = objects.find(collider);
    if (it == objects.end()) throw InvalidArgument("design file " + path + ": no object '" + collider + "' (a designed collider)");
    if (static_cast<int>(it->second.size()) != n) {
      throw InvalidArgument("design file " + path + ": object '" + collider + "' has " + std::to_string(it->second.size()) +
                            " points, its collider " + std::to_string(n));
    }
  }
  VecX p(3 * static_cast<Eigen::Index>(ids.size()));
  for (std::size_t k = 0; k < ids.size(); ++k) {
    p.segment<3>(3 * static_cast<Eigen::Index>(k)) = objects.at(ids[k].collider)[static_cast<std::size_t>(ids[k].vertex)];
  }
  return p;
}

}  // namespace arena
