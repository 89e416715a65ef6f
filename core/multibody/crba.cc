// Composite rigid body algorithm and the sparse L^T D L factorisation of the mass matrix
// (Featherstone 2008, Table 6.2 and Table 6.3).
//
// The CRBA runs in one frame per kinematic tree (as Pinocchio's runs in the world frame): with
// every inertia and motion subspace expressed in it, a composite inertia is a plain sum and
// H_ji = S_j^T Ic_i S_i needs no transform along the path from i to j. The frame is
// world-oriented about the tree root's position rather than the world origin, so M keeps its
// precision far from the origin (internal::TreeFramePose).
#include "core/multibody/dynamics.h"
#include "core/multibody/spatial_ops.h"

namespace arena {

using internal::CheckSize;
using internal::Col6;
using internal::InertiaMatrixIn;
using internal::SetTreeFrameSubspace;
using internal::TreeFramePose;

void Crba(const MultibodyModel& model, MultibodyData& data, const VecX& q) {
  CheckSize(q, model.nq(), "Crba: q");
  const int n = model.num_bodies();
  for (int i = 0; i < n; ++i) {
    const BodyModel& body = model.body(i);
    const SE3 X = TreeFramePose(model, data, q, i);
    SetTreeFrameSubspace(body, data, X, i);
    InertiaMatrixIn(X, body.inertia, data.Ycrb[i]);
  }
  MatX& H = data.M;
  H.setZero();
  // Children have larger indices than their parents, so when the backward sweep reaches i
  // every child has already added its composite inertia to Ycrb[i].
  for (int i = n - 1; i >= 0; --i) {
    const BodyModel& body = model.body(i);
    const int nvi = static_cast<int>(data.S[i].cols());
    const int iv = body.idx_v;
    if (nvi > 0) {
      for (int k = 0; k < nvi; ++k) {
        // F = Ic_i S_i; H_ji = S_j^T F for j = i and each ancestor of i.
        const Force F = data.Ycrb[i] * Col6(data.J, iv + k);
        // Diagonal block: the lower triangle, mirrored so that M is exactly symmetric.
        for (int r = k; r < nvi; ++r)
          H(iv + r, iv + k) = H(iv + k, iv + r) = Col6(data.J, iv + r).dot(F);
        // The ancestors' DOFs, by the DOF-level parent chain (no walk over bodies).
        for (int j = data.dof_parent[iv]; j != -1; j = data.dof_parent[j]) {
          H(j, iv + k) = H(iv + k, j) = Col6(data.J, j).dot(F);
        }
      }
      if (nvi == 1) H(iv, iv) += body.joint.armature;
    }
    if (body.parent != kWorldBody) data.Ycrb[body.parent] += data.Ycrb[i];
  }
}

void FactorizeMassMatrix(const MultibodyModel& model, MultibodyData& data) {
  const int nv = model.nv();
  MatX& H = data.M_ltdl;
  H = data.M;
  const std::vector<int>& lambda = data.dof_parent;
  // Table 6.3: only entries (k, i) with i an ancestor DOF of k are touched.
  for (int k = nv - 1; k >= 0; --k) {
    for (int i = lambda[k]; i != -1; i = lambda[i]) {
      const double a = H(k, i) / H(k, k);
      for (int j = i; j != -1; j = lambda[j]) H(i, j) -= a * H(k, j);
      H(k, i) = a;
    }
  }
}

void SolveMassMatrix(const MultibodyModel& model, const MultibodyData& data, Eigen::Ref<MatX> B) {
  const int nv = model.nv();
  const MatX& H = data.M_ltdl;
  const std::vector<int>& lambda = data.dof_parent;
  // M = L^T D L: solve L^T y = b (leaves to root), D z = y, L x = z (root to leaves); one
  // column at a time, since the columns of B are contiguous.
  for (int c = 0; c < B.cols(); ++c) {
    double* b = B.col(c).data();
    for (int k = nv - 1; k >= 0; --k) {
      for (int i = lambda[k]; i != -1; i = lambda[i]) b[i] -= H(k, i) * b[k];
    }
    for (int k = 0; k < nv; ++k) b[k] /= H(k, k);
    for (int k = 0; k < nv; ++k) {
      for (int i = lambda[k]; i != -1; i = lambda[i]) b[k] -= H(k, i) * b[i];
    }
  }
}

namespace internal {

void SolveMassMatrixRows(
    const MultibodyData& data,
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>& B) {
  const int nv = static_cast<int>(B.rows());
  const MatX& H = data.M_ltdl;
  const std::vector<int>& lambda = data.dof_parent;
  // The same three sweeps as SolveMassMatrix, as operations on contiguous rows.
  for (int k = nv - 1; k >= 0; --k) {
    for (int i = lambda[k]; i != -1; i = lambda[i]) B.row(i) -= H(k, i) * B.row(k);
  }
  for (int k = 0; k < nv; ++k) B.row(k) /= H(k, k);
  for (int k = 0; k < nv; ++k) {
    for (int i = lambda[k]; i != -1; i = lambda[i]) B.row(k) -= H(k, i) * B.row(i);
  }
}

}  // namespace internal

}  // namespace arena
