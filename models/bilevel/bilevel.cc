#include "models/bilevel/bilevel.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/common/error.h"
#include "models/silico/planar_contact_points.h"

namespace arena {

using silico::PlanarBody;

std::string_view ToString(BilevelJacobian jacobian) {
  switch (jacobian) {
    case BilevelJacobian::kFiniteDifference: return "finite_difference";
    case BilevelJacobian::kChainRule: return "chain_rule";
  }
  return "?";
}

bool FromString(std::string_view text, BilevelJacobian* jacobian) {
  for (BilevelJacobian j : {BilevelJacobian::kFiniteDifference, BilevelJacobian::kChainRule}) {
    if (text == ToString(j)) {
      *jacobian = j;
      return true;
    }
  }
  return false;
}

std::string EnumValues(BilevelJacobian) { return "finite_difference|chain_rule"; }

std::string BilevelOptions::Validate() const { return CheckRanges(*this); }

InteriorPointOptions BilevelOptions::Outer() const {
  InteriorPointOptions o;
  o.complementarity_tolerance = rho;
  o.residual_tolerance = residual_tolerance > 0.0 ? residual_tolerance : rho / 10.0;
  o.max_iterations = max_iterations;
  o.warm_start = false;  // the sweeps start every step cold (the authors' benchmark code)
  o.compressed = compressed;
  o.linear_solver = linear_solver;
  o.primal_regularization = primal_regularization;
  o.dual_regularization = dual_regularization;
  // Fig. 9-10: outer Jacobian by finite differences through the nested solve.
  o.finite_difference_jacobian = jacobian == BilevelJacobian::kFiniteDifference;
  return o;
}

InteriorPointOptions BilevelOptions::Inner() const {
  InteriorPointOptions o = silico::PsdfSolverOptions();  // cold, compressed, analytic Jacobian
  o.complementarity_tolerance = inner_rho;
  o.residual_tolerance = inner_residual_tolerance;
  o.max_iterations = inner_max_iterations;
  return o;
}

Capabilities BilevelSimulator::CapabilitiesFor(const BilevelOptions& options) {
  Capabilities c;
  c.planar = true;
  for (ShapeType t : {ShapeType::kPolygon2, ShapeType::kDisk2, ShapeType::kCapsule2, ShapeType::kHalfPlane2}) {
    c.shapes.set(static_cast<size_t>(t));
  }
  (void)options;
  c.derivatives = DerivativeSource::kNone;  // the paper differentiates the bilevel model only inside Newton
  c.smooth = false;             // the inner solution map is discontinuous in face-face contact
  return c;
}

BilevelSimulator::BilevelSimulator(std::shared_ptr<const Scene> scene, const BilevelOptions& options)
    : SimulatorBase(std::move(scene), options), data_(scene_->model) {
  if (std::string why = options_.Validate(); !why.empty()) throw InvalidArgument("bilevel: " + why);
  problem_ = std::make_unique<bilevel::OuterProblem>(*scene_, options_.Inner());
  solver_.options() = options_.Outer();
}

// The inner answers at the new poses with the outer impulses (the file comment of
// outer_problem.h): on the parent f = t (beta1 - beta2) + n gamma, t = (n_y, -n_x).
void BilevelSimulator::RecordContactPoints(const State& end) {
  step_points_.clear();
  const VecX& z = solver_.duals();
  const auto& pairs = problem_->pairs();
  for (size_t k = 0; k < last_contacts_.size() && k < pairs.size(); ++k) {
    const Vec2 n = last_contacts_[k].normal;
    const Vec2 impulse = Vec2(n.y(), -n.x()) * (z[4 * k + 2] - z[4 * k + 3]) + n * z[4 * k];
    ContactPoint p = silico::PlanarContactPoint(*scene_, data_, end, pairs[k], last_contacts_[k].point, n.normalized(),
                                                impulse / options_.timestep);
    if (std::isfinite(p.gap) && p.normal.allFinite() && p.force_on_a.allFinite()) step_points_.push_back(p);
  }
}

StepReport BilevelSimulator::DoStep(State& state, const Control& control) {
  StepReport report;
  VecX p2, v15;
  silico::LoadPlanarState(problem_->bodies(), state, &p2, &v15);
  problem_->SetStep(options_.timestep, p2, v15, control.u);
  problem_->ResetStatistics();

  const auto start = std::chrono::steady_clock::now();
  last_solve_ = solver_.Solve(*problem_);
  report.solve_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  last_inner_ = problem_->statistics();
  report.iterations = last_solve_.iterations;
  report.residual = last_solve_.residual;

  const VecX& y = solver_.primals();
  const VecX p3 = problem_->EndPoses(y);
  if (!y.allFinite() || !p3.allFinite()) {
    report.status = StepStatus::kNonFinite;
    report.message = "outer solve returned a non-finite point (" + std::string(ToString(last_solve_.status)) + ")";
    return report;
  }
  silico::StorePlanarState(problem_->bodies(), p3, y, &state);
  state.t += options_.timestep;

  // Contacts at the new poses, outside the timed solve: one more P14 solve per pair. On the
  // relaxed central path gamma phi = rho, so a resting contact sits at phi ~ rho / gamma, above
  // 1e-3 for rho = 1e-4 and light bodies; sqrt(rho) is where gamma = phi (the knee).
  const double contact_psdf = std::max(kContactPsdf, std::sqrt(options_.rho));
  last_contacts_.clear();
  if (problem_->InnerContacts(y, &last_contacts_)) {
    const VecX& z = solver_.duals();
    for (size_t k = 0; k < last_contacts_.size(); ++k) {
      const double impulse = last_contacts_[k].normal.norm() * z[4 * k];
      if (last_contacts_[k].phi < contact_psdf && impulse > 0.0) ++report.contacts;
    }
  }
  RecordContactPoints(state);
  if (!last_solve_.converged()) {
    switch (last_solve_.status) {
      case InteriorPointStatus::kMaxIterations: report.status = StepStatus::kNotConverged; break;
      case InteriorPointStatus::kNonFinite: report.status = StepStatus::kNonFinite; break;
      default: report.status = StepStatus::kError; break;
    }
    report.message = "outer interior point: " + std::string(ToString(last_solve_.status)) + " after " +
                     std::to_string(last_solve_.iterations) + " iterations (residual " +
                     options_detail::FormatDouble(last_solve_.residual) + ", complementarity " +
                     options_detail::FormatDouble(last_solve_.complementarity) + "); " +
                     std::to_string(last_inner_.solves) + " nested P14 solves, " +
                     std::to_string(last_inner_.not_converged) + " of them not converged";
  }
  return report;
}

}  // namespace arena
