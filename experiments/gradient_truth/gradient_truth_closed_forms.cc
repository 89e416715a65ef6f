#include "experiments/gradient_truth/gradient_truth_closed_forms.h"

#include <cmath>
#include <string>

#include <unsupported/Eigen/AutoDiff>

#include "core/common/error.h"

namespace arena::gradient_truth {
namespace {

using Ad = Eigen::AutoDiffScalar<Eigen::VectorXd>;

// Every input a seeded AD variable: the derivative vector of input i is the unit vector e_i.
template <int N>
Eigen::Matrix<Ad, N, 1> Seeded(const Eigen::Matrix<double, N, 1>& x) {
  Eigen::Matrix<Ad, N, 1> s(x.size());
  for (int i = 0; i < x.size(); ++i) s(i) = Ad(x(i), x.size(), i);
  return s;
}

template <int M>
ClosedForm Collect(const Eigen::Matrix<Ad, M, 1>& out, int inputs, bool contact) {
  ClosedForm f;
  f.value.resize(out.size());
  f.jacobian.setZero(out.size(), inputs);
  for (int i = 0; i < out.size(); ++i) {
    f.value(i) = out(i).value();
    // A quantity that does not depend on any input carries an empty derivative vector.
    if (out(i).derivatives().size() == inputs) f.jacobian.row(i) = out(i).derivatives().transpose();
  }
  f.contact = contact;
  return f;
}

void Require(bool ok, const std::string& what) {
  if (!ok) throw InvalidArgument("gradient_truth: " + what);
}

}  // namespace

ClosedForm TwoBallsOnALine(const LineCollision& scene, const Eigen::Vector4d& start) {
  Require(scene.m1 > 0 && scene.m2 > 0, "masses must be positive");
  Require(scene.restitution >= 0 && scene.restitution <= 1, "restitution must lie in [0, 1]");
  const Eigen::Matrix<Ad, 4, 1> s = Seeded<4>(start);
  const Ad &x1 = s(0), &x2 = s(1), &v1 = s(2), &v2 = s(3);
  const Ad gap = x2 - x1 - (scene.r1 + scene.r2);
  Require(gap.value() >= 0, "the balls overlap at the start");
  const double horizon = scene.horizon_s;
  Eigen::Matrix<Ad, 4, 1> out;
  const Ad closing = v1 - v2;
  const bool contact = closing.value() > 0 && gap.value() < closing.value() * horizon;
  if (!contact) {
    out << x1 + v1 * horizon, x2 + v2 * horizon, v1, v2;
    return Collect<4>(out, 4, false);
  }
  // Time of impact, then Newton's law along the line: the relative velocity reverses, scaled by
  // e, and momentum is kept.
  const Ad impact = gap / closing;
  const double mass = scene.m1 + scene.m2, e = scene.restitution;
  const Ad w1 = v1 - scene.m2 * (1 + e) * closing / mass;
  const Ad w2 = v2 + scene.m1 * (1 + e) * closing / mass;
  out << x1 + v1 * impact + w1 * (horizon - impact), x2 + v2 * impact + w2 * (horizon - impact), w1,
      w2;
  return Collect<4>(out, 4, true);
}

double CueSpeedToTarget(const LineCollision& scene, double x1, double x2, double target) {
  // With ball 2 at rest, x2(T) = x2 + v2' T - m1 (1 + e) gap / M and v2' = m1 (1 + e) v1 / M
  // (the time of impact cancels): solve for v1.
  const double mass = scene.m1 + scene.m2, k = scene.m1 * (1 + scene.restitution) / mass;
  const double gap = x2 - x1 - (scene.r1 + scene.r2);
  const double v1 = (target - x2 + k * gap) / (k * scene.horizon_s);
  Require(gap >= 0 && v1 > 0 && gap < v1 * scene.horizon_s,
          "no cue speed reaches the target with a collision before the horizon");
  return v1;
}

ClosedForm BounceApex(const BallDrop& scene, const Eigen::Vector2d& start) {
  Require(scene.gravity > 0, "gravity must be positive");
  Require(start(0) >= 0, "the ball starts below the ground");
  const Eigen::Matrix<Ad, 2, 1> s = Seeded<2>(start);
  // Impact speed^2 = w0^2 + 2 g h (energy); the rebound keeps e of it, and rises (e v)^2 / 2g.
  const double e = scene.restitution;
  Eigen::Matrix<Ad, 1, 1> out;
  out << e * e * (s(0) + s(1) * s(1) / (2 * scene.gravity));
  return Collect<1>(out, 2, true);
}

ClosedForm BallDropState(const BallDrop& scene, const Eigen::Vector2d& start, double t) {
  Require(scene.gravity > 0, "gravity must be positive");
  Require(start(0) >= 0, "the ball starts below the ground");
  const Eigen::Matrix<Ad, 2, 1> s = Seeded<2>(start);
  const double g = scene.gravity, e = scene.restitution;
  const Ad impact_speed = sqrt(s(1) * s(1) + 2 * g * s(0));
  const Ad bounce = (s(1) + impact_speed) / g;
  Eigen::Matrix<Ad, 2, 1> out;
  if (t < bounce.value()) {
    out << s(0) + s(1) * t - 0.5 * g * t * t, s(1) - g * t;
    return Collect<2>(out, 2, false);
  }
  const Ad after = t - bounce, rebound = e * impact_speed;
  Require(after.value() < 2 * rebound.value() / g, "t comes after the second bounce");
  out << rebound * after - 0.5 * g * after * after, rebound - g * after;
  return Collect<2>(out, 2, true);
}

ClosedForm SlidingToRest(double gravity, const Eigen::Vector2d& start) {
  Require(gravity > 0, "gravity must be positive");
  Require(start(0) >= 0 && start(1) > 0, "needs v0 >= 0 and mu > 0");
  const Eigen::Matrix<Ad, 2, 1> s = Seeded<2>(start);
  // Constant deceleration mu g until rest.
  Eigen::Matrix<Ad, 2, 1> out;
  out << s(0) * s(0) / (2 * s(1) * gravity), s(0) / (s(1) * gravity);
  return Collect<2>(out, 2, true);
}

ClosedForm SlidingAfterLanding(double gravity, double clearance, const Eigen::Vector2d& start) {
  Require(gravity > 0, "gravity must be positive");
  Require(clearance >= 0, "the clearance must be >= 0");
  Require(start(0) >= 0 && start(1) > 0, "needs v0 >= 0 and mu > 0");
  const Eigen::Matrix<Ad, 2, 1> s = Seeded<2>(start);
  const Ad &v0 = s(0), &mu = s(1);
  const double fall = std::sqrt(2 * clearance / gravity), landing_speed = gravity * fall;
  const Ad slide = v0 - mu * landing_speed;  // horizontal speed after the landing impulse
  Eigen::Matrix<Ad, 2, 1> out;
  if (slide.value() <= 0) {  // the landing stops it
    out << v0 * fall, Ad(fall);
    return Collect<2>(out, 2, true);
  }
  out << v0 * fall + slide * slide / (2 * mu * gravity), fall + slide / (mu * gravity);
  return Collect<2>(out, 2, true);
}

ClosedForm TwoDiscs(const DiscCollision& scene, const Eigen::Matrix<double, 8, 1>& start) {
  Require(scene.m1 > 0 && scene.m2 > 0, "masses must be positive");
  Require(scene.restitution >= 0 && scene.restitution <= 1, "restitution must lie in [0, 1]");
  using V2 = Eigen::Matrix<Ad, 2, 1>;
  const Eigen::Matrix<Ad, 8, 1> s = Seeded<8>(start);
  const V2 p1 = s.segment<2>(0), p2 = s.segment<2>(2), u1 = s.segment<2>(4), u2 = s.segment<2>(6);
  const double reach = scene.r1 + scene.r2, horizon = scene.horizon_s;
  const V2 p = p2 - p1, w = u2 - u1;
  // Contact when |p + w t| = r1 + r2: a w.w t^2 + 2 b t + c = 0 with b = p.w, c = |p|^2 - reach^2;
  // the first root, written as c / (-b + sqrt(b^2 - a c)) to keep its precision.
  const Ad a = w.dot(w), b = p.dot(w), c = p.dot(p) - reach * reach;
  Require(c.value() >= 0, "the discs overlap at the start");
  const Ad discriminant = b * b - a * c;
  bool contact = b.value() < 0 && discriminant.value() > 0;
  Ad impact = 0.0;
  if (contact) {
    impact = c / (-b + sqrt(discriminant));
    contact = impact.value() < horizon;
  }
  Eigen::Matrix<Ad, 8, 1> out;
  if (!contact) {
    out << p1 + u1 * horizon, p2 + u2 * horizon, u1, u2;
    return Collect<8>(out, 8, false);
  }
  // The normal is the line of centres at the impact; the impulse along it reverses the normal
  // relative velocity, scaled by e (Newton), and keeps the momentum.
  const V2 normal = (p + w * impact) / reach;
  const double e = scene.restitution, reduced = scene.m1 * scene.m2 / (scene.m1 + scene.m2);
  const Ad impulse = -(1 + e) * reduced * w.dot(normal);
  const V2 w1 = u1 - normal * (impulse / scene.m1), w2 = u2 + normal * (impulse / scene.m2);
  out << p1 + u1 * impact + w1 * (horizon - impact), p2 + u2 * impact + w2 * (horizon - impact), w1,
      w2;
  return Collect<8>(out, 8, true);
}

}  // namespace arena::gradient_truth
