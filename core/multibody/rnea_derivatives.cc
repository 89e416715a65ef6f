// Analytical derivatives of the recursive Newton-Euler algorithm in tangent coordinates.
//
// Everything is computed in one world-oriented frame per kinematic tree, about the tree root's
// position (internal::TreeFramePose: about the world origin, precision falls with the distance
// from it), in the spirit of Carpentier & Mansard, "Analytical derivatives of rigid body
// dynamics algorithms" (RSS 2018), with a short derivation of our own for the column of DOF k
// of joint j (world frame below means the tree's frame):
//
// Perturbing q by integrate(q, eps e_k) moves the subtree of j rigidly by the world twist
// delta = S_k (column k of j's world motion subspace). With lambda the parent of j, every body
// i of the subtree sees v_i' = v_lambda + Ad(v_i - v_lambda), and its inertial wrench
// f_i = Y_i a_i + v_i x* Y_i v_i (Featherstone eq. 5.9, world frame) changes by
//   d f_i = delta x* f_i - Y_i e + B_i w,    w = delta x v_lambda,  e = delta x a_lambda + v_lambda
//   x w, B_i = Y_i crm(v_i) - crf(v_i) Y_i - H(Y_i v_i),  with m x* h == H(h) m.
// tau_l = S_l . F_l (F_l the composite wrench of l's subtree). For l in the subtree of j, S_l
// also moves (d S_l = delta x S_l) and the delta x* terms cancel by duality except for the
// world-fixed external wrenches; for the ancestors of j only F changes. Perturbing v by
// dv = e_k gives, for i in the subtree of j, d f_i = -B_i s + Y_i ((v_lambda + v_j) x s), s = S_k.
// Sums over subtrees become composites Ycrb, Bcrb: O(n) 6x6 work plus O(nv (n + depth)) dots.
#include "core/multibody/dynamics.h"
#include "core/multibody/spatial_ops.h"

namespace arena {

using internal::CheckExternalForces;
using internal::CheckSize;
using internal::Col6;
using internal::InertiaMatrixIn;
using internal::RigidInertiaTimes;
using internal::ShiftForceTo;
using internal::SetTreeFrameSubspace;
using internal::TreeFrameJointMotion;
using internal::TreeFramePose;

namespace {

// B = Y crm(v) + crm(v)^T Y - H(h) for h = Y v (crf(v) = -crm(v)^T, Y = Y^T), written into out.
// With crm(v) = [[w], 0; [u], [w]] for v = [w; u], row r of Y crm(v) is
// [y_t x w + y_b x u, y_b x w] for row r of Y = [y_t, y_b], since a row vector times [s] is
// (row x s): 108 multiplications instead of the 216 of a 6x6 product, and -H(h) =
// [[n], [f]; [f], 0] for h = [n; f] is added entry by entry.
void SetCoriolisMatrix(const Mat6& Y, const Motion& v, const Force& h, Mat6& out) {
  using se3_kernels::Cross;
  using se3_kernels::CrossAdd;
  Mat6 YC;  // Y crm(v), row-major
  for (int r = 0; r < 6; ++r) {
    const double* y = Y.data() + 6 * r;  // row r of the symmetric Y is its column r
    double row[6];
    Cross(y, v.data(), row);
    CrossAdd(y + 3, v.data() + 3, row);
    Cross(y + 3, v.data(), row + 3);
    for (int c = 0; c < 6; ++c) YC(c, r) = row[c];
  }
  // YC holds the transpose of Y crm(v), so out = YC^T + YC.
  out = YC + YC.transpose();
  const double n0 = h[0], n1 = h[1], n2 = h[2], f0 = h[3], f1 = h[4], f2 = h[5];
  const double skew_n[3][3] = {{0.0, -n2, n1}, {n2, 0.0, -n0}, {-n1, n0, 0.0}};
  const double skew_f[3][3] = {{0.0, -f2, f1}, {f2, 0.0, -f0}, {-f1, f0, 0.0}};
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      out(r, c) += skew_n[r][c];
      out(r, 3 + c) += skew_f[r][c];
      out(3 + r, c) += skew_f[r][c];
    }
  }
}

}  // namespace

