#include "trajectory/multiple_shooting.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <ceres/ceres.h>

#include "core/common/error.h"
#include "trajectory/rollout.h"
#include "trajectory/shooting_objective.h"

namespace arena {

std::string MultipleShootingOptions::Validate() const {
  if (segments < 1) return "segments must be >= 1";
  if (!(initial_penalty > 0.0) || !std::isfinite(initial_penalty)) return "initial_penalty must be > 0";
  if (!(penalty_growth >= 1.0) || !std::isfinite(penalty_growth)) return "penalty_growth must be >= 1";
  if (inner_iterations < 1) return "inner_iterations must be >= 1";
  if (!(defect_tolerance > 0.0)) return "defect_tolerance must be > 0";
  if (max_updates < 1) return "max_updates must be >= 1";
  return "";
}

namespace {

// Simulated steps and step Jacobians, for the trace's counts in rollouts.
struct Work {
  std::int64_t steps = 0, jacobian_steps = 0;
};

bool SegmentEnd(Simulator& sim, const State& start, const VecX& controls, int steps, bool jacobians,
                SegmentJacobians* out, Work* work) {
  const int nv = sim.scene().nv(), nu = sim.scene().nu(), nx = 2 * nv;
  State s = start, next;
  if (jacobians) {
    out->d_start = MatX::Identity(nx, nx);
    out->d_controls.setZero(nx, steps * nu);
  }
  StepDerivatives d;
  MatX A(nx, nx), B(nx, nu);
  for (int t = 0; t < steps; ++t) {
    const Control u = ControlAt(controls, nu, t);
    next = s;
    ++work->steps;
    if (!sim.Step(next, u).ok()) return false;
    if (jacobians) {
      ++work->jacobian_steps;
      sim.Derivatives(s, u, &d);  // right after the step: models may reuse its solution
      A << d.dq_dq, d.dq_dv, d.dv_dq, d.dv_dv;
      B << d.dq_du, d.dv_du;
      out->d_start = A * out->d_start;
      if (t > 0) out->d_controls.leftCols(t * nu) = A * out->d_controls.leftCols(t * nu);
      out->d_controls.middleCols(t * nu, nu) = B;
    }
    std::swap(s, next);
  }
  out->end.resize(nx);
  out->end << s.q, s.v;
  return out->end.allFinite() && (!jacobians || (out->d_start.allFinite() && out->d_controls.allFinite()));
}

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The penalty's state, shared by the defect blocks and updated between Ceres solves.
struct Penalty {
  double rho = 1.0;
  VecX lambda;  // (K - 1) nx
};

// One segment's residual: its defect against the next knot, sqrt(rho) (x_end - x_knot +
// lambda / rho), or (last segment) sqrt(2) r(x_T) of the loss. Parameter blocks: the segment's
// start knot (not for the first segment), its controls, and the next knot (defects only).
class SegmentCost final : public ceres::CostFunction {
 public:
  SegmentCost(Simulator& sim, const State& start, int segment, int steps, bool first, bool terminal,
              const TerminalStateLoss* loss, const Penalty* penalty, Work* work)
      : sim_(sim), start_(start), segment_(segment), steps_(steps), first_(first), terminal_(terminal),
        loss_(loss), penalty_(penalty), work_(work) {
    const int nx = 2 * sim.scene().nv(), nu = sim.scene().nu();
    set_num_residuals(nx);
    if (!first_) mutable_parameter_block_sizes()->push_back(nx);
    mutable_parameter_block_sizes()->push_back(steps_ * nu);
    if (!terminal_) mutable_parameter_block_sizes()->push_back(nx);
  }

  bool Evaluate(double const* const* parameters, double* residuals, double** jacobians) const override {
    const int nv = sim_.scene().nv(), nu = sim_.scene().nu(), nx = 2 * nv;
    State s = start_;
    int block = 0;
    if (!first_) {
      s.q = Eigen::Map<const VecX>(parameters[block], nv);
      s.v = Eigen::Map<const VecX>(parameters[block] + nv, nv);
      ++block;
    }
    const int controls_block = block++;
    const VecX controls = Eigen::Map<const VecX>(parameters[controls_block], steps_ * nu);
    if (!SegmentEnd(sim_, s, controls, steps_, jacobians != nullptr, &segment_jacobians_, work_)) return false;
    Eigen::Map<VecX> r(residuals, nx);
    MatX dr_dend;
    if (terminal_) {
      State end;
      end.q = segment_jacobians_.end.head(nv);
      end.v = segment_jacobians_.end.tail(nv);
      VecX rt;
      loss_->TerminalResiduals(end, &rt, &dr_dend);
      r = std::sqrt(2.0) * rt;
      dr_dend *= std::sqrt(2.0);
    } else {
      const double w = std::sqrt(penalty_->rho);
      const Eigen::Map<const VecX> knot(parameters[block], nx);
      r = w * (segment_jacobians_.end - knot + penalty_->lambda.segment(segment_ * nx, nx) / penalty_->rho);
      dr_dend = w * MatX::Identity(nx, nx);
    }
    if (jacobians == nullptr) return true;
    if (!first_ && jacobians[0] != nullptr) {
      Eigen::Map<RowMajor>(jacobians[0], nx, nx) = dr_dend * segment_jacobians_.d_start;
    }
    if (jacobians[controls_block] != nullptr) {
      Eigen::Map<RowMajor>(jacobians[controls_block], nx, steps_ * nu) = dr_dend * segment_jacobians_.d_controls;
    }
    if (!terminal_ && jacobians[block] != nullptr) {
      Eigen::Map<RowMajor>(jacobians[block], nx, nx) = -std::sqrt(penalty_->rho) * MatX::Identity(nx, nx);
    }
    return true;
  }

