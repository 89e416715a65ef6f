#include "models/ip/attachment_weights.h"

#include <algorithm>
#include <limits>

#include <Eigen/Cholesky>
#include <Eigen/LU>

namespace arena {
namespace attachment_weights {

// w = A^T (A A^T)^-1 [a; 1] with A = [v_i; 1] over `use`; empty when A A^T is singular.
std::vector<std::pair<int, double>> MinimumNorm(const std::vector<Vec3>& vertices, const std::vector<int>& use,
                                                const Vec3& a) {
  MatX A(4, static_cast<int>(use.size()));
  for (size_t c = 0; c < use.size(); ++c) A.col(c) << vertices[use[c]], 1.0;
  if (Eigen::FullPivLU<MatX>(A).rank() < 4) return {};
  Eigen::Vector4d b;
  b << a, 1.0;
  const VecX w = A.transpose() * (A * A.transpose()).ldlt().solve(b);
  std::vector<std::pair<int, double>> out;
  for (size_t c = 0; c < use.size(); ++c) out.emplace_back(use[c], w[c]);
  return out;
}

}  // namespace attachment_weights

std::vector<std::pair<int, double>> AttachmentWeights(const std::vector<Vec3>& vertices, const Vec3& a) {
  using attachment_weights::MinimumNorm;
  if (vertices.size() < 4) return {};
  double nearest = std::numeric_limits<double>::infinity();
  for (const Vec3& v : vertices) nearest = std::min(nearest, (v - a).norm());
  std::vector<int> near, all;
  for (int i = 0; i < static_cast<int>(vertices.size()); ++i) {
    all.push_back(i);
    if ((vertices[i] - a).norm() <= 1.5 * nearest + 1e-12) near.push_back(i);
  }
  std::vector<std::pair<int, double>> w = near.size() >= 4 ? MinimumNorm(vertices, near, a) : decltype(w){};
  return w.empty() ? MinimumNorm(vertices, all, a) : w;
}

}  // namespace arena
