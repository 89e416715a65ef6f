// `longrange`: the differentiable contact model with long-range influence of seed 004 (Ye et
// al., "Efficient Differentiable Contact Model with Long-Range Influence", ICLR 2025): each
// step minimises I(x, x^t, x^{t-1}) + mu P(x) (Sec. 3.1) over the joint coordinates on the
// shared incremental-potential core (models/incremental_potential/), with P the bounding-sphere-hierarchy blend of
// exact separating-plane potentials between triangles and centred far-field terms (Sec. 4-5,
// Algorithm 1; models/longrange/long_range_potential.h). P is a global barrier: smooth, never
// zero between bodies (non-vanishing gradients at any distance) and infinite at contact, so
// meshes never interpenetrate. Derivatives by the implicit function theorem at the minimiser.
// Friction: the plane-relative damping of App. A.3 with the normal forces of Eq. 12's local
// potential, lagged at the step's start (models/longrange/longrange_contact.h).
#pragma once

#include <memory>
#include <string>

#include "models/incremental_potential/ip_simulator.h"
#include "models/longrange/longrange_contact.h"

namespace arena {

struct LongRangeModelOptions {
  IpOptions ip;
  double mu = 1e-6;         // contact coefficient (Table 3: 1e-6 .. 5e-9; book stacking 1e-5 .. 1e-10)
  double epsilon = 0.01;    // blending margin d2 = (1 + eps) d1 (Eq. 6, 8; the authors' code)
  bool brute_force = false; // every triangle pair exactly (Eq. 3), no hierarchy: validation, scaling
  double friction_epsilon = 1e-4;  // (m/s)^2: smoothing of the damping's slip speed (the authors' code)

  template <class V>
  void VisitFields(V&& v) {
    ip.VisitFields(v);
    v("mu", mu, "contact coefficient scaling the potential (the paper's mu)", "", LeftOpen(0.0, 1.0));
    v("epsilon", epsilon, "blending margin of the hierarchy, d2 = (1 + epsilon) d1", "", LeftOpen(0.0, 1e6));
    v("brute_force", brute_force, "sum the exact potential over every triangle pair, no hierarchy", "");
    v("friction_epsilon", friction_epsilon,
      "smoothing of the friction's slip speed, sqrt(|slip|^2 + epsilon); the coefficient is the colliders'",
      "(m/s)^2", LeftOpen(0.0, 1.0));
  }
  std::string Validate() const;
};

class LongRangeSimulator final : public IncrementalPotentialModel<LongRangeSimulator, LongRangeModelOptions> {
 public:
  static constexpr std::string_view kName = "longrange";
  static Capabilities CapabilitiesFor(const LongRangeModelOptions& options);
  /// Where two stacked boxes (12-triangle meshes) rest under `weight_n` (N): the two triangles of
  /// a face and the two of the face below give 4 near triangle pairs, each pushing with
  /// 12 mu / s^2 (seed 004 Sec. 4: six 1/s vertex terms, s split between the two sides), so the
  /// weight is carried at s = sqrt(48 mu / weight_n) (m). ModelInfo::stacking_gap.
  static double StackingGap(const LongRangeModelOptions& options, double weight_n);
  /// Throws Unsupported for shapes without a triangle mesh (capsules, cylinders, ...).
  LongRangeSimulator(std::shared_ptr<const Scene> scene, const LongRangeModelOptions& options);


 private:
};

}  // namespace arena
