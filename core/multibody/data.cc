#include "core/multibody/data.h"

#include "core/multibody/spatial_ops.h"

namespace arena {

MultibodyData::MultibodyData(const MultibodyModel& model) {
  const int n = model.num_bodies();
  const int nv = model.nv();
  X_WB.assign(n, SE3());
  V_B.assign(n, Motion::Zero());
  A_B.assign(n, Motion::Zero());

  M = MatX::Zero(nv, nv);
  tau = VecX::Zero(nv);
  ddq = VecX::Zero(nv);
  dtau_dq = MatX::Zero(nv, nv);
  dtau_dv = MatX::Zero(nv, nv);
  dddq_dq = MatX::Zero(nv, nv);
  dddq_dv = MatX::Zero(nv, nv);
  dddq_dtau = MatX::Zero(nv, nv);

  f.assign(n, Force::Zero());
  Ia.assign(n, Mat6::Zero());
  pa.assign(n, Force::Zero());
  c.assign(n, Motion::Zero());
  S.resize(n);
  U.resize(n);
  Dinv.resize(n);
  u.resize(n);
  for (int i = 0; i < n; ++i) {
    const int nvi = model.body(i).joint.nv();
    S[i] = internal::JointSubspace(model.body(i).joint);
    U[i] = MotionSubspace::Zero(6, nvi);
    Dinv[i] = JointMatrix::Zero(nvi, nvi);
    u[i] = JointVector::Zero(nvi);
  }
  X_PB.assign(n, SE3());
  scratch = MatX::Zero(nv, nv);

  M_ltdl = MatX::Zero(nv, nv);
  rhs_rows.setZero(nv, 3 * nv);
  dof_parent.assign(nv, -1);
  for (int i = 0; i < n; ++i) {
    const BodyModel& body = model.body(i);
    const int nvi = body.joint.nv();
    if (nvi == 0) continue;
    // Last DOF of the nearest ancestor that has DOFs.
    int prev = -1;
    for (int a = body.parent; a != kWorldBody; a = model.body(a).parent) {
      if (model.body(a).joint.nv() > 0) {
        prev = model.body(a).idx_v + model.body(a).joint.nv() - 1;
        break;
      }
    }
    for (int k = 0; k < nvi; ++k) {
      dof_parent[body.idx_v + k] = prev;
      prev = body.idx_v + k;
    }
  }

  tree_origin.assign(n, Vec3::Zero());
  J = MatX::Zero(6, nv);
  YS = MatX::Zero(6, nv);
  BtS = MatX::Zero(6, nv);
  v_W.assign(n, Motion::Zero());
  a_W.assign(n, Motion::Zero());
  Ycrb.assign(n, Mat6::Zero());
  Bcrb.assign(n, Mat6::Zero());
  F_dyn.assign(n, Force::Zero());
  F_ext.assign(n, Force::Zero());
  in_subtree.assign(n, 0);
}

}  // namespace arena
