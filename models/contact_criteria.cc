#include "models/contact_criteria.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/common/error.h"
#include "core/geometry/signed_distance.h"
#include "core/multibody/energy.h"
#include "core/multibody/kinematics.h"

namespace arena {

namespace {

void CheckPoint(const Scene& scene, const ContactPoint& p, size_t i) {
  const int nb = scene.model.num_bodies();
  auto valid_body = [nb](int b) { return b == kWorldBody || (b >= 0 && b < nb); };
  if (!valid_body(p.body_a) || !valid_body(p.body_b)) {
    throw InvalidArgument("contact criteria: point " + std::to_string(i) + " names body " +
                          std::to_string(valid_body(p.body_a) ? p.body_b : p.body_a) + "; the scene has " +
                          std::to_string(nb));
  }
  if (!(std::abs(p.normal.norm() - 1.0) < 1e-6) || !p.force_on_a.allFinite() || !std::isfinite(p.gap)) {
    throw InvalidArgument("contact criteria: point " + std::to_string(i) +
                          " has a normal that is not unit length or a non-finite gap or force");
  }
}

Vec3 VelocityOf(const MultibodyData& data, int body, const Vec3& p_W) {
  return body == kWorldBody ? Vec3::Zero() : PointVelocity(data, body, p_W);
}

}  // namespace

ContactCriteria MeasureContactCriteria(const Scene& scene, MultibodyData& data, const State& after, double dt,
                                       const std::vector<ContactPoint>& points,
                                       const ContactCriteriaOptions& options) {
  ContactCriteria out;
  out.points = static_cast<int>(points.size());
  if (points.empty()) return out;
  ForwardKinematics(scene.model, data, after.q, after.v);
  for (size_t i = 0; i < points.size(); ++i) {
    const ContactPoint& p = points[i];
    CheckPoint(scene, p, i);
    const Vec3& n = p.normal;
    const Vec3 v_rel = VelocityOf(data, p.body_a, p.position) - VelocityOf(data, p.body_b, p.position);
    const double gap_end = p.at_start ? p.gap + dt * n.dot(v_rel) : p.gap;
    const double fn = n.dot(p.force_on_a);
    const Vec3 ft = p.force_on_a - fn * n;
    const double fn_plus = std::max(fn, 0.0);
    out.penetration_m = std::max(out.penetration_m, -gap_end);
    out.signorini_n_m += fn_plus * std::max(gap_end, 0.0);
    out.adhesion_n += std::max(-fn, 0.0);
    out.coulomb_n += std::max(0.0, ft.norm() - p.friction * fn_plus);
    out.normal_force_n += fn_plus;
    // Maximum dissipation (T-RO 2024, Sec. V): a sliding point's friction is -mu f_n s / |s|.
    const Vec3 slip = v_rel - n.dot(v_rel) * n;
    const double speed = slip.norm();
    if (speed > options.slip_speed) {
      ++out.sliding;
      out.dissipation_n += (ft + p.friction * fn_plus * slip / speed).norm();
    }
  }
  return out;
}

double ColliderGap(const Scene& scene, MultibodyData& data, const State& state, int a, int b) {
  const Collider& A = scene.colliders[a];
  const Collider& B = scene.colliders[b];
  if (!SupportsSignedDistance(TypeOf(A.shape), TypeOf(B.shape))) return std::nan("");
  ForwardKinematics(scene.model, data, state.q);
  auto pose = [&data](const Collider& c) { return c.body == kWorldBody ? c.placement : data.X_WB[c.body] * c.placement; };
  return SignedDistance(A.shape, pose(A), B.shape, pose(B)).distance;
}

double MechanicalEnergy(const Scene& scene, MultibodyData& data, const State& state) {
  return KineticEnergy(scene.model, data, state.q, state.v) + PotentialEnergy(scene.model, data, state.q);
}

}  // namespace arena
