// SCM's smooth signed distance function of an oriented point cloud (seed 001 Sec. III-C, eq. 9):
//   SSDF_S(p) = sum_i sigma_eps1(-d(p))_i n_i^T (p - p_i),  d_i(p) = |p - p_i|^2,
// for any scalar type, with the softmax's negligible terms skipped through the cloud's k-d tree.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <vector>

#include "models/scm/contact_law.h"
#include "models/scm/point_tree.h"

namespace arena::scm {

/// A patch cloud placed in the world: centres, normals and the velocities of the centres; with
/// the cloud's k-d tree (built in its shape frame) and the map from the world to that frame
/// x_S = R^T (x - t), the softmaxes look up their terms instead of scanning every patch.
template <class T>
struct WorldCloud {
  std::vector<V3<T>> p, n, v;
  bool plane = false;  // a half-space's single patch: it has no points of its own in Phi_12
  const PointTree* tree = nullptr;
  Mat3 R = Mat3::Identity();
  Vec3 t = Vec3::Zero();
  int size() const { return static_cast<int>(p.size()); }
};

struct SoftminSettings {
  double ssdf = 0.0;        // eps1, m^2
  double separation = 0.0;  // eps2, m
  // Softmax terms whose exponent lies more than this below the largest are skipped (weight 0):
  // 36 drops weights below e^-36 = 2.3e-16 of the largest, exact to round-off; infinity keeps all.
  double cutoff = std::numeric_limits<double>::infinity();
  // With a finite cutoff and trees on both clouds: the separation field's points that a bound
  // shows to carry no weight are left out without computing their SSDF (field_pruning.h). The
  // same entries get weight either way; false computes every point's SSDF.
  bool prune_points = true;
  // With pruning: a pair whose every kept point-plane distance a bound shows to lie beyond the
  // springs' reach (SpringReach: its forces below e^-cutoff of k eps3) is skipped whole, its
  // wrenches left zero (smooth_collision.h). false computes far pairs too.
  bool skip_out_of_reach = true;
};

/// |x - y|^2 of the values (the softmaxes' shift: any constant works, the smallest is safe).
template <class T>
double SquaredDistance(const V3<T>& x, const V3<T>& y) {
  double d = 0.0;
  for (int k = 0; k < 3; ++k) d += (Val(x(k)) - Val(y(k))) * (Val(x(k)) - Val(y(k)));
  return d;
}

/// The kept terms of a softmax over a cloud's patches: their indices (ascending), weights
/// relative to the largest, exp(-(d_i - d_min) / eps1), and the weights' sum.
template <class T>
struct SoftmaxTerms {
  std::vector<int> index;
  std::vector<T> weight;
  T sum;
  std::vector<double> distance;  // scratch: the candidates' squared distances (values)
};

/// The patches whose squared distance to x is within cutoff * eps1 of the smallest, ascending:
/// from `superset` when given (ascending, holding every such patch: field_pruning.h), else
/// through the tree when the cloud has one and the cutoff is finite, else by a scan. The tree's
/// radius is widened by round-off and every candidate passes the scan's test, so all three give
/// the same set.
template <class T>
void SoftmaxCandidates(const WorldCloud<T>& cloud, const V3<T>& x, double eps1, double cutoff, SoftmaxTerms<T>* terms,
                       double* d_min, std::span<const int> superset = {}) {
  std::vector<int>& index = terms->index;
  std::vector<double>& d = terms->distance;
  index.clear();
  if (!superset.empty() && std::isfinite(cutoff)) {
    index.assign(superset.begin(), superset.end());
  } else if (cloud.tree != nullptr && std::isfinite(cutoff)) {
    const Vec3 xv(Val(x(0)), Val(x(1)), Val(x(2)));
    const Vec3 xs = cloud.R.transpose() * (xv - cloud.t);
    cloud.tree->NearestAndWithin(xs, cutoff * eps1 * (1.0 + 1e-9) + 1e-9 * xs.squaredNorm() + 1e-18, &index);
    std::sort(index.begin(), index.end());
  } else {
    index.resize(static_cast<std::size_t>(cloud.size()));
    for (int i = 0; i < cloud.size(); ++i) index[static_cast<std::size_t>(i)] = i;
  }
  d.resize(index.size());
  *d_min = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < index.size(); ++k) {
    d[k] = SquaredDistance(x, cloud.p[static_cast<std::size_t>(index[k])]);
    *d_min = std::min(*d_min, d[k]);
  }
  if (!std::isfinite(cutoff)) return;
  std::size_t kept = 0;
  for (std::size_t k = 0; k < index.size(); ++k) {
    if (d[k] - *d_min <= cutoff * eps1) index[kept++] = index[k];
  }
  index.resize(kept);
}

/// The softmax weights of the SSDF of `cloud` at x (terms below e^-cutoff of the largest
/// skipped).
template <class T>
void SsdfWeights(const WorldCloud<T>& cloud, const V3<T>& x, double eps1, SoftmaxTerms<T>* terms,
                 double cutoff = std::numeric_limits<double>::infinity(), std::span<const int> superset = {}) {
  using std::exp;
  double d_min = 0.0;
  SoftmaxCandidates(cloud, x, eps1, cutoff, terms, &d_min, superset);
  terms->weight.resize(terms->index.size());
  terms->sum = T(0.0 * x(0));
  for (std::size_t k = 0; k < terms->index.size(); ++k) {
    const V3<T>& p = cloud.p[static_cast<std::size_t>(terms->index[k])];
    terms->weight[k] = exp(-((x - p).squaredNorm() - T(d_min)) / T(eps1));
    terms->sum += terms->weight[k];
  }
}

/// SSDF_cloud(x), eq. 9.
template <class T>
T Ssdf(const WorldCloud<T>& cloud, const V3<T>& x, double eps1, SoftmaxTerms<T>* scratch,
       double cutoff = std::numeric_limits<double>::infinity(), std::span<const int> superset = {}) {
  SsdfWeights(cloud, x, eps1, scratch, cutoff, superset);
  T phi = T(0.0 * x(0));
  for (std::size_t k = 0; k < scratch->index.size(); ++k) {
    const auto i = static_cast<std::size_t>(scratch->index[k]);
    phi += scratch->weight[k] * cloud.n[i].dot(x - cloud.p[i]);
  }
  return phi / scratch->sum;
}

}  // namespace arena::scm
