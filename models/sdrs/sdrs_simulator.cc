#include "models/sdrs/sdrs_simulator.h"

#include "core/common/error.h"
#include "core/common/strings.h"
#include "models/sdrs/collider_hulls.h"
#include "models/sdrs/resting_gap.h"

namespace arena {

// The embedded IpOptions' fields are visited too, so one CheckRanges covers both.
std::string SdrsModelOptions::Validate() const { return CheckRanges(*this); }

sdrs::HullPairOptions SdrsModelOptions::Pair() const {
  sdrs::HullPairOptions o;
  o.kappa = kappa;
  o.x0 = x0;
  o.d0 = d0;
  o.norm_weight = norm_weight;
  // Each pair restarts from its last plane; a near-Newton first step pays off from there (P is
  // unique, so only the cost changes), as longrange's triangle pairs do.
  o.initial_damping = 1e-6;
  return o;
}

Capabilities SdrsSimulator::CapabilitiesFor(const SdrsModelOptions& options) {
  Capabilities c = IpCapabilities(/*smooth=*/true);  // P is C2 (Sec. IV-B)
  c.design_derivatives = options.design_derivatives;
  return c;
}

namespace {

const SdrsModelOptions& Checked(const SdrsModelOptions& o) {
  if (std::string why = o.Validate(); !why.empty()) throw InvalidArgument("sdrs: " + why);
  return o;
}

}  // namespace

double SdrsSimulator::StackingGap(const SdrsModelOptions& options, double weight_n) {
  return sdrs::RestingGap(options.Pair(), weight_n);
}

SdrsSimulator::SdrsSimulator(std::shared_ptr<const Scene> scene, const SdrsModelOptions& options)
    : IncrementalPotentialModel(std::move(scene), Checked(options),
                                    [&options](const std::vector<ColliderMesh>& meshes) {
                                      return std::make_unique<SdrsContact>(meshes, options.Pair(), options.ip.timestep,
                                                                          options.friction_epsilon);
                                    }) {
  if (!options_.design_derivatives) return;
  // Sec. V: the shape is the hulls' vertices, the ones the potential sums over.
  const std::vector<std::string> prefixes = SplitTrimmed(options_.design_colliders, ',');
  auto designed = [&](const std::string& collider) {
    if (prefixes.empty()) return true;
    for (const std::string& p : prefixes) {
      if (collider.rfind(p, 0) == 0) return true;
    }
    return false;
  };
  std::vector<StepEnergy::DesignVertex> design;
  for (int m = 0; m < static_cast<int>(meshes().size()); ++m) {
    if (!designed(this->scene().colliders[meshes()[m].collider].name)) continue;
    for (int v : sdrs::HullVertices(meshes()[m].vertices)) design.push_back({m, v});
  }
  if (design.empty() && !prefixes.empty()) {
    throw InvalidArgument("sdrs: design_colliders '" + options_.design_colliders + "' matches no moving hull");
  }
  SetDesignVertices(std::move(design));
  if (options_.design_attachments) FollowAttachments();
}

std::vector<ColliderHullSummary> SdrsSimulator::Hulls() const {
  std::vector<ColliderHullSummary> out;
  for (const sdrs::ColliderHull& h : sdrs::DescribeColliderHulls(meshes())) {
    out.push_back({h.collider, h.body, h.mesh_vertices, h.mesh_triangles, h.hull_vertices, h.mesh_volume, h.hull_volume,
                   h.Convex()});
  }
  return out;
}

}  // namespace arena
