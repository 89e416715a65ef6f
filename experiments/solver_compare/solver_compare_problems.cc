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

[[noreturn]] void Unknown(const std::string& problem) {
  throw InvalidArgument("solver_compare: unknown problem '" + problem + "'; valid: " + Join(ContactProblemNames()));
}

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

// The largest distance of the stack's cubes from the exact stack on the ground, `gap` apart
// (z = h + gap, 3 h + 2 gap).
double StackError(const Scene& scene, const State& end, double gap) {
  const std::vector<Vec3> p = BodyPositions(scene, end.q);
  double worst = 0.0;
  for (size_t i = 0; i < p.size(); ++i) {
    const double z = (2.0 * i + 1.0) * kContactProblemHalfSize + (i + 1.0) * gap;
    worst = std::max(worst, (p[i] - Vec3(0.0, 0.0, z)).norm());
  }
  return worst;
}

// Coulomb friction mu g decelerates a body launched at v: the distance it covers in T.
double SlideDistance(double v, double mu, double T) {
  const double stop = v / (mu * kG);
  return T >= stop ? v * v / (2.0 * mu * kG) : v * T - 0.5 * mu * kG * T * T;
}

double SlopeAngle(const ContactProblemParams& params) { return std::atan(params.slope_over_mu * kContactProblemFriction); }

}  // namespace

const std::vector<std::string>& ContactProblemNames() {
  static const std::vector<std::string> names = {
      "cube_rest", "cube_slide", "square_rest",      "square_slide", "ball_roll",  "ball_drag",
      "ball_lift", "tower",      "mass_ratio_stack", "tilted_box",   "atlas_stand"};
  return names;
}

std::shared_ptr<const Scene> ContactProblemScene(const std::string& problem, const ContactProblemParams& params) {
  const double h = params.clearance_m;
  if (problem == "ball_drag") {
    return BallUnderForceScene(Vec3(kBallDragOverMuWeight * kContactProblemFriction * kG, 0.0, 0.0), h);
  }
  if (problem == "ball_lift") return BallUnderForceScene(Vec3(0.0, 0.0, kBallLiftN), h);
  if (problem == "tilted_box") return TiltedBoxScene(params.slope_over_mu, h);
  return ContactProblemSettleScene(problem, params);
}

std::shared_ptr<const Scene> ContactProblemSettleScene(const std::string& problem, const ContactProblemParams& params) {
  const double h = params.clearance_m;
  if (problem == "cube_rest" || problem == "cube_slide") return CubeOnGroundScene(h);
  if (problem == "square_rest" || problem == "square_slide") return SquareOnFloorScene(h);
  if (problem == "ball_roll" || problem == "ball_drag" || problem == "ball_lift") return BallOnGroundScene(h);
  if (problem == "tower") return BoxTowerScene(params.tower_boxes, h);
  if (problem == "mass_ratio_stack") {
    if (!(params.mass_ratio >= 1.0)) throw InvalidArgument("solver_compare: mass_ratio must be >= 1");
    const double root = std::sqrt(params.mass_ratio);
    return MassRatioStackScene(1.0 / root, root, h);
  }
  if (problem == "tilted_box") return TiltedBoxScene(0.0, h);
  if (problem == "atlas_stand") return MakeScene("atlas");
  Unknown(problem);
}

bool ContactProblemLaunchesInAnotherField(const std::string& problem) {
  return problem == "ball_drag" || problem == "ball_lift" || problem == "tilted_box";
}

State ContactProblemLaunch(const std::string& problem, const State& settled, const ContactProblemParams& params) {
  State s = settled;
  if (problem != "cube_slide" && problem != "square_slide" && problem != "ball_roll") return s;
  // Free joints' velocity is (omega, v) in the body frame (the settled cube or ball is level:
  // its frame is the world's up to the settling's round-off); a planar joint's is (omega_z, v_x, v_y).
  s.v.setZero();
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
  const double mu = kContactProblemFriction, T = duration_s;
  if (problem == "atlas_stand" || problem == "square_rest") return TangentialDrift(scene, start, end, Vec3::UnitY());
  if (problem == "cube_rest" || problem == "tower") return TangentialDrift(scene, start, end, Vec3::UnitZ());
  if (problem == "mass_ratio_stack") return StackError(scene, end, params.rest_gap_m);
  const double travelled = end.q[0] - start.q[0];  // x of the free or planar joint
  if (problem == "cube_slide" || problem == "square_slide") return std::abs(travelled - SlideDistance(params.slide_speed, mu, T));
  if (problem == "ball_roll") return std::abs(travelled - params.slide_speed * T);
  if (problem == "ball_drag") {
    const double force = kBallDragOverMuWeight * mu * kG;  // N on the 1 kg ball
    return std::abs(travelled - 0.5 * (5.0 / 7.0) * force * T * T);
  }
  if (problem == "ball_lift") return std::abs((end.q[2] - start.q[2]) - 0.5 * (kBallLiftN - kG) * T * T);
  if (problem == "tilted_box") {
    // Gravity (g sin a, 0, -g cos a) on a cube at rest: static friction holds it below the
    // threshold, else it accelerates at g_x - mu g_z.
    const double a = SlopeAngle(params);
    const double accel = std::max(kG * std::sin(a) - mu * kG * std::cos(a), 0.0);
    return std::abs(travelled - 0.5 * accel * T * T);
  }
  Unknown(problem);
}

}  // namespace arena
