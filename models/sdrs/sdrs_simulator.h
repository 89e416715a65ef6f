// `sdrs`: the contact model of SDRS (Ye et al., "SDRS: Shape-Differentiable Robot Simulator",
// seed 003) on the shared incremental-potential core (models/incremental_potential/): each step minimises the
// incremental potential plus the sum over pairs of convex hulls of the separating-plane
// potential P = kappa min_p L(p) with the locally supported CLogx barrier (Sec. IV-B;
// models/sdrs/sdrs_contact.h), over the joint coordinates, with the core's projected Newton and
// a step bound that keeps every pair separated. P is C2, zero beyond a pruning distance and
// infinite at contact. Friction: the plane-relative damping of Sec. IV-C (translation of the plane
// only, as the authors' code) with normal forces lagged at the step's start. Derivatives by the
// implicit function theorem at the minimiser (Sec. IV-D), and with `design_derivatives` with
// respect to the shape (Sec. III-B, V): the body-frame positions of the moving hulls' vertices,
// with the joint attachment points following their parent hull's vertices.
#pragma once

#include <memory>
#include <string>

#include "models/incremental_potential/ip_simulator.h"
#include "models/sdrs/sdrs_contact.h"

namespace arena {

struct SdrsModelOptions {
  IpOptions ip;
  // N: P = kappa min L (f' is dimensionless, so kappa is a force scale). The authors' code uses
  // 1e-2 in one version and 1e-4 in another; 1e-2 holds the 1 kg conformance box about 1 cm
  // (s ~ x0 / 8) from the plane, within the 0.1 m support.
  double kappa = 1e-2;
  double x0 = 0.1;          // m: support of the CLogx barrier (Sec. IV-B)
  double d0 = 0.0;          // m: safety gap kept between hulls
  double norm_weight = 1.0; // weight of the norm barrier f(1 - |n|) keeping |n| < 1
  double friction_epsilon = 1e-6;  // (m/s)^2: smoothing of the friction's slip speed (Sec. IV-C)
  // The hulls' vertices as design parameters (dq+/dp, dv+/dp). Off by default: a 20-link chain
  // has thousands of them, and every Derivatives call would solve for each.
  bool design_derivatives = false;
  // With design_derivatives: each joint's attachment point is a fixed convex combination of its
  // parent hull's vertices (Sec. III-B keeps it inside a parent hull), so the design moves joints.
  bool design_attachments = true;
  // With design_derivatives: only the colliders whose names start with one of these
  // comma-separated prefixes carry design vertices ("": every moving hull).
  std::string design_colliders;

  template <class V>
  void VisitFields(V&& v) {
    ip.VisitFields(v);
    // Ranges keep both of the authors' kappas with room either way; x0 < 1 is needed by the norm
    // barrier f(1 - |n|) (0.9 leaves |n| room to shrink below 1 - x0); a gap of 0.1 m is
    // already the barrier's whole default support.
    v("kappa", kappa,
      "scale of the separating-plane potential, P = kappa min L (the authors' code: 1e-2 in one version, 1e-4 in "
      "another)", "N", Closed(1e-8, 1e4));
    v("x0", x0, "support of the CLogx barrier f: a vertex farther than x0 from the plane adds nothing", "m",
      Closed(1e-4, 0.9));
    v("d0", d0, "safety gap: hulls closer than d0 are infinitely repelled", "m", Closed(0.0, 0.1));
    v("norm_weight", norm_weight, "weight of the norm barrier f(1 - |n|) in L", "", Closed(1e-6, 1e6));
    v("friction_epsilon", friction_epsilon,
      "smoothing of the friction's slip speed, sqrt(|slip|^2 + epsilon); the coefficient is the colliders'",
      "(m/s)^2", LeftOpen(0.0, 1.0));
    v("design_derivatives", design_derivatives,
      "the moving hulls' vertex positions (body frame) as design parameters, with d(q+, v+)/dp in Derivatives", "");
    v("design_attachments", design_attachments,
      "with design_derivatives: joint attachment points follow their parent hull's vertices (fixed convex weights), "
      "so the design moves joints too", "");
    v("design_colliders", design_colliders,
      "with design_derivatives: comma-separated prefixes of the collider names whose hulls are designed (empty: every "
      "moving hull)", "");
  }
  std::string Validate() const;
  /// The hull-pair options these give (the inner solve's own settings at their defaults).
  sdrs::HullPairOptions Pair() const;
};

class SdrsSimulator final : public IncrementalPotentialModel<SdrsSimulator, SdrsModelOptions>, public ColliderHulls {
 public:
  static constexpr std::string_view kName = "sdrs";
  static Capabilities CapabilitiesFor(const SdrsModelOptions& options);
  /// The gap (m) where the separating-plane potential carries `weight_n` (N) between two box
  /// faces (sdrs::RestingGap): where stacked boxes start (ModelInfo::stacking_gap).
  static double StackingGap(const SdrsModelOptions& options, double weight_n);
  /// Throws Unsupported for shapes without a mesh (capsules, cylinders, ...), InvalidArgument for
  /// bad options.
  SdrsSimulator(std::shared_ptr<const Scene> scene, const SdrsModelOptions& options);

  /// The CLogx barrier acts within x0 of a plane.
  double contact_reach() const override { return options().x0; }
  /// The hull the potential sums over, per collider (models/sdrs/collider_hulls.h).
  const ColliderHulls* collider_hulls() const override { return this; }
  std::vector<ColliderHullSummary> Hulls() const override;


 private:
};

}  // namespace arena
