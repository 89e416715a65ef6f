// The chain rule from body poses to the tangent coordinates of a configuration, at the point:
// for eps = 0 in q (+) eps (core/multibody/configuration.h Integrate). Every joint moves its
// child by a group exponential in its child frame, so the body poses are products of
// exponentials of the DOFs' world twists s_j (taken at q):
//   T_k(q (+) eps) = prod_{j in path(k), root first} exp(s_j^ eps_j) T_k(q),
// and by the Baker-Campbell-Hausdorff formula the body's twist is, to second order,
//   xi_k(eps) = sum_j s_j eps_j + 1/2 sum_{i before j} [s_i, s_j] eps_i eps_j
// (no bracket between the DOFs of one joint: they share one exponential). So for an energy of
// the body twists with gradients G_k and Hessian blocks H_kl (models/incremental_potential/pose_derivatives.h),
//   dE/deps_i     = sum_{k carried by i} s_i . G_k
//   d2E/deps_i eps_j = sum_{k,l} s_i . H_kl s_j + sum_k G_k . [s_i, s_j] / 2  (i before j on k's path).
// Used by the incremental-potential models (seed 003 Sec. IV, seed 004 Sec. 3.1: Newton over
// the joint coordinates) and their implicit-function derivatives.
#pragma once

#include <map>
#include <utility>
#include <vector>

#include "core/multibody/data.h"
#include "core/multibody/model.h"

namespace arena {

/// Symmetric body-twist Hessian: a 6 x 6 block per body and per coupled pair (k < l).
struct BodyHessian {
  std::vector<Mat6> self;
  std::map<std::pair<int, int>, Mat6> cross;  // (k, l) with k < l: d2E / dxi_k dxi_l

  void Reset(int bodies);
  /// Adds d2E/dxi_k dxi_l (and its transpose where k > l).
  void Add(int k, int l, const Mat6& block);
  /// The block d2E / dxi_k dxi_l for k <= l (a cross block is created zero); the reference stays
  /// valid until Reset.
  Mat6& Block(int k, int l);
};

class TangentChain {
 public:
  explicit TangentChain(const MultibodyModel& model);

  /// Body poses and the DOFs' world twists at q.
  void Update(const VecX& q);
  const SE3& pose(int body) const { return data_.X_WB[body]; }
  const Motion& dof_twist(int dof) const { return twists_[dof]; }
  /// The DOFs that move `body`, root first.
  const std::vector<int>& path(int body) const { return paths_[body]; }
  int nv() const { return model_.nv(); }
  int num_bodies() const { return model_.num_bodies(); }

  /// g_i = sum over the bodies i carries of s_i . G_k.
  void Gradient(const std::vector<Vec6>& G, VecX* g) const;
  /// The Hessian in tangent coordinates (adds into *H, which must be nv x nv).
  void AddHessian(const BodyHessian& blocks, const std::vector<Vec6>& G, MatX* H) const;
  /// The mixed derivatives d2E/deps_i dz (added into *column, size nv) for a virtual DOF z that
  /// moves `body`'s subtree by the world twist s, on the path after the parent's DOFs and before
  /// `body`'s own: a joint's placement in its parent (design parameters). The same product of
  /// exponentials as AddHessian, with z one more factor.
  void AddSubtreeColumn(const BodyHessian& blocks, const std::vector<Vec6>& G, int body, const Motion& s,
                        VecX* column) const;

 private:
  const MultibodyModel& model_;
  MultibodyData data_;
  std::vector<Motion> twists_;            // per DOF
  std::vector<int> joint_of_;             // per DOF: the body whose joint it belongs to
  std::vector<std::vector<int>> paths_;   // per body
};

}  // namespace arena
