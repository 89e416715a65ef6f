#include "core/multibody/kinematics.h"

#include "core/multibody/spatial_ops.h"

namespace arena {

using internal::CheckSize;
using internal::JointMotion;
using internal::SetParentToChild;
using internal::SubspaceColumn;

void ForwardKinematics(const MultibodyModel& model, MultibodyData& data, const VecX& q) {
  CheckSize(q, model.nq(), "ForwardKinematics: q");
  for (int i = 0; i < model.num_bodies(); ++i) {
    const BodyModel& body = model.body(i);
    SetParentToChild(body, q, data.X_PB[i]);
    if (body.parent == kWorldBody) {
      data.X_WB[i] = data.X_PB[i];
    } else {
      data.X_WB[i].SetProduct(data.X_WB[body.parent], data.X_PB[i]);
    }
  }
}

void ForwardKinematics(const MultibodyModel& model, MultibodyData& data, const VecX& q,
                       const VecX& v) {
  CheckSize(q, model.nq(), "ForwardKinematics: q");
  CheckSize(v, model.nv(), "ForwardKinematics: v");
  for (int i = 0; i < model.num_bodies(); ++i) {
    const BodyModel& body = model.body(i);
    SetParentToChild(body, q, data.X_PB[i]);
    // Featherstone 2008, eq. 5.7 (Table 5.1): v_i = iX_lambda v_lambda + S_i qdot_i.
    const Motion vJ = JointMotion(body.joint, v.data() + body.idx_v);
    if (body.parent == kWorldBody) {
      data.X_WB[i] = data.X_PB[i];
      data.V_B[i] = vJ;
    } else {
      data.X_WB[i].SetProduct(data.X_WB[body.parent], data.X_PB[i]);
      data.V_B[i] = data.X_PB[i].ActInvMotion(data.V_B[body.parent]) + vJ;
    }
  }
}

void ForwardKinematics(const MultibodyModel& model, MultibodyData& data, const VecX& q,
                       const VecX& v, const VecX& a) {
  CheckSize(q, model.nq(), "ForwardKinematics: q");
  CheckSize(v, model.nv(), "ForwardKinematics: v");
  CheckSize(a, model.nv(), "ForwardKinematics: a");
  for (int i = 0; i < model.num_bodies(); ++i) {
    const BodyModel& body = model.body(i);
    SetParentToChild(body, q, data.X_PB[i]);
    const Motion vJ = JointMotion(body.joint, v.data() + body.idx_v);
    const Motion aJ = JointMotion(body.joint, a.data() + body.idx_v);
    if (body.parent == kWorldBody) {
      data.X_WB[i] = data.X_PB[i];
      data.V_B[i] = vJ;
      data.A_B[i] = aJ;  // the velocity product V x vJ vanishes: V == vJ
    } else {
      data.X_WB[i].SetProduct(data.X_WB[body.parent], data.X_PB[i]);
      data.V_B[i] = data.X_PB[i].ActInvMotion(data.V_B[body.parent]) + vJ;
      // Eq. 5.8 with a constant S in the child frame: a_i = iX a_lambda + S qdd + v_i x S qd.
      data.A_B[i] =
          data.X_PB[i].ActInvMotion(data.A_B[body.parent]) + aJ + CrossMotion(data.V_B[i], vJ);
    }
  }
}

void BodyJacobian(const MultibodyModel& model, const MultibodyData& data, int body,
                  ReferenceFrame frame, MatX* J) {
  J->setZero(6, model.nv());
  const SE3& X_WB = data.X_WB[body];
  for (int a = body; a != kWorldBody; a = model.body(a).parent) {
    const int nva = model.body(a).joint.nv();
    for (int k = 0; k < nva; ++k) {
      const Motion col_W = data.X_WB[a].ActMotion(SubspaceColumn(data.S[a], k));
      Motion col;
      switch (frame) {
        case ReferenceFrame::kWorld: col = col_W; break;
        case ReferenceFrame::kLocal: col = X_WB.ActInvMotion(col_W); break;
        case ReferenceFrame::kLocalWorldAligned:
          // Shift the reference point from the world origin to the body origin.
          col =
              MakeMotion(Angular(col_W), Linear(col_W) + Angular(col_W).cross(X_WB.translation()));
          break;
      }
      J->col(model.body(a).idx_v + k) = col;
    }
  }
}

void PointJacobian(const MultibodyModel& model, const MultibodyData& data, int body,
                   const Vec3& p_W, MatX* J) {
  J->setZero(3, model.nv());
  for (int a = body; a != kWorldBody; a = model.body(a).parent) {
    const int nva = model.body(a).joint.nv();
    for (int k = 0; k < nva; ++k) {
      const Motion col_W = data.X_WB[a].ActMotion(SubspaceColumn(data.S[a], k));
      J->col(model.body(a).idx_v + k) = Linear(col_W) + Angular(col_W).cross(p_W);
    }
  }
}

Vec3 PointVelocity(const MultibodyData& data, int body, const Vec3& p_W) {
  const SE3& X = data.X_WB[body];
  const Vec3 w_W = X.rotation() * Angular(data.V_B[body]);
  return X.rotation() * Linear(data.V_B[body]) + w_W.cross(p_W - X.translation());
}

Motion SpatialAccelerationBias(const MultibodyModel& model, const MultibodyData& data, int body) {
  // d/dt (X_WA S_A) = X_WA (V_A x S_A) for S_A constant in A, so dJ v = sum_A X_WA (V_A x S_A v_A)
  // over the path from the root to `body`.
  Motion bias = Motion::Zero();
  for (int a = body; a != kWorldBody; a = model.body(a).parent) {
    const int p = model.body(a).parent;
    const Motion vJ = p == kWorldBody
                          ? data.V_B[a]
                          : Motion(data.V_B[a] - data.X_PB[a].ActInvMotion(data.V_B[p]));
    bias += data.X_WB[a].ActMotion(CrossMotion(data.V_B[a], vJ));
  }
  return bias;
}

void WorldTwistDerivative(const MultibodyModel& model, const MultibodyData& data, int body, MatX* dV_dq) {
  dV_dq->setZero(6, model.nv());
  MatX J;
  BodyJacobian(model, data, body, ReferenceFrame::kWorld, &J);
  const Motion V = data.X_WB[body].ActMotion(data.V_B[body]);
  for (int a = body; a != kWorldBody; a = model.body(a).parent) {
    const int p = model.body(a).parent;
    const Motion V_carried = p == kWorldBody ? V : Motion(V - data.X_WB[p].ActMotion(data.V_B[p]));
    const BodyModel& b = model.body(a);
    for (int k = 0; k < b.joint.nv(); ++k) {
      const int col = b.idx_v + k;
      dV_dq->col(col) = CrossMotion(Motion(J.col(col)), V_carried);
    }
  }
}

}  // namespace arena
