// The design derivatives of the step energy's gradient, d(grad E)/dp at the minimiser q+, for p
// the body-frame positions of chosen mesh vertices (seed 003 Sec. V: a robot's shape as its hull
// vertices). With g = grad E(q+; p), the implicit function theorem gives dq+/dp = -H^-1 dg/dp.
// Every term of E reaches the tangent coordinates through dE/dT_k = A_k per body
// (models/incremental_potential/pose_derivatives.h), and A_k is linear in what p changes, so each design column is a
// set of dA_k carried by PoseGradient and the tangent chain:
//   - a contact term's gradient g_w at vertex w: A_k += g_w [p_w; 1]^T, so dA_k/dp_wj = g_w [e_j; 0]^T;
//   - the other points' gradients through the exact Hessian: dg_v/dp_wj = H_vw R_k(w) e_j at the end
//     configuration, plus M_vw R_k(w)(q^t) e_j for the lagged terms that read the start
//     (ContactPotential::StartDerivatives);
//   - the lumped inertia and gravity, A_k = D W / dt^2 - g m^T with W = [S P; P^T M], P and S
//     sums of m_v v and m_v v v^T over the body's vertices.
#include <vector>

#include "models/incremental_potential/step_energy.h"

namespace arena {
namespace step_energy_design {

// The design column of each (mesh, vertex), or -1.
class DesignColumns {
 public:
  DesignColumns(const std::vector<ColliderMesh>& meshes, const std::vector<StepEnergy::DesignVertex>& design)
      : first_(meshes.size()) {
    for (size_t i = 0; i < design.size(); ++i) {
      std::vector<int>& c = first_.at(design[i].mesh);
      if (c.empty()) c.assign(meshes[design[i].mesh].vertices.rows(), -1);
      c.at(design[i].vertex) = 3 * static_cast<int>(i);
    }
  }
  int Of(const MeshPoint& p) const {
    if (p.vertex < 0 || first_[p.mesh].empty()) return -1;
    return first_[p.mesh][p.vertex];
  }

 private:
  std::vector<std::vector<int>> first_;
};

// Carries dA_k for body k (at the configuration of `chain`) into column c of dg_dp.
class ColumnWriter {
 public:
  ColumnWriter(const TangentChain& chain, MatX* dg_dp) : chain_(chain), out_(dg_dp) {}
  void Add(int k, const Mat34& dA, int c) const {
    const Vec6 g = PoseGradient(chain_.pose(k), dA);
    for (int i : chain_.path(k)) (*out_)(i, c) += chain_.dof_twist(i).dot(g);
  }

 private:
  const TangentChain& chain_;
  MatX* out_;
};

// The contact terms at the end configuration: gradients of design vertices, and Hessian blocks
// whose second point is a design vertex.
class DesignSink final : public ContactDerivativeSink {
 public:
  DesignSink(const ContactConfiguration& end, const std::vector<bool>& moves, const DesignColumns& columns,
             const ColumnWriter& writer)
      : end_(end), moves_(moves), columns_(columns), writer_(writer) {}
  void AddGradient(const MeshPoint& p, const Vec3& g) override {
    const int k = MovingBody(p), c = columns_.Of(p);
    if (k < 0 || c < 0) return;
    for (int j = 0; j < 3; ++j) {
      Mat34 dA = Mat34::Zero();
      dA.col(j) = g;
      writer_.Add(k, dA, c + j);
    }
  }
  void AddHessian(const MeshPoint& p, const MeshPoint& q, const Mat3& block) override {
    AddThrough(p, q, block, end_.pose[q.mesh].rotation());
  }
  // p's gradient moves with q's body-frame position, seen through q's rotation R.
  void AddThrough(const MeshPoint& p, const MeshPoint& q, const Mat3& block, const Mat3& R) const {
    const int k = MovingBody(p), c = columns_.Of(q);
    if (k < 0 || c < 0 || MovingBody(q) < 0) return;
    Eigen::Vector4d v;
    v << p.local, 1.0;
    const Mat3 du = block * R;
    for (int j = 0; j < 3; ++j) writer_.Add(k, du.col(j) * v.transpose(), c + j);
  }

 private:
  int MovingBody(const MeshPoint& p) const {
    const int k = (*end_.meshes)[p.mesh].body;
    return k != kWorldBody && moves_[k] ? k : -1;
  }
  const ContactConfiguration& end_;
  const std::vector<bool>& moves_;
  const DesignColumns& columns_;
  const ColumnWriter& writer_;
};

// The lagged terms' mixed blocks d2E/dx+_p dx^t_q: q at the start configuration.
class DesignStartSink final : public ContactStartSink {
 public:
  DesignStartSink(const DesignSink& end, const ContactConfiguration& start) : end_(end), start_(start) {}
  void AddMixed(const MeshPoint& p, const MeshPoint& q, const Mat3& block) override {
    end_.AddThrough(p, q, block, start_.pose[q.mesh].rotation());
  }

 private:
  const DesignSink& end_;
  const ContactConfiguration& start_;
};

}  // namespace step_energy_design

void StepEnergy::DesignJacobian(const VecX& q, const std::vector<DesignVertex>& design, MatX* dg_dp) {
  using namespace step_energy_design;
  const int nv = scene_->model.nv();
  dg_dp->setZero(nv, 3 * static_cast<int>(design.size()));
  WorldVertices(q, &vertices_);  // also chain_ at q
  const ColumnWriter writer(chain_, dg_dp);
  if (contact_ != nullptr) {
    const DesignColumns columns(meshes_, design);
    DesignSink sink(vertices_, moves_, columns, writer);
    contact_->Evaluate(vertices_, &sink, true, false);  // the exact Hessian, point by point
    DesignStartSink start(sink, start_vertices_);
    contact_->StartDerivatives(vertices_, &start);
  }
  // Lumped inertia and gravity: dW = [dS dP; dP^T 0], dm = [dP; 0] with dP = m_v e_j and
  // dS = m_v (e_j v^T + v e_j^T).
  const double dt2 = options_.timestep * options_.timestep;
  const Vec3 gravity = scene_->model.gravity();
  for (size_t i = 0; i < design.size(); ++i) {
    const int k = meshes_[design[i].mesh].body;
    if (k == kWorldBody || !moves_[k] || moments_[k].vertex_mass == 0.0) continue;
    const double mv = moments_[k].vertex_mass;
    const Vec3 v = meshes_[design[i].mesh].vertices.row(design[i].vertex).transpose();
    const Mat34 D = TopRows(chain_.pose(k)) - target_[k];
    for (int j = 0; j < 3; ++j) {
      const Vec3 e = Vec3::Unit(j);
      Eigen::Matrix4d dW = Eigen::Matrix4d::Zero();
      dW.topLeftCorner<3, 3>() = mv * (e * v.transpose() + v * e.transpose());
      dW.topRightCorner<3, 1>() = mv * e;
      dW.bottomLeftCorner<1, 3>() = mv * e.transpose();
      Eigen::Vector4d dm = Eigen::Vector4d::Zero();
      dm.head<3>() = mv * e;
      writer.Add(k, D * dW / dt2 - gravity * dm.transpose(), 3 * static_cast<int>(i) + j);
    }
  }
}

}  // namespace arena
