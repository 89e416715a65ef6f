#include "harness/inspect_colliders.h"

#include <cmath>
#include <cstdio>

#include "harness/scene_labels.h"
#include "models/incremental_potential/collider_meshes.h"
#include "models/registry.h"

namespace arena {
namespace {

// What sdrs did with one collider: kept its mesh (convex), took the hull of a non-convex one
// (with the volume it adds) or of an open one (a ground's top face, whose box corners it keeps),
// or kept every vertex of a flat point set.
std::string HullChoice(const ColliderHullSummary& h) {
  if (std::isnan(h.hull_volume)) return "flat: every vertex";
  if (std::isnan(h.mesh_volume)) return "open mesh: the hull of its vertices";
  if (h.convex) return "convex: the mesh itself";
  char buf[96];
  std::snprintf(buf, sizeof(buf), "NOT convex: its hull, +%.3g %% volume", 100.0 * (h.hull_volume / h.mesh_volume - 1.0));
  return buf;
}

// The hulls a model that works on convex hulls (sdrs) built, and which colliders it filled.
void DescribeHulls(const Scene& scene, const std::string& model, const std::vector<ColliderHullSummary>& hulls,
                   ContactGeometryTable* t) {
  t->title = model + " hulls (one convex hull per collider mesh)";
  t->header = {"COLLIDER", "BODY", "MESH_VERTICES", "TRIANGLES", "HULL_VERTICES", "HULL"};
  int concave = 0;
  for (const ColliderHullSummary& h : hulls) {
    concave += h.convex ? 0 : 1;
    t->rows.push_back({ColliderLabel(scene, h.collider), BodyLabel(scene, h.body), std::to_string(h.mesh_vertices),
                       std::to_string(h.mesh_triangles), std::to_string(h.hull_vertices), HullChoice(h)});
  }
  if (concave > 0) {
    t->note = std::to_string(concave) + " collider(s) are not convex: " + model + " fills them to their hulls (no convex "
              "decomposition is built; split such a link into convex colliders in its scene file)";
  }
}

}  // namespace

ContactGeometryTable DescribeContactGeometry(std::shared_ptr<const Scene> scene, const std::string& model,
                                             const std::map<std::string, std::string>& options) {
  const std::unique_ptr<Simulator> sim = MakeSimulator(model, scene, options);
  ContactGeometryTable t;
  t.warnings = sim->OptionWarnings();
  MeshPotential* mesh = sim->mesh_potential();
  if (mesh == nullptr) {
    t.note = model + " takes the colliders' shapes as they are (no meshes or hulls)";
    return t;
  }
  if (const ColliderHulls* hulls = sim->collider_hulls()) {
    DescribeHulls(*scene, model, hulls->Hulls(), &t);
    return t;
  }
  t.title = model + " contact meshes";
  t.header = {"COLLIDER", "BODY", "VERTICES", "TRIANGLES"};
  for (const ColliderMesh& m : mesh->meshes()) {
    t.rows.push_back({ColliderLabel(*scene, m.collider), BodyLabel(*scene, m.body), std::to_string(m.vertices.rows()),
                      std::to_string(m.triangles.rows())});
  }
  return t;
}

}  // namespace arena
