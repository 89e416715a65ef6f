#include "models/spring_contact_warnings.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "models/message_number.h"
#include "core/geometry/support.h"

namespace arena {

namespace {

// Half the diagonal of the body's colliders' box in its frame (0 without bounded colliders).
double BodySize(const Scene& scene, int body) {
  Aabb box;
  for (const Collider& c : scene.colliders) {
    if (c.body != body) continue;
    const Aabb b = ComputeAabb(c.shape, c.placement);
    if (b.IsBounded()) box.Extend(b);
  }
  return box.IsBounded() ? 0.5 * (box.upper - box.lower).norm() : 0.0;
}

bool HasCollider(const Scene& scene, int body) {
  return std::any_of(scene.colliders.begin(), scene.colliders.end(), [&](const Collider& c) { return c.body == body; });
}

}  // namespace

std::vector<std::string> SpringContactWarnings(const Scene& scene, const SpringContactLaw& law) {
  std::vector<std::string> out;
  const MultibodyModel& model = scene.model;
  const double n = law.springs_per_body, k = law.stiffness, dt = law.timestep;
  const double g = model.gravity().norm();
  int lightest = -1;
  double total_mass = 0.0;
  for (int b = 0; b < model.num_bodies(); ++b) {
    const double m = model.body(b).inertia.mass();
    total_mass += m;
    if (!HasCollider(scene, b) || !(m > 0.0)) continue;
    if (lightest < 0 || m < model.body(lightest).inertia.mass()) lightest = b;
  }
  if (lightest < 0) return out;
  const BodyModel& light = model.body(lightest);
  const double omega = std::sqrt(n * k / light.inertia.mass());
  if (dt * omega >= law.stability_limit) {
    out.push_back(std::string(law.model) + ": body '" + light.name + "' (" + MessageNumber(light.inertia.mass()) + " kg) on " +
                  std::to_string(law.springs_per_body) + " contact spring(s) of " + MessageNumber(k) +
                  " N/m oscillates at omega = sqrt(n k / m) = " + MessageNumber(omega) + " rad/s; the step is stable only for " +
                  "timestep < " + MessageNumber(law.stability_limit / omega) + " s, and it is " + MessageNumber(dt) +
                  " s: lower timestep or stiffness, or the contacts will gain energy until the step is invalid");
  }
  // The heaviest load a body's springs can carry: the whole scene's weight (a stack).
  double smallest = std::numeric_limits<double>::infinity();
  int smallest_body = -1;
  for (int b = 0; b < model.num_bodies(); ++b) {
    const double size = BodySize(scene, b);
    if (size > 0.0 && size < smallest) smallest = size, smallest_body = b;
  }
  const double sink = total_mass * g / (n * k);
  if (smallest_body >= 0 && sink > 0.1 * smallest) {
    out.push_back(std::string(law.model) + ": the scene's weight (" + MessageNumber(total_mass * g) + " N) resting on body '" +
                  model.body(smallest_body).name + "' would sink " + MessageNumber(sink) + " m into its " +
                  std::to_string(law.springs_per_body) + " spring(s) of " + MessageNumber(k) +
                  " N/m, more than a tenth of its size (" + MessageNumber(smallest) + " m): raise stiffness (and lower timestep)");
  }
  return out;
}

}  // namespace arena
