// Forward-mode AD seeds for the contact kernels (models/point_contact/contact_kernels.h): a collider pose moved
// by a world twist of its body, and a body's world velocity twist. The models that differentiate
// contacts (penalty's wrenches, nimble's LCP rows) seed the kernels' inputs with these and chain
// the result with the bodies' world Jacobians (a body's pose twist per dq is J_W dq).
#pragma once

#include <Eigen/Core>
#include <unsupported/Eigen/AutoDiff>

#include "core/math/se3.h"
#include "core/math/types.h"
#include "models/point_contact/contact_kernels.h"

namespace arena::contact {

template <int N>
using AdScalar = Eigen::AutoDiffScalar<Eigen::Matrix<double, N, 1>>;

// The kernels for the two seed sizes the models use, each instantiated once (contact_kernels_ad*.cc):
// 12 (nimble's rows: two pose twists), 24 (penalty's wrenches: two pose and two velocity twists).
extern template bool Contacts<AdScalar<12>>(const ColliderGeometry&, const PoseT<AdScalar<12>>&,
                                            const ColliderGeometry&, const PoseT<AdScalar<12>>&,
                                            std::vector<ContactPointT<AdScalar<12>>>*);
extern template bool Contacts<AdScalar<24>>(const ColliderGeometry&, const PoseT<AdScalar<24>>&,
                                            const ColliderGeometry&, const PoseT<AdScalar<24>>&,
                                            std::vector<ContactPointT<AdScalar<24>>>*);

/// X perturbed by a world twist delta = [dw; dv] of its body: R -> (I + [dw]) R,
/// p -> p + dv + dw x p (first order is all AD needs), with delta's six derivative slots at
/// `offset` (offset < 0: a constant pose).
template <int N>
PoseT<AdScalar<N>> SeedPose(const SE3& X, int offset) {
  using Ad = AdScalar<N>;
  PoseT<Ad> P;
  const Mat3& R = X.rotation();
  const Vec3& p = X.translation();
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) P.R(i, j) = Ad(R(i, j), Eigen::Matrix<double, N, 1>::Zero());
    P.p(i) = Ad(p(i), Eigen::Matrix<double, N, 1>::Zero());
  }
  if (offset < 0) return P;
  for (int k = 0; k < 3; ++k) {
    const Vec3 e = Vec3::Unit(k);
    const Vec3 dp = e.cross(p);
    for (int j = 0; j < 3; ++j) {
      const Vec3 dR = e.cross(R.col(j));
      for (int i = 0; i < 3; ++i) P.R(i, j).derivatives()[offset + k] = dR(i);
    }
    for (int i = 0; i < 3; ++i) P.p(i).derivatives()[offset + k] = dp(i);
    P.p(k).derivatives()[offset + 3 + k] = 1.0;
  }
  return P;
}

/// A world twist V with its six derivative slots at `offset` (offset < 0: constant).
template <int N>
Eigen::Matrix<AdScalar<N>, 6, 1> SeedTwist(const Motion& V, int offset) {
  Eigen::Matrix<AdScalar<N>, 6, 1> out;
  for (int i = 0; i < 6; ++i) {
    out(i) = AdScalar<N>(V(i), Eigen::Matrix<double, N, 1>::Zero());
    if (offset >= 0) out(i).derivatives()[offset + i] = 1.0;
  }
  return out;
}

/// The derivative row of x, zeros if AD never touched it (a constant).
template <int N>
Eigen::Matrix<double, 1, N> Gradient(const AdScalar<N>& x) {
  if (x.derivatives().size() == N) return x.derivatives().transpose();
  return Eigen::Matrix<double, 1, N>::Zero();
}

}  // namespace arena::contact