 private:
  Simulator& sim_;
  State start_;
  int segment_, steps_;
  bool first_, terminal_;
  const TerminalStateLoss* loss_;
  const Penalty* penalty_;
  Work* work_;
  mutable SegmentJacobians segment_jacobians_;  // scratch of the const Evaluate Ceres requires
};

// sqrt(2) c_i u_i: the control cost as residuals.
class ControlCost final : public ceres::CostFunction {
 public:
  explicit ControlCost(VecX scale) : scale_(std::sqrt(2.0) * scale) {
    set_num_residuals(static_cast<int>(scale_.size()));
    mutable_parameter_block_sizes()->push_back(static_cast<int>(scale_.size()));
  }
  bool Evaluate(double const* const* parameters, double* residuals, double** jacobians) const override {
    const int n = static_cast<int>(scale_.size());
    Eigen::Map<VecX>(residuals, n) = scale_.cwiseProduct(Eigen::Map<const VecX>(parameters[0], n));
    if (jacobians != nullptr && jacobians[0] != nullptr) {
      Eigen::Map<RowMajor> J(jacobians[0], n, n);
      J.setZero();
      J.diagonal() = scale_;
    }
    return true;
  }

 private:
  VecX scale_;
};

// The trace counts rollouts: the feasible rollouts plus the segments' steps over T.
class WorkCounts final : public Objective {
 public:
  WorkCounts(const Objective& feasible, const Work& work, int steps) : feasible_(feasible), work_(work), steps_(steps) {}
  int dimension() const override { return feasible_.dimension(); }
  double Evaluate(const VecX&, VecX*) override { return std::numeric_limits<double>::infinity(); }
  std::int64_t evaluations() const override { return feasible_.evaluations() + work_.steps / steps_; }
  std::int64_t gradient_evaluations() const override { return work_.jacobian_steps / steps_; }

 private:
  const Objective& feasible_;
  const Work& work_;
  int steps_;
};

// After every Levenberg-Marquardt iteration: the feasible loss of the current controls.
class RecordFeasible final : public ceres::IterationCallback {
 public:
  RecordFeasible(ShootingObjective* feasible, TraceRecorder* recorder, const std::vector<VecX>* controls)
      : feasible_(feasible), recorder_(recorder), controls_(controls) {}
  ceres::CallbackReturnType operator()(const ceres::IterationSummary& summary) override {
    if (summary.iteration == 0) return ceres::SOLVER_CONTINUE;  // the starting point: already recorded
    const VecX u = Stack(*controls_);
    return recorder_->Record(feasible_->Evaluate(u, nullptr), u) ? ceres::SOLVER_TERMINATE_SUCCESSFULLY
                                                                  : ceres::SOLVER_CONTINUE;
  }
  static VecX Stack(const std::vector<VecX>& blocks) {
    Eigen::Index n = 0;
    for (const VecX& b : blocks) n += b.size();
    VecX u(n);
    n = 0;
    for (const VecX& b : blocks) {
      u.segment(n, b.size()) = b;
      n += b.size();
    }
    return u;
  }

