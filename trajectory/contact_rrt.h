// The RRT of seed 000 Fig. 1 (Sec. VII; the planner of Pang et al., "Global planning for
// contact-rich manipulation via local smoothing of quasi-dynamic contact models", which it
// follows): a tree over the configurations of a quasi-static scene (trajectory/quasi_static_step.h)
// grown through contact by the smoothed model's gradients.
//
// Each node q carries a metric from the `smoothed` model (silico at a larger relaxation rho): the
// object's next coordinates mu with the fingers held where they are (u = q_a), and
// B = d q_object+ / d u. The distance of an object subgoal s from the node is the Mahalanobis
//   d(s) = 1/2 (s - mu)^T (B B^T + gamma I)^-1 (s - mu),
// small where the fingers can push the object towards s. An iteration samples a subgoal (the
// goal with goal_probability, else uniform in the sample box), takes the nearest node and
// either extends it (with 1 - contact_probability), u = q_a + extension du / |du|,
//   du = -(B^T B + control_regularizer I)^-1 B^T (mu - s),
// or re-grasps (contact_sample(q): new finger targets), stepping the `dynamics` model once.
// It stops when the goal's distance from a new node is at most goal_distance. Failed steps and
// failed metrics are counted, never thrown.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/math/types.h"
#include "models/simulator.h"

namespace arena {

struct ContactRrtOptions {
  int iterations = 1000;              // K (seed 000 Fig. 1)
  double metric_regularizer = 3e-3;   // gamma
  double extension = 0.2;             // epsilon: the control step
  double control_regularizer = 1e-2;  // of the extension's least squares (the authors' code)
  double goal_probability = 0.5;
  double contact_probability = 0.1;
  double goal_distance = 0.05;        // in the metric d(s)
  int substeps = 1;                   // model steps per quasi-static step
  std::uint64_t seed = 0;
};

struct ContactRrtProblem {
  std::vector<int> object;    // coordinates of q the planner steers (unactuated), its metric space
  std::vector<int> actuated;  // coordinates of q the controls target, in the order of u
  VecX sample_lower, sample_upper;  // the box of object subgoals
  VecX goal;                        // object coordinates
  std::function<VecX(const VecX& q)> contact_sample;  // a re-grasp's finger targets from q
};

struct RrtNode {
  VecX q;
  int parent = -1;
  VecX mu;        // the object's next coordinates with the fingers held (the smoothed model)
  MatX B;         // d object+ / d u
  MatX sigma_inv; // (B B^T + gamma I)^-1
};

struct ContactRrtResult {
  bool success = false;
  int iterations = 0;            // iterations run
  std::vector<RrtNode> nodes;    // the tree; nodes[0] is the start (empty: no metric there)
  std::vector<int> path;         // root to the node nearest the goal (in its metric)
  double goal_distance = 0.0;    // that node's d(goal)
  int failed_steps = 0;          // extensions or re-grasps whose step failed (no node added)
  int failed_metrics = 0;        // new configurations whose smoothed step failed (no node added)
  std::string first_failure;
  double seconds = 0.0;          // wall time of Plan
};

class ContactRrt {
 public:
  /// `dynamics` and `smoothed` (not owned) simulate the same scene; both need step derivatives
  /// (only the smoothed model's are used). Throws InvalidArgument on inconsistent problem sizes
  /// or options.
  ContactRrt(Simulator& dynamics, Simulator& smoothed, ContactRrtProblem problem, ContactRrtOptions options);

  /// Plans from q_start. When the start's metric cannot be computed there is no tree: the result
  /// has no nodes, one failed metric and first_failure says so.
  ContactRrtResult Plan(const VecX& q_start);

  /// The metric at q (false when the smoothed step failed).
  bool Metric(const VecX& q, RrtNode* node);
  /// d(s) of an object subgoal from a node.
  double Distance(const RrtNode& node, const VecX& s) const;
  /// The finger targets of an extension from `node` towards the subgoal s.
  VecX ExtensionControls(const RrtNode& node, const VecX& s) const;

 private:
  VecX ObjectOf(const VecX& q) const;
  VecX ActuatedOf(const VecX& q) const;
  int Nearest(const std::vector<RrtNode>& nodes, const VecX& s) const;

  Simulator& dynamics_;
  Simulator& smoothed_;
  ContactRrtProblem problem_;
  ContactRrtOptions options_;
};

}  // namespace arena
