// Recursive Newton-Euler algorithm (Featherstone 2008, Table 5.1), in body frames.
#include "core/multibody/dynamics.h"
#include "core/multibody/spatial_ops.h"

namespace arena {
namespace {

using internal::CheckExternalForces;
using internal::CheckSize;
using internal::JointForce;
using internal::JointMotion;
using internal::SetParentToChild;

// a == nullptr means a = 0.
void RneaImpl(const MultibodyModel& model, MultibodyData& data, const VecX& q, const VecX& v,
              const VecX* a, const std::vector<Force>* f_ext) {
  CheckSize(q, model.nq(), "Rnea: q");
  CheckSize(v, model.nv(), "Rnea: v");
  if (a != nullptr) CheckSize(*a, model.nv(), "Rnea: a");
  CheckExternalForces(model, f_ext);
  const int n = model.num_bodies();
  const Vec3& g = model.gravity();
  for (int i = 0; i < n; ++i) {
    const BodyModel& body = model.body(i);
    SE3& X_PB = data.X_PB[i];
    SetParentToChild(body, q, X_PB);
    const Motion vJ = JointMotion(body.joint, v.data() + body.idx_v);
    const Motion aJ =
        a != nullptr ? JointMotion(body.joint, a->data() + body.idx_v) : Motion::Zero();
    if (body.parent == kWorldBody) {
      data.X_WB[i] = X_PB;
      data.V_B[i] = vJ;
      data.A_B[i] = aJ;
    } else {
      data.X_WB[i].SetProduct(data.X_WB[body.parent], X_PB);
      data.V_B[i] = X_PB.ActInvMotion(data.V_B[body.parent]) + vJ;
      data.A_B[i] = X_PB.ActInvMotion(data.A_B[body.parent]) + aJ + CrossMotion(data.V_B[i], vJ);
    }
    // Gravity as a fictitious acceleration -[0; g] of the world (Featherstone Sec. 5.3),
    // expressed in the body frame.
    Motion a_gf = data.A_B[i];
    a_gf.tail<3>().noalias() -= data.X_WB[i].rotation().transpose() * g;
    const SpatialInertia& I = body.inertia;
    data.f[i] = I * a_gf + CrossForce(data.V_B[i], I * data.V_B[i]);
    if (f_ext != nullptr) data.f[i] -= data.X_WB[i].ActInvForce((*f_ext)[i]);
  }
  for (int i = n - 1; i >= 0; --i) {
    const BodyModel& body = model.body(i);
    JointForce(body.joint, data.f[i], data.tau.data() + body.idx_v);
    if (data.S[i].cols() == 1 && a != nullptr) {
      data.tau[body.idx_v] += body.joint.armature * (*a)[body.idx_v];
    }
    if (body.parent != kWorldBody) data.f[body.parent] += data.X_PB[i].ActForce(data.f[i]);
  }
}

}  // namespace

const VecX& Rnea(const MultibodyModel& model, MultibodyData& data, const VecX& q, const VecX& v,
                 const VecX& a, const std::vector<Force>* f_ext) {
  RneaImpl(model, data, q, v, &a, f_ext);
  return data.tau;
}

VecX NonlinearEffects(const MultibodyModel& model, MultibodyData& data, const VecX& q,
                      const VecX& v) {
  RneaImpl(model, data, q, v, nullptr, nullptr);
  return data.tau;
}

void RneaMassDerivatives(const MultibodyModel& model, MultibodyData& data, const VecX& q, const VecX& v,
                         const VecX& a, MatX* dtau_dm) {
  RneaImpl(model, data, q, v, &a, nullptr);  // the kinematics: X_PB, X_WB, V_B, A_B
  const int n = model.num_bodies();
  const Vec3& g = model.gravity();
  dtau_dm->setZero(model.nv(), n);
  for (int b = 0; b < n; ++b) {
    const SpatialInertia dI(1.0, model.body(b).inertia.com(), Mat3::Zero());
    Motion a_gf = data.A_B[b];
    a_gf.tail<3>().noalias() -= data.X_WB[b].rotation().transpose() * g;
    Force f = dI * a_gf + CrossForce(data.V_B[b], dI * data.V_B[b]);
    // Its wrench reaches every joint on the path to the root (the backward pass of RneaImpl).
    for (int i = b; i != kWorldBody; i = model.body(i).parent) {
      JointForce(model.body(i).joint, f, dtau_dm->col(b).data() + model.body(i).idx_v);
      f = data.X_PB[i].ActForce(f);
    }
  }
}

}  // namespace arena
