// Which points of a pair's separation field can carry weight in its softmin (seed 001 eq. 23),
// and which patches their SSDFs can use, found by one descent of each cloud's k-d tree instead
// of a tree query per point.
//
// The softmin w = sigma_eps2(-Phi_12) gives weight 0 to an entry whose Phi exceeds min Phi_12 by
// more than cutoff * eps2 (smooth_collision.h). At a point x of one cloud, Phi is the other
// cloud's SSDF, an average of the plane distances n_i^T (x - p_i) over the terms kept at x,
// |x - p_i|^2 <= min_k |x - p_k|^2 + c with c = cutoff * eps1 (ssdf.h), so it is at least the
// smallest of them. Over the points x of a tree node, inside a ball (m, rho):
//  - a kept term lies within K + rho of m, K^2 = (sqrt(d0) + rho)^2 + c, for any patch j and
//    d0 = |m - p_j|^2 (x's nearest patch is no farther than p_j, and a kept term is within K);
//  - term i is kept at x only if |x - p_i|^2 - |x - p_j|^2 <= c, a half-space of x that must
//    meet the ball: |m - p_i|^2 - d0 - 2 rho |p_i - p_j| <= c;
//  - so Phi(x) >= min over the terms passing both of n_i^T (m - p_i) - rho.
// A child's points lie in its parent's ball too, so the child filters its parent's terms: the
// tree is descended once per cloud, each node testing only the terms its parent kept. A node
// whose bound exceeds an upper bound U of min Phi_12 (an entry already computed) by more than
// cutoff * eps2 holds no point with weight and is dropped. A leaf's terms are a superset of
// those kept at each of its points, so its points' SSDFs filter that list (exactly the scan's
// test on the same distances) instead of querying the tree: the same terms in the same order,
// and the same numbers as computing every entry through the tree.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "models/scm/ssdf.h"

namespace arena::scm {

namespace field_pruning {

template <class T>
Vec3 ValueOf(const V3<T>& v) {
  return Vec3(Val(v(0)), Val(v(1)), Val(v(2)));
}

}  // namespace field_pruning

/// Appends to `out` the terms of `from` (ascending indices of `cloud`'s patches, holding every
/// term kept anywhere in a region that contains the ball's points) that pass the two tests of the
/// file comment for the ball (m, rho), in order; returns the lower bound of SSDF_cloud over the
/// ball's points (infinity if none pass). `distance` is scratch.
template <class T>
double FilterTerms(const WorldCloud<T>& cloud, const Vec3& m, double rho, double c, std::span<const int> from,
                   std::vector<int>* out, std::vector<double>* distance) {
  using field_pruning::ValueOf;
  distance->resize(from.size());
  double d0 = std::numeric_limits<double>::infinity();
  int j = -1;
  for (std::size_t k = 0; k < from.size(); ++k) {
    (*distance)[k] = (ValueOf(cloud.p[static_cast<std::size_t>(from[k])]) - m).squaredNorm();
    if ((*distance)[k] < d0) d0 = (*distance)[k], j = from[k];
  }
  if (j < 0) return std::numeric_limits<double>::infinity();
  const Vec3 pj = ValueOf(cloud.p[static_cast<std::size_t>(j)]);
  const double r0 = std::sqrt(d0) + rho;
  const double reach = std::sqrt(r0 * r0 + c) + rho;
  // Both tests are widened by round-off: a looser bound and a longer list, never a missed term.
  const double reach2 = reach * reach * (1.0 + 1e-9) + 1e-18;
  double bound = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < from.size(); ++k) {
    const double d = (*distance)[k];
    if (d > reach2) continue;
    const auto i = static_cast<std::size_t>(from[k]);
    const Vec3 pi = ValueOf(cloud.p[i]);
    const double excess = d - d0 - c - (1e-9 * (c + d0 + d) + 1e-18);  // must be <= 2 rho |p_i - p_j|
    if (excess > 0.0 && excess * excess > 4.0 * rho * rho * (pi - pj).squaredNorm() * (1.0 + 1e-9)) continue;
    out->push_back(from[k]);
    bound = std::min(bound, ValueOf(cloud.n[i]).dot(m - pi));
  }
  return bound - rho;
}

