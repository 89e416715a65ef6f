#include "experiments/solver_compare/solver_compare_problems.h"

#include <algorithm>
#include <cmath>

#include "core/common/error.h"
#include "core/common/strings.h"
#include "core/multibody/data.h"
#include "core/multibody/kinematics.h"
#include "scenes/scene_registry.h"
#include "scenes/solver_compare_scenes.h"

namespace arena {

namespace {

constexpr double kG = 9.81;

// The world positions of every free-floating body's origin at q.
std::vector<Vec3> BodyPositions(const Scene& scene, const VecX& q) {
  MultibodyData data(scene.model);
  ForwardKinematics(scene.model, data, q);
  std::vector<Vec3> out;
  for (int b = 0; b < scene.model.num_bodies(); ++b) {
    if (scene.model.body(b).parent == kWorldBody) out.push_back(data.X_WB[b].translation());
  }
  return out;
}

// The largest displacement of a root body along the ground (normal `up`).
double TangentialDrift(const Scene& scene, const State& start, const State& end, const Vec3& up) {
  const std::vector<Vec3> a = BodyPositions(scene, start.q), b = BodyPositions(scene, end.q);
  double drift = 0.0;
  for (size_t i = 0; i < a.size(); ++i) {
    const Vec3 d = b[i] - a[i];
    drift = std::max(drift, (d - d.dot(up) * up).norm());
  }
  return drift;
}

}  // namespace

const std::vector<std::string>& ContactProblemNames() {
  static const std::vector<std::string> names = {"cube_rest",  "cube_slide", "square_rest", "square_slide",
                                                 "ball_roll",  "tower",      "tilted_box",  "atlas_stand"};
  return names;
}

std::shared_ptr<const Scene> ContactProblemScene(const std::string& problem, const ContactProblemParams& params) {
  if (problem == "cube_rest" || problem == "cube_slide") return CubeOnGroundScene(params.clearance_m);
  if (problem == "square_rest" || problem == "square_slide") return SquareOnFloorScene(params.clearance_m);
  if (problem == "ball_roll") return BallOnGroundScene(params.clearance_m);
  if (problem == "tower") return BoxTowerScene(params.tower_boxes, params.clearance_m);
  if (problem == "tilted_box") return TiltedBoxScene(params.slope_over_mu, params.clearance_m);
  if (problem == "atlas_stand") return MakeScene("atlas");
  throw InvalidArgument("solver_compare: unknown problem '" + problem + "'; valid: " + Join(ContactProblemNames()));
}

State ContactProblemStart(const std::string& problem, const Scene& scene, const ContactProblemParams& params) {
  State s = DefaultState(scene);
  // Free joints' velocity is (omega, v) in the body frame, which the start leaves unrotated; a
  // planar joint's is (omega_z, v_x, v_y).
  if (problem == "cube_slide") s.v[3] = params.slide_speed;
  if (problem == "square_slide") s.v[1] = params.slide_speed;
  if (problem == "ball_roll") {
    s.v[1] = params.slide_speed / kContactProblemHalfSize;  // omega_y = v / r: no slip at the ground
    s.v[3] = params.slide_speed;
  }
  return s;
}

double ContactProblemOutcomeError(const std::string& problem, const Scene& scene, const State& start, const State& end,
                                  double duration_s, const ContactProblemParams& params) {
  const double mu = kContactProblemFriction, h = params.clearance_m;
  const double t_land = std::sqrt(2.0 * h / kG), v_land = std::sqrt(2.0 * h * kG);
  if (problem == "atlas_stand" || problem == "square_rest") return TangentialDrift(scene, start, end, Vec3::UnitY());
  if (problem == "cube_rest" || problem == "tower") return TangentialDrift(scene, start, end, Vec3::UnitZ());
  const double travelled = end.q[0] - start.q[0];  // x of the free or planar joint
  if (problem == "cube_slide" || problem == "square_slide") {
    const double v_after = std::max(params.slide_speed - mu * v_land, 0.0);
    return std::abs(travelled - (params.slide_speed * t_land + v_after * v_after / (2.0 * mu * kG)));
  }
  if (problem == "ball_roll") return std::abs(travelled - params.slide_speed * duration_s);
  if (problem == "tilted_box") {
    // Gravity (g sin a, 0, -g cos a): the fall drifts g_x t^2 / 2; the landing's friction impulse
    // takes mu v_z off v_x; then the cube accelerates at g_x - mu g_z (static friction holds it
    // when that is negative and it has stopped).
    const double a = std::atan(params.slope_over_mu * mu);
    const double g_x = kG * std::sin(a), g_z = kG * std::cos(a);
    const double t = std::sqrt(2.0 * h / g_z);
    const double v1 = std::max((g_x - mu * g_z) * t, 0.0), accel = g_x - mu * g_z;
    const double rest = std::max(duration_s - t, 0.0);
    double slid = v1 * rest + 0.5 * accel * rest * rest;
    if (accel < 0.0 && rest * -accel >= v1) slid = v1 * v1 / (2.0 * -accel);
    return std::abs(travelled - (0.5 * g_x * t * t + slid));
  }
  throw InvalidArgument("solver_compare: unknown problem '" + problem + "'; valid: " + Join(ContactProblemNames()));
}

}  // namespace arena
