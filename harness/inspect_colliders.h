// What a contact model makes of a scene's colliders, for `arena inspect SCENE --model M`, asked
// through the Simulator contract: a model with collider meshes (Simulator::mesh_potential: the
// incremental-potential models longrange, ipc, sdrs) sees triangle meshes (spheres tessellated,
// half-spaces as boxes; models/incremental_potential/collider_meshes.h), and a model that works on
// hulls (Simulator::collider_hulls: sdrs) the convex hull of each mesh, which replaces a
// non-convex collider by its hull. The other models take the colliders' shapes as they are.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/scene/scene.h"

namespace arena {

struct ContactGeometryTable {
  std::string title;                            // "" when the model has no meshes
  std::string note;                             // a line under the table (or the whole answer)
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;   // one per collider
  std::vector<std::string> warnings;            // the model's OptionWarnings on the scene
};

/// The table for `model` (a registered name) built with `options` on `scene`. Throws as
/// MakeSimulator does for an unknown model, a bad option or a shape the model cannot mesh.
ContactGeometryTable DescribeContactGeometry(std::shared_ptr<const Scene> scene, const std::string& model,
                                             const std::map<std::string, std::string>& options);

}  // namespace arena
