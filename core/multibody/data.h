// Mutable results and scratch of the multibody algorithms (Pinocchio's Data, MuJoCo's mjData).
// One MultibodyData per thread; the MultibodyModel is shared and const.
//
// The constructor sizes every member once; the algorithms only write into this storage and do
// not allocate. Per-joint blocks use Eigen types with a fixed maximum size (6), which live
// inline without heap storage.
#pragma once

#include <vector>

#include "core/multibody/model.h"

namespace arena {

/// Motion subspace of one joint in its child frame (6 x nv, nv <= 6).
using MotionSubspace = Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, 6>;
/// Per-joint square block (nv x nv, nv <= 6) and vector (nv, nv <= 6).
using JointMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;
using JointVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 6, 1>;

struct MultibodyData {
  explicit MultibodyData(const MultibodyModel& model);

  // Forward kinematics (ForwardKinematics; also refreshed by Rnea, Aba and the derivatives).
  std::vector<SE3> X_WB;    // pose of each body in the world
  std::vector<Motion> V_B;  // body twist, expressed in the body frame: [omega_B; v_BO]
  // Body spatial acceleration in the body frame (no gravity): the time derivative of the
  // coordinates of V_B. The classical acceleration of the body origin is
  // Linear(A_B) + Angular(V_B) x Linear(V_B).
  std::vector<Motion> A_B;

  // Dynamics outputs.
  MatX M;                 // joint-space mass matrix (Crba), full symmetric, with armature
  VecX tau;               // Rnea output
  VecX ddq;               // Aba output
  MatX dtau_dq, dtau_dv;  // RneaDerivatives
  MatX dddq_dq, dddq_dv, dddq_dtau;  // AbaDerivatives

  // Algorithm scratch (sized once here; algorithms do not allocate). Aba works in the tree
  // frames (world-oriented, about each tree's root; see tree_origin), so Ia, pa, c and U are
  // tree-frame quantities.
  std::vector<Force> f;           // per-body force scratch (Rnea: body-frame net wrench)
  std::vector<Mat6> Ia;           // ABA: articulated inertias
  std::vector<Force> pa;          // ABA: articulated bias forces
  std::vector<Motion> c;          // ABA: velocity-product accelerations
  std::vector<MotionSubspace> S;  // motion subspace per joint (child frame; constant)
  std::vector<MotionSubspace> U;  // ABA: Ia S_W
  std::vector<JointMatrix> Dinv;  // ABA: (S_W^T U + armature)^-1
  std::vector<JointVector> u;     // ABA: tau_i - S_W^T pa
  std::vector<SE3> X_PB;          // body pose in its parent
  MatX scratch;                   // nv x nv

  // Mass-matrix factorisation M = L^T D L with the tree's sparsity (FactorizeMassMatrix):
  // strictly lower part holds L, diagonal holds D. dof_parent[k] is the DOF preceding DOF k on
  // its path to the root (Featherstone's lambda over DOFs), -1 at a root.
  MatX M_ltdl;
  std::vector<int> dof_parent;
  // AbaDerivatives: right-hand sides [1, -dtau_dq, -dtau_dv] (nv x 3 nv), row-major so that the
  // row operations of the tree-sparse solve are contiguous.
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rhs_rows;

  // World-oriented quantities (Crba, Aba, RneaDerivatives; the last after Carpentier & Mansard
  // 2018) expressed about each kinematic tree's reference point, the world position of the
  // tree's root body (tree_origin), not the world origin: composite inertias hold m |c|^2
  // terms about their reference point, which cancel to lose precision with the distance
  // from it (spatial_ops.h, TreeFramePose).
  std::vector<Vec3> tree_origin;    // per body: its tree root's world position
  MatX J;                           // 6 x nv: tree-frame motion subspace S_W of every joint
  MatX YS, BtS;                     // 6 x nv: Ycrb_i S_i and Bcrb_i^T S_i per joint
  std::vector<Motion> v_W, a_W;     // world spatial velocity and acceleration (with gravity)
  std::vector<Mat6> Ycrb, Bcrb;     // composite inertia (also Crba) and Coriolis-like matrices
  std::vector<Force> F_dyn, F_ext;  // composite inertial wrench and composite external wrench
  std::vector<char> in_subtree;     // per-body flag scratch
};

}  // namespace arena
