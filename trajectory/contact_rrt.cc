#include "trajectory/contact_rrt.h"

#include <chrono>
#include <limits>
#include <utility>

#include "core/common/error.h"
#include "core/common/random.h"
#include "core/common/stopwatch.h"
#include "trajectory/quasi_static_step.h"

namespace arena {
namespace {

// q's entries at `indices`, in order.
VecX Select(const VecX& q, const std::vector<int>& indices) {
  VecX out(indices.size());
  for (size_t i = 0; i < indices.size(); ++i) out[i] = q[indices[i]];
  return out;
}

}  // namespace

ContactRrt::ContactRrt(Simulator& dynamics, Simulator& smoothed, ContactRrtProblem problem, ContactRrtOptions options)
    : dynamics_(dynamics), smoothed_(smoothed), problem_(std::move(problem)), options_(options) {
  const int nq = dynamics_.scene().nq(), no = static_cast<int>(problem_.object.size());
  if (smoothed_.scene().nq() != nq) throw InvalidArgument("contact RRT: the two models simulate different scenes");
  if (static_cast<int>(problem_.actuated.size()) != dynamics_.scene().nu()) {
    throw InvalidArgument("contact RRT: " + std::to_string(problem_.actuated.size()) + " actuated coordinates for " +
                          std::to_string(dynamics_.scene().nu()) + " controls");
  }
  for (const std::vector<int>* indices : {&problem_.object, &problem_.actuated}) {
    for (int i : *indices) {
      if (i < 0 || i >= nq) throw InvalidArgument("contact RRT: coordinate " + std::to_string(i) + " outside q");
    }
  }
  if (no == 0 || problem_.sample_lower.size() != no || problem_.sample_upper.size() != no || problem_.goal.size() != no) {
    throw InvalidArgument("contact RRT: the sample box and the goal need one entry per object coordinate");
  }
  if (!problem_.contact_sample) throw InvalidArgument("contact RRT: no contact sampler");
  if (options_.iterations < 1 || options_.substeps < 1 || !(options_.extension > 0.0) ||
      !(options_.metric_regularizer > 0.0) || !(options_.control_regularizer >= 0.0) ||
      !(options_.goal_probability >= 0.0 && options_.goal_probability <= 1.0) ||
      !(options_.contact_probability >= 0.0 && options_.contact_probability <= 1.0) ||
      !(options_.goal_distance > 0.0)) {
    throw InvalidArgument("contact RRT: iterations and substeps >= 1, extension, gamma and goal distance > 0, "
                          "probabilities in [0, 1]");
  }
}

VecX ContactRrt::ObjectOf(const VecX& q) const { return Select(q, problem_.object); }
VecX ContactRrt::ActuatedOf(const VecX& q) const { return Select(q, problem_.actuated); }

bool ContactRrt::Metric(const VecX& q, RrtNode* node) {
  const QuasiStaticResult held = QuasiStaticStep(smoothed_, q, ActuatedOf(q), options_.substeps, true);
  if (!held.ok) return false;
  const int no = static_cast<int>(problem_.object.size());
  node->q = q;
  node->mu = ObjectOf(held.q);
  node->B.resize(no, held.dq_du.cols());
  for (int i = 0; i < no; ++i) node->B.row(i) = held.dq_du.row(problem_.object[i]);
  const MatX sigma = node->B * node->B.transpose() + options_.metric_regularizer * MatX::Identity(no, no);
  node->sigma_inv = sigma.llt().solve(MatX::Identity(no, no));
  return true;
}

double ContactRrt::Distance(const RrtNode& node, const VecX& s) const {
  const VecX d = s - node.mu;
  return 0.5 * d.dot(node.sigma_inv * d);
}

VecX ContactRrt::ExtensionControls(const RrtNode& node, const VecX& s) const {
  const MatX& B = node.B;
  const MatX normal = B.transpose() * B + options_.control_regularizer * MatX::Identity(B.cols(), B.cols());
  VecX du = -normal.ldlt().solve(B.transpose() * (node.mu - s));
  du /= 1e-5 + du.norm();  // the authors' normalisation: a zero gradient gives a zero step
  return ActuatedOf(node.q) + options_.extension * du;
}

int ContactRrt::Nearest(const std::vector<RrtNode>& nodes, const VecX& s) const {
  int best = 0;
  double best_distance = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < nodes.size(); ++i) {
    const double d = Distance(nodes[i], s);
    if (d <= best_distance) {
      best_distance = d;
      best = static_cast<int>(i);
    }
  }
  return best;
}

ContactRrtResult ContactRrt::Plan(const VecX& q_start) {
  const auto t0 = std::chrono::steady_clock::now();
  ContactRrtResult out;
  RrtNode root;
  if (!Metric(q_start, &root)) {
    out.first_failure = "the smoothed model cannot step from the start: there is no tree to grow";
    out.failed_metrics = 1;
    out.goal_distance = std::numeric_limits<double>::infinity();
    out.seconds = SecondsSince(t0);
    return out;
  }
  out.success = Distance(root, problem_.goal) <= options_.goal_distance;  // a start at the goal
  out.nodes.push_back(std::move(root));
  Rng rng(options_.seed);
  const int no = static_cast<int>(problem_.object.size());
  for (int it = 0; it < options_.iterations && !out.success; ++it) {
    out.iterations = it + 1;
    VecX subgoal = problem_.goal;
    if (Uniform01(rng) >= options_.goal_probability) {
      for (int i = 0; i < no; ++i) subgoal[i] = Uniform(rng, problem_.sample_lower[i], problem_.sample_upper[i]);
    }
    const int nearest = Nearest(out.nodes, subgoal);
    const RrtNode& from = out.nodes[nearest];
    const VecX u = Uniform01(rng) >= options_.contact_probability ? ExtensionControls(from, subgoal)
                                                                  : problem_.contact_sample(from.q);
    const QuasiStaticResult next = QuasiStaticStep(dynamics_, from.q, u, options_.substeps, false);
    if (!next.ok) {
      if (out.first_failure.empty()) out.first_failure = next.failure;
      ++out.failed_steps;
      continue;
    }
    RrtNode node;
    if (!Metric(next.q, &node)) {
      ++out.failed_metrics;
      continue;
    }
    node.parent = nearest;
    out.success = Distance(node, problem_.goal) <= options_.goal_distance;
    out.nodes.push_back(std::move(node));
  }
  const int best = Nearest(out.nodes, problem_.goal);
  out.goal_distance = Distance(out.nodes[best], problem_.goal);
  for (int i = best; i >= 0; i = out.nodes[i].parent) out.path.insert(out.path.begin(), i);
  out.seconds = SecondsSince(t0);
  return out;
}

}  // namespace arena