/// The terms of `cloud` (ascending) that can be kept at some point within `rho` of `m`, through
/// its tree (which it needs), and the lower bound of SSDF_cloud over that ball (cutoff finite).
template <class T>
double BallTerms(const WorldCloud<T>& cloud, const Vec3& m, double rho, double eps1, double cutoff, std::vector<int>* out,
                 std::vector<int>* scratch, std::vector<double>* distance) {
  const Vec3 ms = cloud.R.transpose() * (m - cloud.t);
  scratch->clear();
  const double d0 = cloud.tree->NearestAndWithin(ms, 0.0, scratch);
  const double r0 = std::sqrt(d0) + rho;
  const double reach = std::sqrt(r0 * r0 + cutoff * eps1) + rho;
  scratch->clear();
  cloud.tree->NearestAndWithin(ms, reach * reach * (1.0 + 1e-9) + 1e-18 - d0, scratch);
  std::sort(scratch->begin(), scratch->end());
  out->clear();
  return FilterTerms(cloud, m, rho, cutoff * eps1, *scratch, out, distance);
}

/// A lower bound of SSDF_cloud(x) for every x within `rho` of `m` (world).
template <class T>
double SsdfLowerBound(const WorldCloud<T>& cloud, const Vec3& m, double rho, double eps1, double cutoff) {
  std::vector<int> terms, scratch;
  std::vector<double> distance;
  return BallTerms(cloud, m, rho, eps1, cutoff, &terms, &scratch, &distance);
}

/// An entry of Phi_12 to compute, and a superset of its SSDF's terms: plan.terms[begin, end)
/// (empty: none given; the SSDF queries the tree).
struct FieldTask {
  int entry = 0;
  int begin = 0, end = 0;
};
struct FieldPlan {
  std::vector<FieldTask> tasks;  // to compute (the entries computed while planning are not here)
  std::vector<int> terms;
  // The pair lies beyond the springs' reach: nothing was computed or planned, and `bound` is a
  // lower bound of every point-plane distance of its kept terms (so of min Phi_12).
  bool out_of_reach = false;
  double bound = -std::numeric_limits<double>::infinity();
  std::span<const int> Terms(const FieldTask& t) const { return {terms.data() + t.begin, terms.data() + t.end}; }
};

namespace field_pruning {

template <class T>
struct Search {
  Search(const SoftminSettings& e, const WorldCloud<T>& pts, const WorldCloud<T>& pl, int first)
      : eps(e), points(pts), planes(pl), offset(first) {}
  const SoftminSettings& eps;
  const WorldCloud<T>& points;  // the cloud whose tree is descended
  const WorldCloud<T>& planes;  // the cloud whose SSDF is taken at its points
  int offset = 0;               // entry of points' point 0
  std::vector<std::vector<int>> level = std::vector<std::vector<int>>(64);  // terms per depth
  std::vector<double> distance;

  Vec3 Centre(const PointTree::Node& node) const { return points.R * node.centre + points.t; }
  const PointTree::Node& Node(int id) const { return points.tree->nodes()[static_cast<std::size_t>(id)]; }
  double Filter(int id, std::span<const int> from, std::vector<int>* out) {
    out->clear();
    return FilterTerms(planes, Centre(Node(id)), Node(id).radius, eps.cutoff * eps.ssdf, from, out, &distance);
  }

  // Every leaf under `id` whose bound is within `limit`, but `skip`, into the plan.
  void Visit(int id, std::span<const int> from, int depth, double limit, int skip, FieldPlan* plan) {
    std::vector<int>& terms = level[static_cast<std::size_t>(depth)];
    const double bound = Filter(id, from, &terms);
    // The bound and Phi are computed in different orders: a round-off's margin.
    if (bound - 1e-9 * (1.0 + std::abs(bound) + std::abs(limit)) > limit) return;
    const PointTree::Node& node = Node(id);
    if (node.left >= 0) {
      Visit(node.left, terms, depth + 1, limit, skip, plan);
      Visit(node.right, terms, depth + 1, limit, skip, plan);
      return;
    }
    if (id == skip) return;
    const int begin = static_cast<int>(plan->terms.size());
    plan->terms.insert(plan->terms.end(), terms.begin(), terms.end());
    for (int k = node.begin; k < node.end; ++k) {
      plan->tasks.push_back({offset + points.tree->order()[static_cast<std::size_t>(k)], begin, static_cast<int>(plan->terms.size())});
    }
  }

  // Whether a leaf under `id` has a bound within `reach`; else `lowest` is lowered to the least
  // bound of the nodes that ruled its subtrees out.
  bool Reaches(int id, std::span<const int> from, int depth, double reach, double* lowest) {
    std::vector<int>& terms = level[static_cast<std::size_t>(depth)];
    const double bound = Filter(id, from, &terms);
    if (bound > reach) {
      *lowest = std::min(*lowest, bound);
      return false;
    }
    const PointTree::Node& node = Node(id);
    if (node.left < 0) return true;
    return Reaches(node.left, terms, depth + 1, reach, lowest) || Reaches(node.right, terms, depth + 1, reach, lowest);
  }

