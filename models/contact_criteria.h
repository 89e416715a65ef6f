// The physical criteria of contact, measured the same way for every model on the contact points
// it reports (Simulator::ContactPoints) and the state after the step: how far a step's contact
// forces are from what the laws of rigid contact require (the criteria of Le Lidec et al.,
// "Contact models in robotics: a comparative analysis", T-RO 2024, Sec. V):
//   - Signorini: no penetration (gap >= 0), no pull (f_n >= 0), and no force at a distance
//     (f_n gap = 0);
//   - Coulomb: the friction force inside the cone, |f_t| <= mu f_n;
//   - maximum dissipation: a sliding contact's friction on the cone's edge, opposite to the slip,
//     f_t = -mu f_n s / |s|;
//   - energy: a passive scene's mechanical energy never grows.
// Every violation is a sum over the step's contact points in physical units (m, N, N m, J), so
// the harness can normalise it by the scene's weight or compare it across solvers of one model.
#pragma once

#include <vector>

#include "core/multibody/data.h"
#include "core/scene/scene.h"
#include "models/simulator.h"

namespace arena {

struct ContactCriteriaOptions {
  // m/s: a contact whose tangential relative velocity after the step is slower sticks, and any
  // friction force inside the cone dissipates maximally (zero slip does no work).
  double slip_speed = 1e-3;
};

struct ContactCriteria {
  int points = 0;                   // contact points the model reported
  int sliding = 0;                  // of those, sliding faster than slip_speed after the step
  double penetration_m = 0.0;       // max over points of max(0, -gap at the step's end)
  double signorini_n_m = 0.0;       // sum of max(f_n, 0) max(gap at the end, 0): force at a distance
  double adhesion_n = 0.0;          // sum of max(-f_n, 0): the contact pulled
  double coulomb_n = 0.0;           // sum of max(0, |f_t| - mu max(f_n, 0)): friction outside the cone
  double dissipation_n = 0.0;       // sum over sliding points of |f_t + mu max(f_n, 0) s / |s||
  double normal_force_n = 0.0;      // sum of max(f_n, 0): the scale the violations compare to
};

/// The criteria of `points`, a step's contact points, with `after` the state the step produced
/// and `dt` its length. A point given at the step's start (ContactPoint::at_start) has its gap
/// carried to the end by the relative normal velocity after the step, gap + dt n . (v_a - v_b),
/// so every model's penetration and Signorini product are measured at the step's end. Slip
/// velocities are the bodies' velocities after the step at the point. Throws InvalidArgument for
/// a point naming a body the scene does not have or a normal that is not unit length.
ContactCriteria MeasureContactCriteria(const Scene& scene, MultibodyData& data, const State& after, double dt,
                                       const std::vector<ContactPoint>& points,
                                       const ContactCriteriaOptions& options = {});

/// The signed distance between colliders a and b at `state` (core/geometry/signed_distance.h:
/// exact for convex shapes), for models whose own contact variables are no distance (silico's
/// scaling alpha); NaN for a pair it does not handle.
double ColliderGap(const Scene& scene, MultibodyData& data, const State& state, int a, int b);

/// Kinetic plus gravitational potential energy of `state` (J), the quantity a passive scene must
/// not gain. The joints' springs are not included (core/multibody/energy.h).
double MechanicalEnergy(const Scene& scene, MultibodyData& data, const State& state);

}  // namespace arena
