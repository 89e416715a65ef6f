#include "experiments/trajopt_methods.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>

#include <ceres/ceres.h>

namespace arena {

namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// A standard normal sample (Box-Muller on our platform-independent uniforms).
double Normal(Rng& rng) {
  const double u1 = 1.0 - Uniform01(rng);  // (0, 1]: log is finite
  const double u2 = Uniform01(rng);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

// Records an iteration and says whether to stop (and why).
class Recorder {
 public:
  Recorder(const ShootingProblem& problem, const TrajoptBudget& budget, TrajoptTrace* trace)
      : problem_(problem), budget_(budget), trace_(trace), start_(Clock::now()) {}

  bool stopped() const { return !trace_->iterations.empty() && trace_->stop != TrajoptStop::kFailed; }

  bool Record(double loss) {
    TrajoptIteration it;
    it.iteration = static_cast<std::int64_t>(trace_->iterations.size());
    it.rollouts = problem_.rollouts() - rollouts0_;
    it.backward_passes = problem_.backward_passes() - backward0_;
    it.elapsed_s = SecondsSince(start_);
    best_ = std::min(best_, loss);
    it.loss = best_;
    trace_->iterations.push_back(it);
    if (best_ <= budget_.threshold) {
      trace_->stop = TrajoptStop::kThreshold;
    } else if (it.rollouts >= budget_.max_rollouts) {
      trace_->stop = TrajoptStop::kMaxRollouts;
    } else if (budget_.time_budget_s > 0.0 && it.elapsed_s >= budget_.time_budget_s) {
      trace_->stop = TrajoptStop::kTimeBudget;
    } else {
      return false;
    }
    return true;
  }

 private:
  const ShootingProblem& problem_;
  TrajoptBudget budget_;
  TrajoptTrace* trace_;
  Clock::time_point start_;
  std::int64_t rollouts0_ = problem_.rollouts();
  std::int64_t backward0_ = problem_.backward_passes();
  double best_ = std::numeric_limits<double>::infinity();
};

// The first evaluation (the zero controls) is recorded as iteration 0 here: Ceres may stop
// before its first callback (e.g. on a zero gradient).
class ShootingFunction final : public ceres::FirstOrderFunction {
 public:
  ShootingFunction(ShootingProblem* problem, Recorder* recorder) : problem_(problem), recorder_(recorder) {}
  // A failed rollout (+inf) is a failed evaluation: the line search backs off.
  bool Evaluate(const double* parameters, double* cost, double* gradient) const override {
    const Eigen::Map<const VecX> u(parameters, problem_->num_controls());
    if (gradient == nullptr) {
      *cost = problem_->Loss(u);
    } else {
      *cost = problem_->LossAndGradient(u, &gradient_);
    }
    if (first_) {
      first_ = false;
      recorder_->Record(*cost);
    }
    if (!std::isfinite(*cost)) return false;
    if (gradient == nullptr) return true;
    Eigen::Map<VecX>(gradient, problem_->num_controls()) = gradient_;
    return true;
  }
  int NumParameters() const override { return problem_->num_controls(); }

 private:
  ShootingProblem* problem_;
  Recorder* recorder_;
  mutable bool first_ = true;  // state of the const Evaluate that Ceres requires
  mutable VecX gradient_;      // its scratch
};

class StopCallback final : public ceres::IterationCallback {
 public:
  explicit StopCallback(Recorder* recorder) : recorder_(recorder) {}
  // Iteration 0 is the first evaluation, which ShootingFunction recorded.
  ceres::CallbackReturnType operator()(const ceres::IterationSummary& summary) override {
    const bool stop = summary.iteration == 0 ? recorder_->stopped() : recorder_->Record(summary.cost);
    return stop ? ceres::SOLVER_TERMINATE_SUCCESSFULLY : ceres::SOLVER_CONTINUE;
  }

 private:
  Recorder* recorder_;
};

}  // namespace

std::string_view ToString(TrajoptStop stop) {
  switch (stop) {
    case TrajoptStop::kThreshold: return "threshold";
    case TrajoptStop::kMaxRollouts: return "max_rollouts";
    case TrajoptStop::kTimeBudget: return "time_budget";
    case TrajoptStop::kConverged: return "converged";
    case TrajoptStop::kFailed: return "failed";
  }
  return "?";
}

TrajoptTrace RunLbfgs(ShootingProblem& problem, const TrajoptBudget& budget) {
  TrajoptTrace trace;
  Recorder recorder(problem, budget, &trace);
  StopCallback callback(&recorder);
  ceres::GradientProblemSolver::Options options;
  options.line_search_direction_type = ceres::LBFGS;
  options.max_num_iterations = std::numeric_limits<int>::max();  // the budget stops it
  options.callbacks.push_back(&callback);
  options.logging_type = ceres::SILENT;
  // Ceres' relative tolerances would stop on a plateau; here the threshold and budget decide.
  options.function_tolerance = 1e-14;
  options.parameter_tolerance = 1e-14;
  options.gradient_tolerance = 0.0;
  const ceres::GradientProblem gradient_problem(new ShootingFunction(&problem, &recorder));
  VecX u = VecX::Zero(problem.num_controls());
  ceres::GradientProblemSolver::Summary summary;
  ceres::Solve(options, gradient_problem, u.data(), &summary);
  trace.message = summary.message;
  if (trace.iterations.empty() || !std::isfinite(trace.iterations[0].loss)) {
    trace.stop = TrajoptStop::kFailed;  // the zero controls' rollout failed
  } else if (summary.termination_type == ceres::CONVERGENCE) {
    trace.stop = TrajoptStop::kConverged;  // a tolerance of Ceres' before the threshold
  } else if (summary.termination_type != ceres::USER_SUCCESS) {
    trace.stop = TrajoptStop::kFailed;
  }
  return trace;
}

// CEM: sample a population around the mean, keep the `elites` lowest losses, refit the mean and
// the per-control std to them. Iteration 0 is the zero controls, as for L-BFGS.
TrajoptTrace RunCrossEntropy(ShootingProblem& problem, const CemOptions& options, const TrajoptBudget& budget,
                             std::uint64_t seed) {
  TrajoptTrace trace;
  Recorder recorder(problem, budget, &trace);
  const int n = problem.num_controls();
  VecX mean = VecX::Zero(n);
  VecX std = options.initial_std * problem.upper().cwiseAbs().cwiseMax(problem.lower().cwiseAbs());
  if (recorder.Record(problem.Loss(mean))) return trace;
  Rng rng(seed);
  std::vector<VecX> samples(options.population, VecX(n));
  std::vector<double> losses(options.population);
  std::vector<int> order(options.population);
  while (true) {
    for (int s = 0; s < options.population; ++s) {
      for (int i = 0; i < n; ++i) samples[s][i] = mean[i] + std[i] * Normal(rng);
      samples[s] = samples[s].cwiseMax(problem.lower()).cwiseMin(problem.upper());
      losses[s] = problem.Loss(samples[s]);
    }
    std::iota(order.begin(), order.end(), 0);
    // Stable: ties (e.g. several failed rollouts) keep the sampling order, so runs repeat.
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return losses[a] < losses[b]; });
    mean.setZero();
    for (int e = 0; e < options.elites; ++e) mean += samples[order[e]];
    mean /= options.elites;
    VecX var = VecX::Zero(n);
    for (int e = 0; e < options.elites; ++e) var += (samples[order[e]] - mean).cwiseAbs2();
    std = (var / options.elites).cwiseSqrt();
    if (recorder.Record(losses[order[0]])) return trace;
  }
}

}  // namespace arena
