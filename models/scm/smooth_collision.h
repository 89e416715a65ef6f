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
#include "models/scm/field_pruning.h"
#include "models/scm/ssdf.h"

namespace arena::scm {

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

/// The kept terms and weights of the SSDFs computed for Phi_12, by entry, for the shares to
/// reuse: one flat store; an entry's slot is sized before it is filled (at most its superset's
/// size), so that threads fill their own slots.
template <class T>
struct KeptTerms {
  explicit KeptTerms(int n) : slot(static_cast<std::size_t>(n), -1), count(slot.size(), 0), sum(slot.size()) {}
  void Reserve(int e, std::size_t size) {
    slot[static_cast<std::size_t>(e)] = static_cast<int>(index.size());
    index.resize(index.size() + size);
    weight.resize(index.size());
  }
  void Store(int e, const SoftmaxTerms<T>& terms) {
    const auto k = static_cast<std::size_t>(e);
    std::copy(terms.index.begin(), terms.index.end(), index.begin() + slot[k]);
    std::copy(terms.weight.begin(), terms.weight.end(), weight.begin() + slot[k]);
    count[k] = static_cast<int>(terms.index.size());
    sum[k] = terms.sum;
  }
  std::vector<int> slot, count, index;
  std::vector<T> weight, sum;
};

/// The largest speed of a cloud's points (values).
template <class T>
double MaxSpeed(const WorldCloud<T>& cloud) {
  double v2 = 0.0;
  for (const V3<T>& v : cloud.v) v2 = std::max(v2, Val(v(0)) * Val(v(0)) + Val(v(1)) * Val(v(1)) + Val(v(2)) * Val(v(2)));
  return std::sqrt(v2);
}

/// The contact wrenches of the pair (a, b) on a's and b's bodies (eq. 23); `field` (optional)
/// receives every point of Phi_12 whose weight is at least `report_weight`. Returns min Phi_12,
/// or for a pair skipped as out of the springs' reach (SoftminSettings::skip_out_of_reach) a
/// lower bound of it, larger than the reach.
/// With `arena`, the SSDFs of Phi_12 and the points' shares are computed on its threads; they
/// are summed in the points' order either way, so the result does not depend on the threads.
template <class T>
double PairWrenches(const ContactLaw& law, const SoftminSettings& eps, const WorldCloud<T>& a,
                    const WorldCloud<T>& b, Wrench<T>* wa, Wrench<T>* wb, std::vector<FieldPoint>* field = nullptr,
                    double report_weight = 1e-3, tbb::task_arena* arena = nullptr) {
  using std::exp;
  const WorldCloud<T>* const clouds[2] = {&a, &b};
  Wrench<T>* wrench[2] = {wa, wb};
  std::vector<std::pair<int, int>> owner;  // (cloud, point) of each entry of Phi_12
  int offset[2] = {0, 0};
  for (int c = 0; c < 2; ++c) {
    offset[c] = static_cast<int>(owner.size());
    if (clouds[c]->plane) continue;
    for (int f = 0; f < clouds[c]->size(); ++f) owner.emplace_back(c, f);
  }
  const int n = static_cast<int>(owner.size());
  if (n == 0) return std::numeric_limits<double>::infinity();
  // Entries left uncomputed carry no weight (field_pruning.h): +infinity stands for them.
  std::vector<T> phi(static_cast<std::size_t>(n), T(std::numeric_limits<double>::infinity()));
  KeptTerms<T> kept(n);
  SoftmaxTerms<T> serial_scratch;
  auto compute = [&](int e, std::span<const int> superset, SoftmaxTerms<T>* scratch) {
    const auto [c, f] = owner[static_cast<std::size_t>(e)];
    phi[static_cast<std::size_t>(e)] =
        Ssdf(*clouds[1 - c], clouds[c]->p[static_cast<std::size_t>(f)], eps.ssdf, scratch, eps.cutoff, superset);
    return Val(phi[static_cast<std::size_t>(e)]);
  };
  const double reach = eps.skip_out_of_reach && std::isfinite(eps.cutoff)
                           ? SpringReach(law, eps.cutoff, MaxSpeed(a) + MaxSpeed(b))
                           : std::numeric_limits<double>::infinity();
  const FieldPlan plan = PlanField(
      eps, clouds, offset,
      [&](int e, std::span<const int> superset) {
        const double value = compute(e, superset, &serial_scratch);
        kept.Reserve(e, serial_scratch.index.size());
        kept.Store(e, serial_scratch);
        return value;
      },
      reach);
  if (plan.out_of_reach) return plan.bound;
  for (const FieldTask& task : plan.tasks) {
    if (task.end > task.begin) kept.Reserve(task.entry, static_cast<std::size_t>(task.end - task.begin));
  }
  ForChunks(static_cast<int>(plan.tasks.size()), arena, [&](int begin, int end) {
    SoftmaxTerms<T> scratch;
    for (int k = begin; k < end; ++k) {
      const FieldTask& task = plan.tasks[static_cast<std::size_t>(k)];
      compute(task.entry, plan.Terms(task), &scratch);
      if (task.end > task.begin) kept.Store(task.entry, scratch);
    }
  });
  double phi_min = std::numeric_limits<double>::infinity();
  std::size_t e_min = 0;
  for (std::size_t e = 0; e < phi.size(); ++e) {
    if (Val(phi[e]) < phi_min) phi_min = Val(phi[e]), e_min = e;
  }
  // w = softmax(-Phi / eps2), its largest exponent (the smallest Phi) factored out.
  std::vector<T> w(phi.size());
  std::vector<int> active;  // entries whose weight survives
  T w_sum = T(0.0 * phi[e_min]);  // a zero of phi's kind (a computed entry: others are infinite)
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
      // The entry's kept terms: from its computation, or again (an entry without a superset).
      const int* index = nullptr;
      const T* term_weight = nullptr;
      std::size_t count = 0;
      const T* sum = nullptr;
      if (kept.slot[e] >= 0) {
        index = kept.index.data() + kept.slot[e];
        term_weight = kept.weight.data() + kept.slot[e];
        count = static_cast<std::size_t>(kept.count[e]);
        sum = &kept.sum[e];
      } else {
        SsdfWeights(planes, p, eps.ssdf, &scratch, eps.cutoff);
        index = scratch.index.data();
        term_weight = scratch.weight.data();
        count = scratch.index.size();
        sum = &scratch.sum;
      }
      PointShare<T>& share = shares[static_cast<std::size_t>(k)];
      share.total.setZero();
      share.reaction.setZero();
      for (std::size_t t = 0; t < count; ++t) {
        const auto i = static_cast<std::size_t>(index[t]);
        const T s = weight * term_weight[t] / *sum;
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
