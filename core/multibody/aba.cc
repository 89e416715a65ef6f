// Articulated body algorithm (Featherstone 2008, Table 7.1), with joint armature added to D_i
// and the external world wrenches subtracted from the bias forces.
//
// All quantities of a kinematic tree are expressed in one frame (as Pinocchio's ABA does in the
// world frame): the algorithm is frame-covariant, and in a single frame the transforms
// iX_lambda of Table 7.1 become identities, so articulated inertias and bias forces pass to the
// parent by plain addition. The frame is world-oriented about the tree root's position, not the
// world origin, so the accelerations keep their precision far from the origin
// (internal::TreeFramePose). data.Ia, data.pa, data.c, data.U and data.J are tree-frame here.
#include "core/multibody/dynamics.h"
#include "core/multibody/spatial_ops.h"

namespace arena {
namespace {

using internal::CheckExternalForces;
using internal::CheckSize;
using internal::Col6;
using internal::InertiaMatrixIn;
using internal::InTreeFrame;
using internal::RigidInertiaTimes;
using internal::ShiftForceTo;
using internal::SetTreeFrameSubspace;
using internal::TreeFrameJointMotion;
using internal::TreeFramePose;

// Inverse of a symmetric positive definite N x N matrix by Cholesky, D = L L^T and
// D^-1 = L^-T L^-1, in fixed-size loops: Eigen's LLT solve of a fixed 6x6 went through its
// dynamic-size triangular kernels (trsm, gebp), as much time as the rest of the free root's step.
template <int N>
Eigen::Matrix<double, N, N> SpdInverse(const Eigen::Matrix<double, N, N>& D) {
  using MatN = Eigen::Matrix<double, N, N>;
  MatN L = MatN::Zero();
  for (int j = 0; j < N; ++j) {
    double d = D(j, j);
    for (int k = 0; k < j; ++k) d -= L(j, k) * L(j, k);
    L(j, j) = std::sqrt(d);
    for (int i = j + 1; i < N; ++i) {
      double s = D(i, j);
      for (int k = 0; k < j; ++k) s -= L(i, k) * L(j, k);
      L(i, j) = s / L(j, j);
    }
  }
  MatN W = MatN::Zero();  // L^-1, lower triangular: forward substitution on the identity
  for (int c = 0; c < N; ++c) {
    W(c, c) = 1.0 / L(c, c);
    for (int i = c + 1; i < N; ++i) {
      double s = 0.0;
      for (int k = c; k < i; ++k) s -= L(i, k) * W(k, c);
      W(i, c) = s / L(i, i);
    }
  }
  MatN out;  // W^T W; column c of W is zero above row c
  for (int r = 0; r < N; ++r) {
    for (int c = r; c < N; ++c) {
      double s = 0.0;
      for (int k = c; k < N; ++k) s += W(k, r) * W(k, c);
      out(r, c) = out(c, r) = s;
    }
  }
  return out;
}

// Pass 2 of Table 7.1 for a joint with NV DOFs (1, 3 or 6), on fixed-size types.
template <int NV>
void BackwardStep(const BodyModel& body, int i, MultibodyData& d, const VecX& tau) {
  using Mat6N = Eigen::Matrix<double, 6, NV>;
  using MatN = Eigen::Matrix<double, NV, NV>;
  using VecN = Eigen::Matrix<double, NV, 1>;
  const Mat6N S = d.J.template block<6, NV>(0, body.idx_v);
  const Mat6N U = d.Ia[i] * S;
  MatN D = S.transpose() * U;
  MatN Dinv;
  if constexpr (NV == 1) {
    D(0, 0) += body.joint.armature;
    Dinv(0, 0) = 1.0 / D(0, 0);
  } else if constexpr (NV == 3) {
    Dinv = D.inverse();
  } else {
    Dinv = SpdInverse<NV>(D);
  }
  const VecN u = tau.template segment<NV>(body.idx_v) - S.transpose() * d.pa[i];
  // Fixed-size block writes (the sizes were set by the MultibodyData constructor).
  d.U[i].template leftCols<NV>() = U;
  d.Dinv[i].template topLeftCorner<NV, NV>() = Dinv;
  d.u[i].template head<NV>() = u;
  if (body.parent == kWorldBody) return;
  const Mat6N UDinv = U * Dinv;
  d.Ia[i].noalias() -= UDinv * U.transpose();  // Ia = IA - U D^-1 U^T
  d.pa[body.parent] += d.pa[i] + d.Ia[i] * d.c[i] + UDinv * u;
  d.Ia[body.parent] += d.Ia[i];
}

// Pass 3 of Table 7.1: joint acceleration, and the body acceleration a' + S qdd.
template <int NV>
Motion ForwardStep(const BodyModel& body, int i, MultibodyData& d, const Motion& a_prime) {
  using VecN = Eigen::Matrix<double, NV, 1>;
  const VecN qdd =
      d.Dinv[i].template topLeftCorner<NV, NV>() *
      (d.u[i].template head<NV>() - d.U[i].template leftCols<NV>().transpose() * a_prime);
  d.ddq.template segment<NV>(body.idx_v) = qdd;
  return a_prime + d.J.template block<6, NV>(0, body.idx_v) * qdd;
}

}  // namespace

const VecX& Aba(const MultibodyModel& model, MultibodyData& data, const VecX& q, const VecX& v,
                const VecX& tau, const std::vector<Force>* f_ext) {
  CheckSize(q, model.nq(), "Aba: q");
  CheckSize(v, model.nv(), "Aba: v");
  CheckSize(tau, model.nv(), "Aba: tau");
  CheckExternalForces(model, f_ext);
  const int n = model.num_bodies();
  // Pass 1: kinematics, velocity products c_i, rigid-body inertias and bias forces.
  for (int i = 0; i < n; ++i) {
    const BodyModel& body = model.body(i);
    const int p = body.parent;
    const SE3 X = TreeFramePose(model, data, q, i);
    SetTreeFrameSubspace(body, data, X, i);
    const Motion vJ = TreeFrameJointMotion(body, data, X, v.data() + body.idx_v);
    data.v_W[i] = p == kWorldBody ? vJ : Motion(data.v_W[p] + vJ);
    // World-frame velocity product: d/dt (X_WB S) qd = v_i x (S_W qd).
    data.c[i] = CrossMotion(data.v_W[i], vJ);
    InertiaMatrixIn(X, body.inertia, data.Ia[i]);
    X.ActInvMotion(data.v_W[i].data(), data.V_B[i].data());  // an output, as in ForwardKinematics
    data.pa[i] = CrossForce(data.v_W[i], RigidInertiaTimes(data.Ia[i], data.v_W[i]));
    if (f_ext != nullptr) data.pa[i] -= ShiftForceTo((*f_ext)[i], data.tree_origin[i]);
  }
  // Pass 2: articulated inertias and bias forces, leaves to root.
  for (int i = n - 1; i >= 0; --i) {
    const BodyModel& body = model.body(i);
    switch (data.S[i].cols()) {
      case 0:
        // A fixed joint passes the whole articulated body to the parent (c_i = 0).
        if (body.parent != kWorldBody) {
          data.Ia[body.parent] += data.Ia[i];
          data.pa[body.parent] += data.pa[i];
        }
        break;
      case 1: BackwardStep<1>(body, i, data, tau); break;
      case 3: BackwardStep<3>(body, i, data, tau); break;
      case 6: BackwardStep<6>(body, i, data, tau); break;
    }
  }
  // Pass 3: accelerations, root to leaves, with gravity as the world's acceleration -[0; g].
  const Motion a_world = MakeMotion(Vec3::Zero(), -model.gravity());
  for (int i = 0; i < n; ++i) {
    const BodyModel& body = model.body(i);
    const Motion a_prime =
        (body.parent == kWorldBody ? a_world : data.a_W[body.parent]) + data.c[i];
    switch (data.S[i].cols()) {
      case 0: data.a_W[i] = a_prime; break;
      case 1: data.a_W[i] = ForwardStep<1>(body, i, data, a_prime); break;
      case 3: data.a_W[i] = ForwardStep<3>(body, i, data, a_prime); break;
      case 6: data.a_W[i] = ForwardStep<6>(body, i, data, a_prime); break;
    }
    // Body-frame acceleration (without gravity), as ForwardKinematics(q, v, ddq).
    const Motion a = data.a_W[i] - a_world;
    InTreeFrame(data, i).ActInvMotion(a.data(), data.A_B[i].data());
  }
  return data.ddq;
}

}  // namespace arena
