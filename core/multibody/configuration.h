// Configuration-space operations on the product of the joints' Lie groups (see joint.h).
#pragma once

#include <random>

#include "core/multibody/model.h"

namespace arena {

/// q (+) v*dt: each joint's configuration moved by its velocity held constant for dt.
VecX Integrate(const MultibodyModel& model, const VecX& q, const VecX& v, double dt = 1.0);

/// The v with Integrate(q0, v, 1) == q1 (shortest rotation for quaternions). The angles of
/// revolute and planar joints are not wrapped, so Integrate(q0, Difference(q0, q1)) == q1
/// exactly; the planar translation part is ill-conditioned when theta1 - theta0 nears 2 pi k.
VecX Difference(const MultibodyModel& model, const VecX& q0, const VecX& q1);

/// Jacobians of q1 = Integrate(q, v, 1) in tangent coordinates (nv x nv, block diagonal):
/// dq1 = Jq dq + Jv dv for q -> Integrate(q, dq), v -> v + dv, dq1 measured by Difference.
void IntegrateJacobians(const MultibodyModel& model, const VecX& q, const VecX& v, MatX* Jq,
                        MatX* Jv);

/// Re-normalises quaternions in place (after many integration steps).
void NormalizeConfiguration(const MultibodyModel& model, VecX* q);

/// Uniform in the joint limits; unlimited revolute in [-pi, pi], unlimited prismatic and free
/// or planar positions in [-1, 1] m (a one-sided limit gets that width on its open side);
/// rotations uniform on SO(3) / SO(2). The same seed gives the same q on every platform.
VecX RandomConfiguration(const MultibodyModel& model, std::mt19937_64& rng);

}  // namespace arena
