// SCM's smooth collision between two oriented point clouds (seed 001 Sec. III-C, III-D), for any
// scalar type: the smooth signed distance function (SSDF, eq. 9) of a cloud, the separation field
// of a pair and the pair's contact wrenches (point-SSDF forces, eqs. 21-22, blended by the
// separation field's softmin weights, eq. 23).
//
//   SSDF_S(p) = sum_i sigma_eps1(-d(p))_i n_i^T (p - p_i),  d_i(p) = |p - p_i|^2   (eq. 9)
//   Phi_12    = [SSDF_2(points of 1); SSDF_1(points of 2)],  w = sigma_eps2(-Phi_12)
//   Lambda_12 = sum_f w_f sum_i sigma_eps1(-d(p_f))_i lambda(p_f, v_f - v_i, p_i, n_i)
//
// The force lambda acts on the point's body at p_f and its reaction on the plane's body at p_i
// (eq. 21's (J_i - J)^T lambda with the sign that pushes the bodies apart). The weights w sum to
// one, so the total force does not grow with the number of points in contact. Softmaxes are
// computed with their largest exponent factored out (log-sum-exp).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

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
/// through the tree when the cloud has one and the cutoff is finite, else by a scan. The tree's
/// radius is widened by round-off and its candidates pass the scan's test, so both give the same
/// set.
template <class T>
void SoftmaxCandidates(const WorldCloud<T>& cloud, const V3<T>& x, double eps1, double cutoff, SoftmaxTerms<T>* terms,
                       double* d_min) {
  std::vector<int>& index = terms->index;
  std::vector<double>& d = terms->distance;
  index.clear();
  if (cloud.tree != nullptr && std::isfinite(cutoff)) {
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
                 double cutoff = std::numeric_limits<double>::infinity()) {
  using std::exp;
  double d_min = 0.0;
  SoftmaxCandidates(cloud, x, eps1, cutoff, terms, &d_min);
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
       double cutoff = std::numeric_limits<double>::infinity()) {
  SsdfWeights(cloud, x, eps1, scratch, cutoff);
  T phi = T(0.0 * x(0));
  for (std::size_t k = 0; k < scratch->index.size(); ++k) {
    const auto i = static_cast<std::size_t>(scratch->index[k]);
    phi += scratch->weight[k] * cloud.n[i].dot(x - cloud.p[i]);
  }
  return phi / scratch->sum;
}

/// A world wrench [torque about the origin; force].
template <class T>
using Wrench = Eigen::Matrix<T, 6, 1>;

/// One point of a pair's separation field and the force it carries (for contact reports).
struct FieldPoint {
  int cloud = 0;         // 0: a point of cloud a, 1: of cloud b
  int index = 0;
  double ssdf = 0.0;     // its entry of Phi_12, m
  double weight = 0.0;   // w_f
  Vec3 force = Vec3::Zero();  // w_f times its point-SSDF force, on its own body, N
};

/// Runs fn(begin, end) over [0, n): in one call, or on the arena's threads in chunks when given
/// one and n is large enough to pay for it. fn must only write to its own indices.
template <class Fn>
void ForChunks(int n, tbb::task_arena* arena, const Fn& fn) {
  constexpr int kChunk = 128;
  if (arena == nullptr || n < 4 * kChunk) {
    fn(0, n);
    return;
  }
  arena->execute([&] {
    tbb::parallel_for(tbb::blocked_range<int>(0, n, kChunk), [&](const tbb::blocked_range<int>& r) { fn(r.begin(), r.end()); });
  });
}

/// One point's share of a pair's force: its point-SSDF force summed over the other cloud's
/// patches (on its own body, at the point) and the reactions on the patches' body (a wrench
/// about the origin).
template <class T>
struct PointShare {
  V3<T> total;
  Wrench<T> reaction;
};

/// The contact wrenches of the pair (a, b) on a's and b's bodies (eq. 23); `field` (optional)
/// receives every point of Phi_12 whose weight is at least `report_weight`. Returns min Phi_12.
/// With `arena`, the SSDFs of Phi_12 and the points' shares are computed on its threads; they
/// are summed in the points' order either way, so the result does not depend on the threads.
template <class T>
double PairWrenches(const ContactLaw& law, const SoftminSettings& eps, const WorldCloud<T>& a,
                    const WorldCloud<T>& b, Wrench<T>* wa, Wrench<T>* wb, std::vector<FieldPoint>* field = nullptr,
                    double report_weight = 1e-3, tbb::task_arena* arena = nullptr) {
  using std::exp;
  const WorldCloud<T>* clouds[2] = {&a, &b};
  Wrench<T>* wrench[2] = {wa, wb};
  std::vector<std::pair<int, int>> owner;  // (cloud, point) of each entry of Phi_12
  for (int c = 0; c < 2; ++c) {
    if (clouds[c]->plane) continue;
    for (int f = 0; f < clouds[c]->size(); ++f) owner.emplace_back(c, f);
  }
  const int n = static_cast<int>(owner.size());
  if (n == 0) return std::numeric_limits<double>::infinity();
  std::vector<T> phi(static_cast<std::size_t>(n));
  ForChunks(n, arena, [&](int begin, int end) {
    SoftmaxTerms<T> scratch;
    for (int e = begin; e < end; ++e) {
      const auto [c, f] = owner[static_cast<std::size_t>(e)];
      phi[static_cast<std::size_t>(e)] = Ssdf(*clouds[1 - c], clouds[c]->p[static_cast<std::size_t>(f)], eps.ssdf, &scratch, eps.cutoff);
    }
  });
  double phi_min = std::numeric_limits<double>::infinity();
  for (const T& x : phi) phi_min = std::min(phi_min, Val(x));
  // w = softmax(-Phi / eps2), its largest exponent (the smallest Phi) factored out.
  std::vector<T> w(phi.size());
  std::vector<int> active;  // entries whose weight survives
  T w_sum = T(0.0 * phi[0]);
  for (std::size_t e = 0; e < phi.size(); ++e) {
    w[e] = Val(phi[e]) - phi_min > eps.cutoff * eps.separation ? T(0.0) : exp(-(phi[e] - T(phi_min)) / T(eps.separation));
    w_sum += w[e];
    if (Val(w[e]) != 0.0) active.push_back(static_cast<int>(e));
  }
  std::vector<PointShare<T>> shares(active.size());
  ForChunks(static_cast<int>(active.size()), arena, [&](int begin, int end) {
    SoftmaxTerms<T> scratch;
    for (int k = begin; k < end; ++k) {
      const auto e = static_cast<std::size_t>(active[static_cast<std::size_t>(k)]);
      const auto [c, f] = owner[e];
      const WorldCloud<T>& pts = *clouds[c];
      const WorldCloud<T>& planes = *clouds[1 - c];
      const V3<T>& p = pts.p[static_cast<std::size_t>(f)];
      const T weight = w[e] / w_sum;
      SsdfWeights(planes, p, eps.ssdf, &scratch, eps.cutoff);
      PointShare<T>& share = shares[static_cast<std::size_t>(k)];
      share.total.setZero();
      share.reaction.setZero();
      for (std::size_t t = 0; t < scratch.index.size(); ++t) {
        const auto i = static_cast<std::size_t>(scratch.index[t]);
        const T s = weight * scratch.weight[t] / scratch.sum;
        const V3<T> lambda = s * PointPlaneForce<T>(law, p, V3<T>(pts.v[static_cast<std::size_t>(f)] - planes.v[i]), planes.p[i], planes.n[i]);
        share.total += lambda;
        share.reaction.template head<3>() -= planes.p[i].cross(lambda);
        share.reaction.template tail<3>() -= lambda;
      }
    }
  });
  for (std::size_t k = 0; k < active.size(); ++k) {
    const auto e = static_cast<std::size_t>(active[k]);
    const auto [c, f] = owner[e];
    const PointShare<T>& share = shares[k];
    const V3<T>& p = clouds[c]->p[static_cast<std::size_t>(f)];
    wrench[c]->template head<3>() += p.cross(share.total);
    wrench[c]->template tail<3>() += share.total;
    *wrench[1 - c] += share.reaction;
    const double weight = Val(w[e]) / Val(w_sum);
    if (field != nullptr && weight >= report_weight) {
      field->push_back({c, f, Val(phi[e]), weight, Vec3(Val(share.total(0)), Val(share.total(1)), Val(share.total(2)))});
    }
  }
  return phi_min;
}

}  // namespace arena::scm