void RneaDerivatives(const MultibodyModel& model, MultibodyData& data, const VecX& q, const VecX& v,
                     const VecX& a, const std::vector<Force>* f_ext) {
  CheckSize(q, model.nq(), "RneaDerivatives: q");
  CheckSize(v, model.nv(), "RneaDerivatives: v");
  CheckSize(a, model.nv(), "RneaDerivatives: a");
  CheckExternalForces(model, f_ext);
  const int n = model.num_bodies();
  const Motion a_world = MakeMotion(Vec3::Zero(), -model.gravity());

  // Forward pass: world-frame kinematics, inertias, wrenches and B_i.
  for (int i = 0; i < n; ++i) {
    const BodyModel& body = model.body(i);
    const int p = body.parent;
    const SE3 X = TreeFramePose(model, data, q, i);
    SetTreeFrameSubspace(body, data, X, i);
    const Motion vJ = TreeFrameJointMotion(body, data, X, v.data() + body.idx_v);
    const Motion aJ = TreeFrameJointMotion(body, data, X, a.data() + body.idx_v);
    const Motion v_parent = p == kWorldBody ? Motion::Zero() : data.v_W[p];
    const Motion& a_parent = p == kWorldBody ? a_world : data.a_W[p];
    data.v_W[i] = v_parent + vJ;
    data.a_W[i] = a_parent + aJ + CrossMotion(data.v_W[i], vJ);
    data.V_B[i] = X.ActInvMotion(data.v_W[i]);
    data.A_B[i] = X.ActInvMotion(data.a_W[i] - a_world);

    InertiaMatrixIn(X, body.inertia, data.Ycrb[i]);
    const Mat6& Y = data.Ycrb[i];
    const Force h = RigidInertiaTimes(Y, data.v_W[i]);
    data.F_dyn[i] = RigidInertiaTimes(Y, data.a_W[i]) + CrossForce(data.v_W[i], h);
    data.F_ext[i] = f_ext != nullptr ? ShiftForceTo((*f_ext)[i], data.tree_origin[i]) : Force::Zero();
    SetCoriolisMatrix(Y, data.v_W[i], h, data.Bcrb[i]);
  }

  // Backward pass: composites, tau, and the mass matrix M_li = S_l^T Ycrb_i S_i.
  data.M.setZero();
  for (int i = n - 1; i >= 0; --i) {
    const BodyModel& body = model.body(i);
    const int nvi = static_cast<int>(data.S[i].cols());
    const int iv = body.idx_v;
    if (nvi > 0) {
      for (int k = 0; k < nvi; ++k) {
        Col6(data.YS, iv + k).noalias() = data.Ycrb[i] * Col6(data.J, iv + k);
        Col6(data.BtS, iv + k).noalias() = data.Bcrb[i].transpose() * Col6(data.J, iv + k);
      }
      const Force F = data.F_dyn[i] - data.F_ext[i];
      for (int k = 0; k < nvi; ++k) {
        data.tau[iv + k] = Col6(data.J, iv + k).dot(F);
        // Own block: the lower triangle, mirrored so that M is exactly symmetric.
        for (int r = k; r < nvi; ++r) {
          const double m = Col6(data.J, iv + r).dot(Col6(data.YS, iv + k));
          data.M(iv + r, iv + k) = m;
          data.M(iv + k, iv + r) = m;
        }
        // The ancestors' DOFs, by the DOF-level parent chain.
        for (int row = data.dof_parent[iv]; row != -1; row = data.dof_parent[row]) {
          const double m = Col6(data.J, row).dot(Col6(data.YS, iv + k));
          data.M(row, iv + k) = m;
          data.M(iv + k, row) = m;
        }
      }
      if (nvi == 1) {
        data.tau[iv] += body.joint.armature * a[iv];
        data.M(iv, iv) += body.joint.armature;
      }
    }
    const int p = body.parent;
    if (p != kWorldBody) {
      data.Ycrb[p] += data.Ycrb[i];
      data.Bcrb[p] += data.Bcrb[i];
      data.F_dyn[p] += data.F_dyn[i];
      data.F_ext[p] += data.F_ext[i];
    }
  }

  // One column per DOF k of joint j.
  data.dtau_dq.setZero();
  data.dtau_dv.setZero();
  for (int j = 0; j < n; ++j) {
    const BodyModel& bj = model.body(j);
    const int nvj = static_cast<int>(data.S[j].cols());
    if (nvj == 0) continue;
    const int lam = bj.parent;
    const Motion v_lam = lam == kWorldBody ? Motion::Zero() : data.v_W[lam];
    const Motion& a_lam = lam == kWorldBody ? a_world : data.a_W[lam];
    const Motion v_sum = v_lam + data.v_W[j];
    data.in_subtree[j] = 1;
    for (int l = j + 1; l < n; ++l) {
      const int p = model.body(l).parent;
      data.in_subtree[l] = p >= j && data.in_subtree[p];
    }
    for (int k = 0; k < nvj; ++k) {
      const int col = bj.idx_v + k;
      const Motion delta = Col6(data.J, col);
      const Motion w = CrossMotion(delta, v_lam);
      const Motion e = CrossMotion(delta, a_lam) + CrossMotion(v_lam, w);
      const Motion s_v = CrossMotion(v_sum, delta);
      // Joints in the subtree of j (j included).
      for (int l = j; l < n; ++l) {
        if (!data.in_subtree[l]) continue;
        const BodyModel& bl = model.body(l);
        const int nvl = static_cast<int>(data.S[l].cols());
        if (nvl == 0) continue;
        for (int r = 0; r < nvl; ++r) {
          const int row = bl.idx_v + r;
          data.dtau_dq(row, col) = Col6(data.BtS, row).dot(w) - Col6(data.YS, row).dot(e);
          data.dtau_dv(row, col) = Col6(data.YS, row).dot(s_v) - Col6(data.BtS, row).dot(delta);
        }
        if (f_ext != nullptr) {
          const Force dF_ext = CrossForce(delta, data.F_ext[l]);
          for (int r = 0; r < nvl; ++r) {
            const int row = bl.idx_v + r;
            data.dtau_dq(row, col) += Col6(data.J, row).dot(dF_ext);
          }
        }
      }
      // Ancestors of j: only their composite wrench changes.
      const Force dF_q = CrossForce(delta, data.F_dyn[j]) - data.Ycrb[j] * e + data.Bcrb[j] * w;
      const Force dF_v = data.Ycrb[j] * s_v - data.Bcrb[j] * delta;
      for (int row = data.dof_parent[bj.idx_v]; row != -1; row = data.dof_parent[row]) {
        data.dtau_dq(row, col) = Col6(data.J, row).dot(dF_q);
        data.dtau_dv(row, col) = Col6(data.J, row).dot(dF_v);
      }
    }
  }
}

}  // namespace arena
