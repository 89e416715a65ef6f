#include "models/silico/silico.h"

#include <chrono>
#include <cmath>

#include <unsupported/Eigen/AutoDiff>

#include "core/common/error.h"
#include "core/math/so3.h"
#include "models/contact_criteria.h"
#include "models/silico/planar_contact_points.h"

namespace arena {

using silico::PlanarBody;

std::string SilicoOptions::Validate() const {
  if (std::string error = CheckRanges(*this); !error.empty()) return error;
  if (friction_cone != "pyramid" && friction_cone != "soc") return "friction_cone must be 'pyramid' or 'soc'";
  return "";
}

InteriorPointOptions SilicoOptions::Solver(double relaxation) const {
  InteriorPointOptions o;
  o.complementarity_tolerance = relaxation;
  o.residual_tolerance = residual_tolerance > 0.0 ? residual_tolerance : relaxation / 10.0;
  o.max_iterations = max_iterations;
  o.warm_start = warm_start;
  o.warm_start_backstep = warm_start_backstep;
  o.compressed = compressed;
  o.linear_solver = linear_solver;
  o.primal_regularization = primal_regularization;
  o.dual_regularization = dual_regularization;
  return o;
}

Capabilities SilicoSimulator::CapabilitiesFor(const SilicoOptions& options) {
  Capabilities c;
  c.planar = true;
  c.spatial = true;
  for (ShapeType t : {ShapeType::kPolygon2, ShapeType::kDisk2, ShapeType::kCapsule2, ShapeType::kHalfPlane2,
                      ShapeType::kSphere, ShapeType::kBox, ShapeType::kCapsule, ShapeType::kCylinder,
                      ShapeType::kEllipsoid, ShapeType::kCone, ShapeType::kHalfSpace, ShapeType::kConvexHull}) {
    c.shapes.set(static_cast<size_t>(t));
  }
  (void)options;
  c.derivatives = DerivativeSource::kAnalytical;
  c.smooth = true;  // for rho > 0 the step is a smooth function of the state (Sec. V-D)
  return c;
}

SilicoSimulator::SilicoSimulator(std::shared_ptr<const Scene> scene, const SilicoOptions& options)
    : SimulatorBase(std::move(scene), options), data_(scene_->model) {
  if (std::string why = options_.Validate(); !why.empty()) throw InvalidArgument("silico: " + why);
  if (scene_->IsPlanar()) {
    problem_ = std::make_unique<silico::PlanarProblem>(*scene_);
  } else {
    spatial_ = std::make_unique<silico::SpatialProblem>(*scene_, silico::FrictionConeFromString(options_.friction_cone));
  }
  solver_.options() = options_.Solver(options_.rho);
}

const silico::PlanarProblem& SilicoSimulator::problem() const {
  if (!problem_) throw Unsupported("silico: scene '" + scene_->name + "' is spatial; use spatial_problem()");
  return *problem_;
}

ComplementarityProblem& SilicoSimulator::active_problem() {
  if (problem_) return *problem_;
  return *spatial_;
}

void SilicoSimulator::Load(const State& state, const Control& control) {
  if (spatial_) {
    const auto& bodies = spatial_->bodies();
    const size_t nb = bodies.size();
    std::vector<Vec3> p2(nb), v15(nb), w15(nb);
    std::vector<Quat> q2(nb);
    for (size_t k = 0; k < nb; ++k) {
      const silico::SpatialBody& b = bodies[k];
      p2[k] = state.q.segment<3>(b.idx_q);
      q2[k] = Quat(state.q[b.idx_q + 3], state.q[b.idx_q + 4], state.q[b.idx_q + 5], state.q[b.idx_q + 6]).normalized();
      // Free joint velocity (omega_B, v_B) -> omega15 = omega_B, v15 = R(q2) v_B (world).
      w15[k] = state.v.segment<3>(b.idx_v);
      v15[k] = q2[k] * Vec3(state.v.segment<3>(b.idx_v + 3));
    }
    spatial_->SetStep(options_.timestep, p2, q2, v15, w15);
    return;
  }
  VecX p2, v15;
  silico::LoadPlanarState(problem_->bodies(), state, &p2, &v15);
  problem_->SetStep(options_.timestep, p2, v15, control.u);
}

StepReport SilicoSimulator::DoStep(State& state, const Control& control) {
  StepReport report;
  Load(state, control);
  const auto start = std::chrono::steady_clock::now();
  last_solve_ = solver_.Solve(active_problem());
  report.solve_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report.iterations = last_solve_.iterations;
  report.residual = last_solve_.residual;
  if (spatial_) return FinishSpatial(state, report);

  const VecX& y = solver_.primals();
  const VecX p3 = problem_->EndPoses(y);
  if (!p3.allFinite() || !y.allFinite()) {
    report.status = StepStatus::kNonFinite;
    report.message = "solver returned a non-finite point (" + std::string(ToString(last_solve_.status)) + ")";
    return report;
  }
  silico::StorePlanarState(problem_->bodies(), p3, y, &state);
  state.t += options_.timestep;
  report.contacts = problem_->ActiveContacts(solver_.duals(), solver_.slacks());
  ReportConvergence(&report);
  RecordPlanarContactPoints(state);
  return report;
}

void SilicoSimulator::ReportConvergence(StepReport* out) const {
  StepReport& report = *out;
  if (!last_solve_.converged()) {
    report.status = last_solve_.status == InteriorPointStatus::kMaxIterations ? StepStatus::kNotConverged
                                                                              : StepStatus::kError;
    report.message = "interior point: " + std::string(ToString(last_solve_.status)) + " after " +
                     std::to_string(last_solve_.iterations) + " iterations (residual " +
                     options_detail::FormatDouble(last_solve_.residual) + ", complementarity " +
                     options_detail::FormatDouble(last_solve_.complementarity) + ")";
  }
}

StepReport SilicoSimulator::FinishSpatial(State& state, StepReport report) {
  const VecX& y = solver_.primals();
  if (!y.allFinite()) {
    report.status = StepStatus::kNonFinite;
    report.message = "solver returned a non-finite point (" + std::string(ToString(last_solve_.status)) + ")";
    return report;
  }
  const auto& bodies = spatial_->bodies();
  for (size_t k = 0; k < bodies.size(); ++k) {
    const silico::SpatialBody& b = bodies[k];
    Vec3 p3;
    Quat q3;
    spatial_->EndPose(y, static_cast<int>(k), &p3, &q3);
    state.q.segment<3>(b.idx_q) = p3;
    state.q[b.idx_q + 3] = q3.w();
    state.q[b.idx_q + 4] = q3.x();
    state.q[b.idx_q + 5] = q3.y();
    state.q[b.idx_q + 6] = q3.z();
    state.v.segment<3>(b.idx_v) = y.segment<3>(6 * k + 3);                        // omega_B = omega25
    state.v.segment<3>(b.idx_v + 3) = q3.conjugate() * Vec3(y.segment<3>(6 * k));  // v_B = R(q3)^T v25
  }
  state.t += options_.timestep;
  report.contacts = spatial_->ActiveContacts(solver_.duals(), solver_.slacks());
  ReportConvergence(&report);
  RecordSpatialContactPoints(state);
  return report;
}

// The planar pairs' contacts, as the spatial ones below (world xy, z = 0).
void SilicoSimulator::RecordPlanarContactPoints(const State& end) {
  step_points_.clear();
  const auto& pairs = problem_->pairs();
  for (int i = 0; i < static_cast<int>(pairs.size()); ++i) {
    Vec2 point, normal, impulse;
    problem_->PairContact(solver_.primals(), solver_.duals(), i, &point, &normal, &impulse);
    step_points_.push_back(silico::PlanarContactPoint(*scene_, data_, end, pairs[i], point, normal, impulse / options_.timestep));
    if (!std::isfinite(step_points_.back().gap) || !step_points_.back().force_on_a.allFinite()) step_points_.pop_back();
  }
}

// Every pair's contact at the solution: the impulse on the parent over dt, at the collision
// program's contact point, along the parent's normal; the gap is the pair's signed distance at
// the step's end (alpha is a scaling, not a distance). Pairs far apart carry the relaxation's
// small impulse at a distance, which the Signorini criterion is there to see.
void SilicoSimulator::RecordSpatialContactPoints(const State& end) {
  step_points_.clear();
  const auto& pairs = spatial_->pairs();
  for (int i = 0; i < static_cast<int>(pairs.size()); ++i) {
    Vec3 point, normal, impulse;
    spatial_->PairContact(solver_.primals(), solver_.duals(), i, &point, &normal, &impulse);
    const double gap = ColliderGap(*scene_, data_, end, pairs[i].collider_p, pairs[i].collider_c);
    if (!std::isfinite(gap) || !normal.allFinite() || !impulse.allFinite()) continue;
    const Collider& P = scene_->colliders[pairs[i].collider_p];
    const Collider& C = scene_->colliders[pairs[i].collider_c];
    step_points_.push_back({P.body, C.body, point, normal, gap, false, impulse / options_.timestep, pairs[i].friction});
  }
}

VecX SilicoSimulator::DifferentiateStep(const State& state, const Control& control, MatX* dw) {
  Load(state, control);
  const double relaxation = options_.derivative_rho > 0.0 ? options_.derivative_rho : options_.rho;
  InteriorPointOptions o = options_.Solver(relaxation);
  o.warm_start = false;
  InteriorPointSolver solver(o);
  ComplementarityProblem& problem = active_problem();
  const InteriorPointReport report = solver.Solve(problem);
  const std::string at = "silico: cannot differentiate the step: the solve at rho = " + options_detail::FormatDouble(relaxation);
  if (!report.converged()) throw Error(at + " ended with " + std::string(ToString(report.status)));
  if (!solver.Differentiate(problem, dw)) {
    throw Error(at + " converged, but its Jacobian at the solution is singular (no implicit-function derivative)");
  }
  return solver.primals();
}

void SilicoSimulator::DoDerivatives(const State& state, const Control& control, StepDerivatives* out) {
  MatX dw;
  const VecX y = DifferentiateStep(state, control, &dw);
  if (spatial_) return SpatialDerivatives(state, y, dw, out);
  const auto& bodies = problem_->bodies();
  const int nb = static_cast<int>(bodies.size());
  const int nv = scene_->nv(), nu = scene_->nu();
  const int n_theta = problem_->num_parameters();
  const MatX dv25 = dw.topRows(3 * nb);  // d v25 / d theta, theta = [p2 | v15 | u]

  // d theta / d(dq, dv, du) with dq, dv in the joint's tangent coordinates (omega, v_B).
  MatX D = MatX::Zero(n_theta, 2 * nv + nu);
  for (int k = 0; k < nb; ++k) {
    const PlanarBody& b = bodies[k];
    const double th = state.q[b.idx_q + 2];
    const Mat2 R = Eigen::Rotation2Dd(th).toRotationMatrix();
    const Mat2 dR = Eigen::Rotation2Dd(th + M_PI / 2).toRotationMatrix();  // dR/dtheta
    // p2: (x, y) moves by R (dv_x, dv_y), theta by d_omega (Integrate on the planar joint).
    D.block<2, 2>(3 * k, b.idx_v + 1) = R;
    D(3 * k + 2, b.idx_v) = 1.0;
    // v15_xy = R(theta) v_B: depends on v_B and on theta.
    D.block<2, 2>(3 * nb + 3 * k, nv + b.idx_v + 1) = R;
    D.block<2, 1>(3 * nb + 3 * k, b.idx_v) = dR * state.v.segment<2>(b.idx_v + 1);
    D(3 * nb + 3 * k + 2, nv + b.idx_v) = 1.0;
  }
  D.bottomRightCorner(nu, nu).setIdentity();

  const MatX dV = dv25 * D;                       // d v25 / d(dq, dv, du)
  MatX dP = D.topRows(3 * nb) + options_.timestep * dV;  // d p3 / d(...), world coordinates
  const VecX p3 = problem_->EndPoses(y);
  MatX dq = MatX::Zero(nv, 2 * nv + nu), dv = MatX::Zero(nv, 2 * nv + nu);
  for (int k = 0; k < nb; ++k) {
    const PlanarBody& b = bodies[k];
    const double th3 = p3[3 * k + 2];
    const Mat2 Rt = Eigen::Rotation2Dd(-th3).toRotationMatrix();
    const Mat2 dRt = Eigen::Rotation2Dd(-th3 - M_PI / 2).toRotationMatrix();  // d(R^T)/dtheta
    // Tangent of q+: (d theta, R(theta+)^T d(x, y)) (first order in the planar joint's Exp).
    dq.row(b.idx_v) = dP.row(3 * k + 2);
    dq.middleRows<2>(b.idx_v + 1) = Rt * dP.middleRows<2>(3 * k);
    // v+ = (theta-dot, R(theta+)^T v25_xy).
    dv.row(b.idx_v) = dV.row(3 * k + 2);
    dv.middleRows<2>(b.idx_v + 1) =
        Rt * dV.middleRows<2>(3 * k) + (dRt * y.segment<2>(3 * k)) * dP.row(3 * k + 2);
  }
  out->dq_dq = dq.leftCols(nv);
  out->dq_dv = dq.middleCols(nv, nv);
  out->dq_du = dq.rightCols(nu);
  out->dv_dq = dv.leftCols(nv);
  out->dv_dv = dv.middleCols(nv, nv);
  out->dv_du = dv.rightCols(nu);
}

// Spatial scenes: theta = per body (dp2, dtheta2, v15, omega15) (SpatialProblem). The state's
// tangent (dq, dv) = per body ((dtheta, dp_B), (d omega_B, dv_B)) maps to theta by
//   dp2 = R2 dp_B, dtheta2 = dtheta, v15 = R2 v_B -> dv15 = R2 dv_B - R2 [v_B]x dtheta,
//   omega15 = omega_B.
// At the end, q3 = q2 (x) exp(dtheta2) (x) u(omega25) with u the unit increment, so the body-frame
// tangent of q3 is dtheta3 = R(u)^T dtheta2 + 2 vec(u^-1 (x) du/domega25 domega25), and
// dp_B+ = R3^T dp3 (dp3 = dp2 + dt dv25), v_B+ = R3^T v25 -> dv_B+ = R3^T dv25 + [v_B+]x dtheta3.
void SilicoSimulator::SpatialDerivatives(const State& state, const VecX& y, const MatX& dw,
                                         StepDerivatives* out) const {
  const auto& bodies = spatial_->bodies();
  const int nb = static_cast<int>(bodies.size());
  const int nv = scene_->nv();
  const double dt = options_.timestep;
  MatX D = MatX::Zero(spatial_->num_parameters(), 2 * nv);
  for (int k = 0; k < nb; ++k) {
    const silico::SpatialBody& b = bodies[k];
    const Mat3 R2 = Quat(state.q[b.idx_q + 3], state.q[b.idx_q + 4], state.q[b.idx_q + 5], state.q[b.idx_q + 6])
                        .normalized()
                        .toRotationMatrix();
    const Vec3 v_B = state.v.segment<3>(b.idx_v + 3);
    D.block<3, 3>(12 * k, b.idx_v + 3) = R2;
    D.block<3, 3>(12 * k + 3, b.idx_v).setIdentity();
    D.block<3, 3>(12 * k + 6, nv + b.idx_v + 3) = R2;
    D.block<3, 3>(12 * k + 6, b.idx_v) = -R2 * Skew(v_B);
    D.block<3, 3>(12 * k + 9, nv + b.idx_v).setIdentity();
  }
  const MatX dY = dw.topRows(6 * nb) * D;  // d(v25, omega25) / d(dq, dv)
  MatX dq = MatX::Zero(nv, 2 * nv), dv = MatX::Zero(nv, 2 * nv);
  using Ad3 = Eigen::AutoDiffScalar<Vec3>;
  for (int k = 0; k < nb; ++k) {
    const silico::SpatialBody& b = bodies[k];
    const Vec3 w25 = y.segment<3>(6 * k + 3);
    // u(w) = dq(w) / |dq(w)|, dq(w) = (dt/2)[s(w); w] (unit unless clipped), and du/dw by AD.
    Ad3 wa[3];
    for (int i = 0; i < 3; ++i) wa[i] = Ad3(w25[i], 3, i);
    const Ad3 u0 = 0.5 * dt * silico::detail3::IncrementScalar(dt, Ad3(wa[0] * wa[0] + wa[1] * wa[1] + wa[2] * wa[2]));
    const Ad3 norm = sqrt(u0 * u0 + 0.25 * dt * dt * (wa[0] * wa[0] + wa[1] * wa[1] + wa[2] * wa[2]));
    const Quat u(u0.value() / norm.value(), 0.5 * dt * w25.x() / norm.value(), 0.5 * dt * w25.y() / norm.value(),
                 0.5 * dt * w25.z() / norm.value());
    Mat3 dtheta_dw;
    for (int i = 0; i < 3; ++i) {
      const double du0 = (u0 / norm).derivatives()[i];
      Vec3 du;
      for (int j = 0; j < 3; ++j) du[j] = (0.5 * dt * wa[j] / norm).derivatives()[i];
      // 2 vec(conj(u) (x) du) = 2 (u0 du - du0 u_vec - u_vec x du)
      dtheta_dw.col(i) = 2.0 * (u.w() * du - du0 * u.vec() - u.vec().cross(du));
    }
    const Mat3 Ru = u.toRotationMatrix();
    const MatX dtheta3 = Ru.transpose() * D.middleRows<3>(12 * k + 3) + dtheta_dw * dY.middleRows<3>(6 * k + 3);
    Vec3 p3;
    Quat q3;
    spatial_->EndPose(y, k, &p3, &q3);
    const Mat3 R3t = q3.toRotationMatrix().transpose();
    const MatX dp3 = D.middleRows<3>(12 * k) + dt * dY.middleRows<3>(6 * k);
    const Vec3 vB3 = R3t * Vec3(y.segment<3>(6 * k));
    dq.middleRows<3>(b.idx_v) = dtheta3;
    dq.middleRows<3>(b.idx_v + 3) = R3t * dp3;
    dv.middleRows<3>(b.idx_v) = dY.middleRows<3>(6 * k + 3);
    dv.middleRows<3>(b.idx_v + 3) = R3t * dY.middleRows<3>(6 * k) + Skew(vB3) * dtheta3;
  }
  out->dq_dq = dq.leftCols(nv);
  out->dq_dv = dq.rightCols(nv);
  out->dq_du = MatX::Zero(nv, 0);
  out->dv_dq = dv.leftCols(nv);
  out->dv_dv = dv.rightCols(nv);
  out->dv_du = MatX::Zero(nv, 0);
}

}  // namespace arena
