#include "models/ip/path_speed.h"

#include <algorithm>
#include <string>

#include "core/common/error.h"
#include "core/multibody/spatial_ops.h"

namespace arena {

void PathSpeedBounds(const MultibodyModel& model, const std::vector<ColliderMesh>& meshes, const VecX& q,
                     const VecX& d, std::vector<VecX>* out) {
  const int nb = model.num_bodies();
  std::vector<double> A(nb, 0.0), B(nb, 0.0);
  for (int k = 0; k < nb; ++k) {  // parents come first
    const BodyModel& body = model.body(k);
    const Motion xi = internal::JointMotion(body.joint, d.data() + body.idx_v);
    const double w = Angular(xi).norm(), v = Linear(xi).norm();
    const double s = internal::ParentToChild(body, q).translation().norm() + v;
    const double Ap = body.parent == kWorldBody ? 0.0 : A[body.parent];
    const double Bp = body.parent == kWorldBody ? 0.0 : B[body.parent];
    A[k] = Ap + w;
    B[k] = Bp + Ap * s + v;
  }
  out->resize(meshes.size());
  for (size_t m = 0; m < meshes.size(); ++m) {
    const ColliderMesh& mesh = meshes[m];
    VecX& bound = (*out)[m];
    if (mesh.body == kWorldBody) {
      bound.setZero(mesh.vertices.rows());
      continue;
    }
    bound = A[mesh.body] * mesh.vertices.rowwise().norm() + VecX::Constant(mesh.vertices.rows(), B[mesh.body]);
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
  for (int k : path) {
    const BodyModel& body = model.body(k);
    const Motion xi = internal::JointMotion(body.joint, d.data() + body.idx_v);
    const double w = Angular(xi).norm(), v = Linear(xi).norm();
    const double s = internal::ParentToChild(body, q).translation().norm() + v;
    B = B + A * s + v;
    A = A + w;
  }
  *out = A * mesh.vertices.rowwise().norm() + VecX::Constant(mesh.vertices.rows(), B);
}

}  // namespace arena
