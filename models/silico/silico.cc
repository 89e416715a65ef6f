#include "models/silico/silico.h"

#include <chrono>
#include <cmath>

#include "core/common/error.h"

namespace arena {

using silico::PlanarBody;

std::string SilicoOptions::Validate() const {
  if (!(timestep > 0.0) || !std::isfinite(timestep)) {
    return "timestep must be > 0 and finite, got " + options_detail::FormatDouble(timestep);
  }
  if (!(rho > 0.0) || !std::isfinite(rho)) return "rho must be > 0 and finite";
  if (!(residual_tolerance >= 0.0)) return "residual_tolerance must be >= 0 (0 = rho / 10)";
  if (max_iterations < 1) return "max_iterations must be >= 1";
  if (!(warm_start_backstep >= 0.0)) return "warm_start_backstep must be >= 0";
  if (!(primal_regularization >= 0.0) || !(dual_regularization >= 0.0)) return "regularizations must be >= 0";
  if (!(derivative_rho >= 0.0)) return "derivative_rho must be >= 0 (0 = rho)";
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
  o.primal_regularization = primal_regularization;
  o.dual_regularization = dual_regularization;
  return o;
}

Capabilities SilicoSimulator::StaticCapabilities() {
  Capabilities c;
  c.planar = true;
  c.spatial = true;
  for (ShapeType t : {ShapeType::kPolygon2, ShapeType::kDisk2, ShapeType::kCapsule2, ShapeType::kHalfPlane2,
                      ShapeType::kSphere, ShapeType::kBox, ShapeType::kCapsule, ShapeType::kCylinder,
                      ShapeType::kEllipsoid, ShapeType::kCone, ShapeType::kHalfSpace, ShapeType::kConvexHull}) {
    c.shapes.set(static_cast<size_t>(t));
  }
  c.state_derivatives = true;  // planar scenes; spatial scenes throw Unsupported for now
  c.smooth = true;  // for rho > 0 the step is a smooth function of the state (Sec. V-D)
  return c;
}

SilicoSimulator::SilicoSimulator(std::shared_ptr<const Scene> scene, const SilicoOptions& options)
    : scene_(std::move(scene)), options_(options) {
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

StepReport SilicoSimulator::Step(State& state, const Control& control) {
  StepReport report;
  if (std::string bad = FirstNonFiniteEntry(state); !bad.empty()) {
    report.status = StepStatus::kNonFinite;
    report.message = "non-finite state: " + bad;
    return report;
  }
  Load(state, control);
  const auto start = std::chrono::steady_clock::now();
  last_solve_ = solver_.Solve(active_problem());
  report.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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
  return report;
}

void SilicoSimulator::Derivatives(const State& state, const Control& control, StepDerivatives* out) {
  if (spatial_) throw Unsupported("silico: step derivatives of spatial scenes are not implemented yet");
  Load(state, control);
  const double relaxation = options_.derivative_rho > 0.0 ? options_.derivative_rho : options_.rho;
  InteriorPointOptions o = options_.Solver(relaxation);
  o.warm_start = false;
  InteriorPointSolver solver(o);
  const InteriorPointReport report = solver.Solve(*problem_);
  MatX dw;
  if (!report.converged() || !solver.Differentiate(*problem_, &dw)) {
    throw Error("silico: cannot differentiate the step: the solve at rho = " +
                options_detail::FormatDouble(relaxation) + " ended with " + std::string(ToString(report.status)));
  }
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
  const VecX& y = solver.primals();
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

}  // namespace arena
