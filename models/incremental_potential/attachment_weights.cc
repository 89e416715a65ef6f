#include "models/incremental_potential/attachment_weights.h"

#include <map>

#include <Eigen/LU>

namespace arena {

std::vector<std::pair<int, double>> AttachmentWeights(const ColliderMesh& mesh, const Vec3& a) {
  const int n = static_cast<int>(mesh.vertices.rows());
  if (n == 0) return {};
  const Vec3 c = mesh.vertices.colwise().mean().transpose();
  constexpr double kSlack = 1e-12;
  for (Eigen::Index t = 0; t < mesh.triangles.rows(); ++t) {
    Mat3 E;
    for (int r = 0; r < 3; ++r) E.col(r) = mesh.vertices.row(mesh.triangles(t, r)).transpose() - c;
    const Eigen::FullPivLU<Mat3> lu(E);
    if (!lu.isInvertible()) continue;  // a triangle in a plane through c
    const Vec3 abc = lu.solve(a - c);
    if (abc.minCoeff() < -kSlack || abc.sum() > 1.0 + kSlack) continue;
    std::map<int, double> w;
    const double rest = (1.0 - abc.sum()) / n;
    if (rest > 0.0) {
      for (int i = 0; i < n; ++i) w[i] = rest;
    }
    for (int r = 0; r < 3; ++r) w[mesh.triangles(t, r)] += std::max(abc[r], 0.0);
    return {w.begin(), w.end()};
  }
  return {};
}

}  // namespace arena
