// Closed-form trajectories of the gradient_truth scenes and their exact gradients.
//
// Each scene is a rigid-body motion whose contact events are solved exactly (time of impact,
// Newton's restitution law along the contact normal, Coulomb sliding), so its final state is a
// closed-form function of the initial state and the scene's parameters. The gradient is that
// function's derivative, taken by forward-mode automatic differentiation of the same formulas
// (exact up to round-off, and independent of every contact model). These are the ground truth a
// model's trajectory gradient is judged against; Zhong et al. (L4DC 2023) give the two-ball
// case and show why time-of-impact terms matter.
#pragma once

#include <Eigen/Core>

namespace arena::gradient_truth {

/// A closed-form map's value and its Jacobian d value / d input (rows: outputs, columns: inputs).
struct ClosedForm {
  Eigen::VectorXd value;
  Eigen::MatrixXd jacobian;
  bool contact = false;  ///< whether the contact event happened before the horizon
};

/// Two balls on a frictionless line, no gravity: ball 1 left of ball 2. Restitution e in [0, 1].
struct LineCollision {
  double m1 = 1.0, m2 = 1.0;  ///< masses (kg)
  double r1 = 0.1, r2 = 0.1;  ///< radii (m)
  double restitution = 1.0;
  double horizon_s = 1.0;
};

/// Input (x1, x2, v1, v2) at t = 0; output (x1, x2, v1, v2) at the horizon. One collision at
/// most (after it the balls separate); without one, free flight.
ClosedForm TwoBallsOnALine(const LineCollision& scene, const Eigen::Vector4d& start);

/// The cue speed v1 that puts ball 2 (at rest) at `target` at the horizon; the analytic optimum
/// of the control task. Throws InvalidArgument when the collision would come after the horizon.
double CueSpeedToTarget(const LineCollision& scene, double x1, double x2, double target);

/// A ball falling onto the ground (z up) under gravity g, restitution e.
struct BallDrop {
  double gravity = 9.81;
  double restitution = 0.5;
};

/// Input (h, w0): the ball's clearance above the ground and its upward velocity at t = 0.
/// Output: its clearance at the apex after the first bounce, e^2 (h + w0^2 / 2g).
ClosedForm BounceApex(const BallDrop& scene, const Eigen::Vector2d& start);

/// Input (h, w0) as above; output (clearance, upward velocity) at time t after the start, with
/// the first bounce (and only it) resolved; t must come before the second bounce.
ClosedForm BallDropState(const BallDrop& scene, const Eigen::Vector2d& start, double t);

/// Input (v0, mu): a box sliding on level ground at v0 with Coulomb friction mu under gravity g.
/// Output (distance to rest v0^2 / 2 mu g, time to rest v0 / mu g).
ClosedForm SlidingToRest(double gravity, const Eigen::Vector2d& start);

/// The same box released `clearance` above the ground, moving horizontally at v0: it lands
/// after sqrt(2 c / g) at the vertical speed sqrt(2 g c), the inelastic landing's normal impulse
/// takes mu times that speed off v0 (a sliding Coulomb impulse), and it then slides to rest.
/// Input (v0, mu); output (horizontal distance from the release to rest, time to rest). With
/// clearance 0 it is SlidingToRest. (A model that cannot start in contact, a barrier method,
/// starts the box just above the ground: this is then the exact answer it is judged against.)
ClosedForm SlidingAfterLanding(double gravity, double clearance, const Eigen::Vector2d& start);

/// Two discs in the plane, frictionless, no gravity: an oblique collision whose normal is the
/// line of centres at the time of impact (it moves with the initial positions and velocities).
struct DiscCollision {
  double m1 = 1.0, m2 = 1.0;
  double r1 = 0.1, r2 = 0.1;
  double restitution = 1.0;
  double horizon_s = 1.0;
};

/// Input (p1, p2, u1, u2) (each 2D) at t = 0; output the same at the horizon.
ClosedForm TwoDiscs(const DiscCollision& scene, const Eigen::Matrix<double, 8, 1>& start);

}  // namespace arena::gradient_truth