 private:
  ShootingObjective* feasible_;
  TraceRecorder* recorder_;
  const std::vector<VecX>* controls_;
};

}  // namespace

bool SegmentEndAndJacobians(Simulator& sim, const State& start, const VecX& controls, int steps,
                            SegmentJacobians* out) {
  Work work;
  return SegmentEnd(sim, start, controls, steps, true, out, &work);
}

OptimizerTrace MinimizeMultipleShooting(Simulator& sim, const State& start, int steps,
                                        std::shared_ptr<const TerminalStateLoss> loss, const VecX& controls0,
                                        const MultipleShootingOptions& options, const OptimizerBudget& budget) {
  if (std::string why = options.Validate(); !why.empty()) throw InvalidArgument("multiple shooting: " + why);
  if (std::string why = budget.Validate(); !why.empty()) throw InvalidArgument("multiple shooting: budget: " + why);
  if (!sim.capabilities().has_derivatives()) {
    throw Unsupported("multiple shooting: model '" + std::string(sim.name()) + "' has no derivatives");
  }
  const Scene& scene = sim.scene();
  if (!HasVectorConfiguration(scene)) {
    throw Unsupported("multiple shooting: scene '" + scene.name +
                      "' has ball, planar or free joints (knots are plain (q, v) vectors)");
  }
  const int nu = scene.nu(), nx = 2 * scene.nv();
  if (nu == 0) throw InvalidArgument("multiple shooting: scene '" + scene.name + "' has no actuators");
  ShootingObjective feasible(sim, start, steps, loss);
  if (controls0.size() != feasible.dimension()) throw InvalidArgument("multiple shooting: controls0 has the wrong size");

  OptimizerTrace trace;
  Work work;
  WorkCounts counts(feasible, work, steps);
  TraceRecorder recorder(counts, budget, &trace);
  if (recorder.Record(feasible.Evaluate(controls0, nullptr), controls0)) return trace;
  if (!feasible.last_rollout().ok()) {
    trace.stop = OptimizerStop::kFailed;
    trace.message = "the starting controls' rollout failed: " + feasible.last_rollout().failure;
    return trace;
  }

  // Segment k covers steps [begin[k], begin[k + 1]); the knots start on the rollout of controls0.
  const int segments = std::min(options.segments, steps);
  std::vector<int> begin;
  for (int k = 0; k <= segments; ++k) begin.push_back(static_cast<int>((static_cast<long>(steps) * k) / segments));
  std::vector<VecX> controls(segments), knots(segments);  // knots[0] unused: the start is fixed
  for (int k = 0; k < segments; ++k) {
    controls[k] = controls0.segment(begin[k] * nu, (begin[k + 1] - begin[k]) * nu);
    if (k > 0) {
      const State& s = feasible.last_rollout().states[begin[k]];
      knots[k].resize(nx);
      knots[k] << s.q, s.v;
    }
  }
  Penalty penalty;
  penalty.rho = options.initial_penalty;
  penalty.lambda = VecX::Zero((segments - 1) * nx);

  ceres::Problem::Options problem_options;
  ceres::Problem problem(problem_options);
  std::vector<SegmentCost*> costs;
  const VecX scale = loss->ControlResidualScale(steps * nu);
  for (int k = 0; k < segments; ++k) {
    const bool last = k + 1 == segments;
    auto* cost = new SegmentCost(sim, start, k, begin[k + 1] - begin[k], k == 0, last, loss.get(), &penalty, &work);
    costs.push_back(cost);
    std::vector<double*> blocks;
    if (k > 0) blocks.push_back(knots[k].data());
    blocks.push_back(controls[k].data());
    if (!last) blocks.push_back(knots[k + 1].data());
    problem.AddResidualBlock(cost, nullptr, blocks);
    if (scale.size() > 0) {
      problem.AddResidualBlock(new ControlCost(scale.segment(begin[k] * nu, controls[k].size())), nullptr,
                               controls[k].data());
    }
  }

  RecordFeasible callback(&feasible, &recorder, &controls);
  ceres::Solver::Options solver;
  solver.linear_solver_type = ceres::SPARSE_NORMAL_CHOLESKY;
  solver.max_num_iterations = options.inner_iterations;
  solver.update_state_every_iteration = true;
  solver.callbacks.push_back(&callback);
  solver.logging_type = ceres::SILENT;
  solver.function_tolerance = 1e-12;
  solver.parameter_tolerance = 1e-12;
  solver.gradient_tolerance = 0.0;

  double last_defect = std::numeric_limits<double>::infinity();
  for (int update = 0; update < options.max_updates; ++update) {
    ceres::Solver::Summary summary;
    ceres::Solve(solver, &problem, &summary);
    if (recorder.stopped()) return trace;
    if (summary.termination_type == ceres::FAILURE || !std::isfinite(summary.final_cost)) {
      trace.stop = OptimizerStop::kFailed;
      trace.message = "Levenberg-Marquardt failed: " + summary.message;
      return trace;
    }
    // The defects at the solution, for the multiplier update.
    VecX defects((segments - 1) * nx);
    for (int k = 0; k + 1 < segments; ++k) {
      State s = start;
      if (k > 0) {
        s.q = knots[k].head(nx / 2);
        s.v = knots[k].tail(nx / 2);
      }
      SegmentJacobians seg;
      if (!SegmentEnd(sim, s, controls[k], begin[k + 1] - begin[k], false, &seg, &work)) {
        trace.stop = OptimizerStop::kFailed;
        trace.message = "a segment's rollout failed after the solve";
        return trace;
      }
      defects.segment(k * nx, nx) = seg.end - knots[k + 1];
    }
    const double defect = defects.size() > 0 ? defects.cwiseAbs().maxCoeff() : 0.0;
    if (summary.termination_type == ceres::CONVERGENCE && defect <= options.defect_tolerance) {
      trace.stop = OptimizerStop::kConverged;
      trace.message = "stitched (max defect " + std::to_string(defect) + ") and converged: " + summary.message;
      return trace;
    }
    penalty.lambda += penalty.rho * defects;
    if (defect > 0.25 * last_defect) penalty.rho *= options.penalty_growth;
    last_defect = defect;
  }
  trace.stop = OptimizerStop::kMaxIterations;
  trace.message = std::to_string(options.max_updates) + " multiplier updates without stitching the trajectory";
  return trace;
}

}  // namespace arena
