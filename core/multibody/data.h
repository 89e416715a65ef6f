// Mutable results and scratch of the multibody algorithms (Pinocchio's Data, MuJoCo's mjData).
// One MultibodyData per thread; the MultibodyModel is shared and const.
#pragma once

#include <vector>

#include "core/multibody/model.h"

namespace arena {

struct MultibodyData {
  explicit MultibodyData(const MultibodyModel& model);

  // Forward kinematics (ForwardKinematics).
  std::vector<SE3> X_WB;       // pose of each body in the world
  std::vector<Motion> V_B;     // body twist, expressed in the body frame: [omega_B; v_BO]
  std::vector<Motion> A_B;     // body spatial acceleration (classical derivative of V_B), body frame

  // Dynamics outputs.
  MatX M;                      // joint-space mass matrix (Crba), full symmetric, with armature
  VecX tau;                    // Rnea output
  VecX ddq;                    // Aba output
  MatX dtau_dq, dtau_dv;       // RneaDerivatives
  MatX dddq_dq, dddq_dv, dddq_dtau;  // AbaDerivatives

  // Algorithm scratch (sized once here; algorithms do not allocate).
  std::vector<Force> f;               // per-body force scratch
  std::vector<Mat6> Ia;               // articulated inertias
  std::vector<Force> pa;              // articulated bias forces
  std::vector<Motion> c;              // velocity-product accelerations
  std::vector<Eigen::Matrix<double, 6, Eigen::Dynamic>> S;   // motion subspace per joint (body frame)
  std::vector<Eigen::Matrix<double, 6, Eigen::Dynamic>> U;   // ABA: Ia S
  std::vector<MatX> Dinv;                                    // ABA: (S^T U + armature)^-1
  std::vector<VecX> u;                                       // ABA: tau_i - S^T pa
  std::vector<SE3> X_PB;              // body pose in its parent
  MatX scratch;
};

}  // namespace arena
