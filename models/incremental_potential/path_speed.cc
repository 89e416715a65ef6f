#include "models/incremental_potential/path_speed.h"

#include <algorithm>
#include <string>

#include "core/common/error.h"
#include "core/multibody/spatial_ops.h"

namespace arena {

namespace {

// One joint of the recursion A_k = A_p + |omega_k|, B_k = B_p + A_p s_k + |v_k| (path_speed.h):
// (A, B) of the parent in, of `body` out.
void AddJointSpeed(const BodyModel& body, const VecX& q, const VecX& d, double* A, double* B) {
  const Motion xi = internal::JointMotion(body.joint, d.data() + body.idx_v);
  const double w = Angular(xi).norm(), v = Linear(xi).norm();
  const double s = internal::ParentToChild(body, q).translation().norm() + v;
  *B += *A * s + v;
  *A += w;
}

VecX VertexBounds(const ColliderMesh& mesh, double A, double B) {
  return A * mesh.vertices.rowwise().norm() + VecX::Constant(mesh.vertices.rows(), B);
}

}  // namespace

void PathSpeedBounds(const MultibodyModel& model, const std::vector<ColliderMesh>& meshes, const VecX& q,
                     const VecX& d, std::vector<VecX>* out) {
  const int nb = model.num_bodies();
  std::vector<double> A(nb, 0.0), B(nb, 0.0);
  for (int k = 0; k < nb; ++k) {  // parents come first
    const BodyModel& body = model.body(k);
    A[k] = body.parent == kWorldBody ? 0.0 : A[body.parent];
    B[k] = body.parent == kWorldBody ? 0.0 : B[body.parent];
    AddJointSpeed(body, q, d, &A[k], &B[k]);
  }
  out->resize(meshes.size());
  for (size_t m = 0; m < meshes.size(); ++m) {
    const ColliderMesh& mesh = meshes[m];
    VecX& bound = (*out)[m];
    if (mesh.body == kWorldBody) {
      bound.setZero(mesh.vertices.rows());
      continue;
    }
    bound = VertexBounds(mesh, A[mesh.body], B[mesh.body]);
  }
}

void RelativePathSpeedBound(const MultibodyModel& model, const ColliderMesh& mesh, int frame, const VecX& q,
                            const VecX& d, VecX* out) {
  if (mesh.body == kWorldBody) {
    out->setZero(mesh.vertices.rows());
    return;
  }
  // The bodies from just below `frame` down to the mesh's body.
  std::vector<int> path;
  for (int k = mesh.body; k != frame; k = model.body(k).parent) {
    if (k == kWorldBody) {
      throw InvalidArgument("RelativePathSpeedBound: body " + std::to_string(frame) + " is not on the path of body " +
                            std::to_string(mesh.body));
    }
    path.push_back(k);
  }
  std::reverse(path.begin(), path.end());
  double A = 0.0, B = 0.0;
  for (int k : path) AddJointSpeed(model.body(k), q, d, &A, &B);
  *out = VertexBounds(mesh, A, B);
}

}  // namespace arena