  // From the root, always into the child with the lower bound: a leaf likely to hold the
  // smallest Phi. Its terms are left in `terms`.
  int LowestLeaf(std::span<const int> root_terms, std::vector<int>* terms) {
    std::vector<int> left, right;
    terms->assign(root_terms.begin(), root_terms.end());
    int id = 0;
    while (Node(id).left >= 0) {
      const double l = Filter(Node(id).left, *terms, &left);
      const double r = Filter(Node(id).right, *terms, &right);
      id = l <= r ? Node(id).left : Node(id).right;
      terms->swap(l <= r ? left : right);
    }
    return id;
  }
};

}  // namespace field_pruning

/// The entries of Phi_12 still to compute (point f of cloud c is entry offset[c] + f; a
/// half-space cloud has none), with supersets of their SSDFs' terms. For a cloud whose points and
/// partner both have trees (with prune_points and a finite cutoff): one leaf likely to hold the
/// smallest Phi (field_pruning::Search::LowestLeaf) is computed at once, through
/// `compute(entry, superset)` which stores the entry and returns its value, for an upper bound
/// U; then the other leaves whose bound is within cutoff * eps2 of U are planned. Every entry of any
/// other cloud is planned without a superset. Entries neither computed nor planned carry no
/// weight. When every cloud with points is prunable and a descent of their trees finds no leaf
/// whose bound is within `reach` (a plane distance), the plan is out_of_reach and nothing is
/// computed.
template <class T, class Compute>
FieldPlan PlanField(const SoftminSettings& eps, const WorldCloud<T>* const clouds[2], const int offset[2],
                    const Compute& compute, double reach = std::numeric_limits<double>::infinity()) {
  auto prunable = [&](int c) {
    const WorldCloud<T>& pts = *clouds[c];
    const WorldCloud<T>& planes = *clouds[1 - c];
    return eps.prune_points && std::isfinite(eps.cutoff) && !pts.plane && !planes.plane && pts.tree != nullptr &&
           planes.tree != nullptr && !pts.tree->nodes().empty() && !planes.tree->nodes().empty();
  };
  FieldPlan plan;
  std::vector<int> root_terms[2], leaf_terms, scratch;
  std::vector<double> distance;
  std::optional<field_pruning::Search<T>> search[2];
  bool all_prunable = true;
  for (int c = 0; c < 2; ++c) {
    if (clouds[c]->plane) continue;
    if (!prunable(c)) {
      all_prunable = false;
      continue;
    }
    search[c].emplace(eps, *clouds[c], *clouds[1 - c], offset[c]);
    const PointTree::Node& root = search[c]->Node(0);
    BallTerms(*clouds[1 - c], search[c]->Centre(root), root.radius, eps.ssdf, eps.cutoff, &root_terms[c], &scratch,
              &distance);
  }
  if (all_prunable && std::isfinite(reach)) {
    double lowest = std::numeric_limits<double>::infinity();
    bool reaches = false;
    for (int c = 0; c < 2 && !reaches; ++c) {
      if (search[c]) reaches = search[c]->Reaches(0, root_terms[c], 0, reach, &lowest);
    }
    if (!reaches) {
      plan.out_of_reach = true;
      plan.bound = lowest;
      return plan;
    }
  }
  double upper = std::numeric_limits<double>::infinity();
  int lowest_leaf[2] = {-1, -1};
  for (int c = 0; c < 2; ++c) {
    if (!search[c]) continue;
    lowest_leaf[c] = search[c]->LowestLeaf(root_terms[c], &leaf_terms);
    const PointTree::Node& leaf = search[c]->Node(lowest_leaf[c]);
    for (int k = leaf.begin; k < leaf.end; ++k) {
      upper = std::min(upper, compute(offset[c] + clouds[c]->tree->order()[static_cast<std::size_t>(k)],
                                      std::span<const int>(leaf_terms)));
    }
  }
  const double limit = upper + eps.cutoff * eps.separation;
  for (int c = 0; c < 2; ++c) {
    if (clouds[c]->plane) continue;
    if (search[c]) {
      search[c]->Visit(0, root_terms[c], 0, limit, lowest_leaf[c], &plan);
    } else {
      for (int f = 0; f < clouds[c]->size(); ++f) plan.tasks.push_back({offset[c] + f, 0, 0});
    }
  }
  return plan;
}

}  // namespace arena::scm
