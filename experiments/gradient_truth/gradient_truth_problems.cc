#include "experiments/gradient_truth/gradient_truth_problems.h"

#include <algorithm>
#include <cmath>

#include "core/common/error.h"
#include "core/common/options.h"
#include "core/common/strings.h"
#include "scenes/gradient_truth_scenes.h"

namespace arena::gradient_truth {

namespace {

using Kind = BodyCoordinate::Kind;

// Ball 1 starts at the origin moving at 1 m/s towards ball 2, at rest 0.52 m away: they touch
// at t = 0.32 s (issue 23's Nimble report).
constexpr double kLineX2 = 0.52, kLineSpeed = 1.0, kLineHorizon = 1.0;
// The drop: 1 m of clearance, observed at 0.6 s (bounce at 0.45 s, apex at 0.68 s).
constexpr double kDropHeight = 1.0, kDropObserved = 0.6, kDropRestitution = 0.5;
// The box: 1 m/s, mu 0.5 (at rest after 0.2 s), observed at 0.5 s.
constexpr double kSlideSpeed = 1.0, kSlideFriction = 0.5, kSlideHorizon = 0.5;
constexpr double kGravity = 9.81;

int Steps(double horizon, double dt) {
  if (!(dt > 0.0) || !std::isfinite(dt)) throw InvalidArgument("gradient_truth: timestep must be > 0, got " + options_detail::FormatDouble(dt));
  return std::max(1, static_cast<int>(std::lround(horizon / dt)));
}

void SetLinearVelocity(const Scene& scene, int body, const Vec3& v, State* s) {
  s->v.segment<3>(scene.model.body(body).idx_v + 3) = v;
}

// (position, velocity) along `axes` for both balls, in the closed forms' order: positions of
// ball 1 then ball 2, then their velocities.
void TwoBodyCoordinates(const std::vector<int>& axes, const std::vector<std::string>& axis_names,
                        std::vector<BodyCoordinate>* coordinates, std::vector<std::string>* names) {
  for (Kind kind : {Kind::kPosition, Kind::kVelocity}) {
    for (int body = 0; body < 2; ++body) {
      for (size_t a = 0; a < axes.size(); ++a) {
        coordinates->push_back({body, kind, axes[a]});
        names->push_back(std::string(kind == Kind::kPosition ? "p" : "v") + std::to_string(body + 1) + axis_names[a]);
      }
    }
  }
}

TruthProblem BallsOnALine(const std::string& name, const LineCollision& line, double dt) {
  TruthProblem p;
  p.name = name;
  p.scene = BallsOnALineScene({line.m1, line.m2, line.r1, line.r2, 0.0, kLineX2, line.restitution});
  p.start = DefaultState(*p.scene);
  SetLinearVelocity(*p.scene, 0, Vec3(kLineSpeed, 0, 0), &p.start);
  p.steps = Steps(kLineHorizon, dt);
  TwoBodyCoordinates({0}, {"x"}, &p.outputs, &p.output_names);
  p.inputs = p.outputs;
  p.input_names = p.output_names;
  LineCollision at = line;
  at.horizon_s = p.steps * dt;
  p.exact = TwoBallsOnALine(at, Eigen::Vector4d(0.0, kLineX2, kLineSpeed, 0.0));
  return p;
}

TruthProblem BallDropProblem(double dt) {
  TruthProblem p;
  p.name = "ball_drop";
  const BallDropSpec spec{.clearance = kDropHeight, .gravity = kGravity, .restitution = kDropRestitution};
  p.scene = BallDropScene(spec);
  p.start = DefaultState(*p.scene);
  p.steps = Steps(kDropObserved, dt);
  p.outputs = {{0, Kind::kPosition, 2}, {0, Kind::kVelocity, 2}};
  p.output_names = {"z", "vz"};
  p.inputs = p.outputs;
  p.input_names = p.output_names;
  p.exact = BallDropState({kGravity, kDropRestitution}, Eigen::Vector2d(kDropHeight, 0.0), p.steps * dt);
  p.exact.value(0) += spec.radius;  // the closed form's clearance, as the centre's height
  return p;
}

TruthProblem SlidingBoxProblem(double dt, double clearance) {
  TruthProblem p;
  p.name = "sliding_box";
  p.scene = SlidingBoxScene({.clearance = clearance, .gravity = kGravity, .friction = kSlideFriction});
  p.start = DefaultState(*p.scene);
  SetLinearVelocity(*p.scene, 0, Vec3(kSlideSpeed, 0, 0), &p.start);
  p.steps = Steps(kSlideHorizon, dt);
  p.outputs = {{0, Kind::kPosition, 0}, {0, Kind::kVelocity, 0}};
  p.output_names = {"x", "vx"};
  p.inputs = p.outputs;
  p.input_names = p.output_names;
  const ClosedForm slide = SlidingAfterLanding(kGravity, clearance, Eigen::Vector2d(kSlideSpeed, kSlideFriction));
  if (slide.value(1) >= p.steps * dt) throw InvalidArgument("gradient_truth: the box is still sliding at the horizon");
  // At rest by the horizon: x(T) = x0 + distance(v0), v(T) = 0.
  p.exact.value = Eigen::Vector2d(slide.value(0), 0.0);
  p.exact.jacobian = Eigen::Matrix2d::Zero();
  p.exact.jacobian(0, 0) = 1.0;
  p.exact.jacobian(0, 1) = slide.jacobian(0, 0);
  p.exact.contact = true;
  return p;
}

TruthProblem TwoDiscsProblem(double dt) {
  TruthProblem p;
  p.name = "two_discs";
  const DiscsInAPlaneSpec spec;
  p.scene = DiscsInAPlaneScene(spec);
  p.start = DefaultState(*p.scene);
  SetLinearVelocity(*p.scene, 0, Vec3(kLineSpeed, 0, 0), &p.start);
  p.steps = Steps(kLineHorizon, dt);
  TwoBodyCoordinates({0, 1}, {"x", "y"}, &p.outputs, &p.output_names);
  p.inputs = p.outputs;
  p.input_names = p.output_names;
  DiscCollision discs;
  discs.horizon_s = p.steps * dt;
  Eigen::Matrix<double, 8, 1> x0;
  x0 << spec.p1x, spec.p1y, spec.p2x, spec.p2y, kLineSpeed, 0.0, 0.0, 0.0;
  p.exact = TwoDiscs(discs, x0);
  return p;
}

}  // namespace

const std::vector<std::string>& TruthProblemNames() {
  static const std::vector<std::string> names = {"two_balls", "two_balls_inelastic", "ball_drop", "sliding_box",
                                                 "two_discs"};
  return names;
}

TruthProblem MakeTruthProblem(const std::string& name, double dt, double box_clearance) {
  if (name == "two_balls") return BallsOnALine(name, LineCollision{}, dt);
  if (name == "two_balls_inelastic") {
    LineCollision line;
    line.m2 = 2.0;
    line.restitution = 0.5;
    return BallsOnALine(name, line, dt);
  }
  if (name == "ball_drop") return BallDropProblem(dt);
  if (name == "sliding_box") return SlidingBoxProblem(dt, box_clearance);
  if (name == "two_discs") return TwoDiscsProblem(dt);
  throw InvalidArgument("gradient_truth: unknown scene '" + name + "'; valid: " + Join(TruthProblemNames(), ", "));
}

CueTask MakeCueTask(double dt, double target) {
  CueTask task;
  task.scene = BallsOnALineScene({});
  task.start = DefaultState(*task.scene);
  task.steps = Steps(kLineHorizon, dt);
  task.target = target;
  LineCollision line;
  line.horizon_s = task.steps * dt;
  task.optimum = CueSpeedToTarget(line, 0.0, kLineX2, target);
  return task;
}

}  // namespace arena::gradient_truth
