#include "models/incremental_potential/contact_potential.h"

#include <array>

#include "core/common/error.h"

namespace arena {

void ContactDerivativeSink::AddStencil(const ContactConfiguration& x, const std::vector<std::pair<int, int>>& vertices,
                                       const VecX& gradient, const MatX* hessian) {
  constexpr int kMax = 8;  // pair kernels have at most 6 vertices
  const int n = static_cast<int>(vertices.size());
  if (n > kMax) throw InvalidArgument("ContactDerivativeSink::AddStencil: at most 8 vertices");
  std::array<MeshPoint, kMax> points;
  for (int i = 0; i < n; ++i) {
    const auto [m, v] = vertices[i];
    points[i] = {m, (*x.meshes)[m].vertices.row(v).transpose(), v};
    AddGradient(points[i], gradient.segment<3>(3 * i));
  }
  if (hessian == nullptr) return;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) AddHessian(points[i], points[j], hessian->block<3, 3>(3 * i, 3 * j));
  }
}

void ContactDerivativeSink::AddTwistHessian(int, int, const Mat6&) {
  throw Unsupported("this ContactDerivativeSink takes point Hessians only (TakesTwistHessians() is false)");
}

double ContactPotential::MaxStepOnPath(const ContactConfiguration& x, ContactPath& path) {
  ContactConfiguration end;
  path.At(1.0, &end);
  for (size_t m = 0; m < end.world.size(); ++m) end.world[m] -= x.world[m];
  return MaxStep(x, end.world);
}

}  // namespace arena
