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

// Velocity and acceleration of body i (Featherstone 2008, Table 5.1, eqs. 5.7-5.8 with S
// constant in the child frame): V_i = iX_p V_p + S qd, A_i = iX_p A_p + S qdd + V_i x S qd.
// Written in place into data.V_B[i], data.A_B[i]; a == nullptr means a = 0.
void BodyMotion(const BodyModel& body, int i, MultibodyData& data, const VecX& v, const VecX* a) {
  Motion& V = data.V_B[i];
  Motion& A = data.A_B[i];
  const int p = body.parent;
  if (p == kWorldBody) {
    V.setZero();
    A.setZero();
  } else {
    data.X_PB[i].ActInvMotion(data.V_B[p].data(), V.data());
    data.X_PB[i].ActInvMotion(data.A_B[p].data(), A.data());
  }
  if (body.joint.type == JointType::kRevolute) {
    // S qd = [w; 0] with w = axis qd: V x S qd = [omega x w; v x w], two cross products.
    const Vec3& axis = body.joint.axis;
    const double qd = v[body.idx_v], qdd = a != nullptr ? (*a)[body.idx_v] : 0.0;
    const double w[3] = {axis[0] * qd, axis[1] * qd, axis[2] * qd};
#pragma GCC unroll 3  // GCC at -O2 leaves these 3-loops rolled
    for (int k = 0; k < 3; ++k) {
      V[k] += w[k];
      A[k] += axis[k] * qdd;
    }
    se3_kernels::CrossAdd(V.data(), w, A.data());
    se3_kernels::CrossAdd(V.data() + 3, w, A.data() + 3);
    return;
  }
  const Motion vJ = JointMotion(body.joint, v.data() + body.idx_v);
  V += vJ;
  if (a != nullptr) A += JointMotion(body.joint, a->data() + body.idx_v);
  A += CrossMotion(V, vJ);
}

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
    SetParentToChild(body, q, data.X_PB[i]);
    if (body.parent == kWorldBody) {
      data.X_WB[i] = data.X_PB[i];
    } else {
      data.X_WB[i].SetProduct(data.X_WB[body.parent], data.X_PB[i]);
    }
    BodyMotion(body, i, data, v, a);
    // Gravity as a fictitious acceleration -[0; g] of the world (Featherstone Sec. 5.3),
    // expressed in the body frame.
    Motion a_gf = data.A_B[i];
    double g_B[3];
    se3_kernels::RotateInv(data.X_WB[i].rotation().data(), g.data(), g_B);
#pragma GCC unroll 3
    for (int k = 0; k < 3; ++k) a_gf[3 + k] -= g_B[k];
    const SpatialInertia& I = body.inertia;
    data.f[i] = I * a_gf;
    data.f[i] += CrossForce(data.V_B[i], I * data.V_B[i]);
    if (f_ext != nullptr) data.f[i] -= data.X_WB[i].ActInvForce((*f_ext)[i]);
  }
  for (int i = n - 1; i >= 0; --i) {
    const BodyModel& body = model.body(i);
    JointForce(body.joint, data.f[i], data.tau.data() + body.idx_v);
    if (data.S[i].cols() == 1 && a != nullptr) {
      data.tau[body.idx_v] += body.joint.armature * (*a)[body.idx_v];
    }
    if (body.parent != kWorldBody) {
      data.X_PB[i].AddActForce(data.f[i].data(), data.f[body.parent].data());
    }
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
