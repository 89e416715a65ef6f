#include "models/longrange/long_range_potential.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/common/error.h"
#include "models/longrange/centered_potential.h"

namespace arena::longrange {

std::string LongRangeOptions::Validate() const {
  if (!(eps > 0.0) || !std::isfinite(eps)) return "eps must be > 0 and finite (Theorem 5.4)";
  if (const std::string e = pair.Validate(); !e.empty()) return "pair: " + e;
  return {};
}

std::string_view ToString(LongRangeStatus status) {
  switch (status) {
    case LongRangeStatus::kOk: return "ok";
    case LongRangeStatus::kPairNotConverged: return "pair_not_converged";
    case LongRangeStatus::kIntersecting: return "intersecting";
  }
  return "?";
}

void LongRangeStats::Reset() {
  node_pairs = 0;
  centered_terms = 0;
  exact_pairs = 0;
  blended_pairs = 0;
  newton_iterations = 0;
  max_newton_iterations = 0;
  unconverged_pairs = 0;
  hessian_blocks = 0;
}

namespace {


Triangle TriangleOf(const BoundingSphereHierarchy& bsh, const BshPose& pose, int t) {
  const auto& tri = bsh.triangles();
  return {pose.vertices.row(tri(t, 0)).transpose(), pose.vertices.row(tri(t, 1)).transpose(),
          pose.vertices.row(tri(t, 2)).transpose()};
}

// Sums duplicate entries of log[begin, end) in place (first-seen order).
void Coalesce(std::size_t begin, LongRangeData* d) {
  auto& log = d->gradient_log;
  for (std::size_t e = begin; e < log.size(); ++e) {
    const int p = log[e].point;
    if (d->point_slot[p] == 0) {
      d->point_slot[p] = 1;
      d->touched.push_back(p);
    }
    d->point_sum[p] += log[e].g;
  }
  log.resize(begin);
  for (int p : d->touched) {
    log.push_back({p, d->point_sum[p]});
    d->point_sum[p].setZero();
    d->point_slot[p] = 0;
  }
  d->touched.clear();
}

// Algorithm 1 (PROCESS_PAIR). Each call returns P_BSH of its node pair and appends that
// term's own gradient entries and Hessian blocks to the logs, unscaled by its ancestors' blends:
// a blending ancestor rescales the suffix its children wrote.
class Evaluator {
 public:
  Evaluator(const BoundingSphereHierarchy& a, const BshPose& pa, const BoundingSphereHierarchy& b,
            const BshPose& pb, const LongRangeOptions& options, LongRangeData* d)
      : a_(a),
        b_(b),
        pa_(pa),
        pb_(pb),
        options_(options),
        d_(d),
        gradient_(options.derivatives != DerivativeOrder::kValue),
        hessian_(options.derivatives == DerivativeOrder::kHessian),
        want_a_(options.derivatives_a),
        want_b_(options.derivatives_b) {}

  double Process(int i, int j) {
    ++d_->stats.node_pairs;
    const BshNode& ni = a_.node(i);
    const BshNode& nj = b_.node(j);
    const Vec3 diff = pa_.centers[i] - pb_.centers[j];
    const double r = diff.norm();
    const double d1 = ni.radius + nj.radius;
    const double d2 = (1.0 + options_.eps) * d1;
    const int pi = d_->points.NodeA(i), pj = d_->points.NodeB(j);
    if (r > d2) {  // far field: the centred term alone (Eq. 7)
      ++d_->stats.centered_terms;
      const Scalar2 pc = CenteredPotential(r);
      if (gradient_) AppendRadial(pi, pj, pc, diff / r, r);
      return pc.value;
    }
    const std::size_t g0 = d_->gradient_log.size();
    const std::size_t h0 = d_->hessian.size();
    double p1 = 0.0;  // the near term P_d1
    if (ni.is_leaf() && nj.is_leaf()) {
      p1 = Exact(ni.triangle, nj.triangle);  // Eq. 6
    } else {
      // C(I) x C(J), a leaf's only child being itself (Eq. 8).
      const int ci[2] = {ni.is_leaf() ? i : ni.left, ni.right};
      const int cj[2] = {nj.is_leaf() ? j : nj.left, nj.right};
      const int count_i = ni.is_leaf() ? 1 : 2, count_j = nj.is_leaf() ? 1 : 2;
      for (int x = 0; x < count_i; ++x) {
        for (int y = 0; y < count_j; ++y) {
          p1 += Process(ci[x], cj[y]);
          if (!(p1 < kInf)) return kInf;
        }
      }
    }
    if (!(p1 < kInf)) return kInf;
    if (!(r > d1)) return p1;  // phi = 0

    // Blend (Eq. 4): V = (1 - phi) P1 + phi P_c = P1 + q(r), q = (P_c - P1) phi. Holding P1
    // fixed inside q (its own dependence is the first term):
    //   grad V  = (1 - phi) grad P1 + q' grad r,                       (Eq. 9)
    //   hess V  = (1 - phi) hess P1 - (grad phi grad P1^T + grad P1 grad phi^T) + hess q,
    // q' = (P_c - P1) phi' + phi P_c', q'' = (P_c - P1) phi'' + 2 phi' P_c' + phi P_c''.
    ++d_->stats.blended_pairs;
    const Vec3 u = diff / r;
    const Scalar2 pc = CenteredPotential(r);
    const Scalar2 phi = BlendWeight(r, d1, d2);
    const double delta = pc.value - p1;
    const Scalar2 q{delta * phi.value, delta * phi.first + phi.value * pc.first,
                    delta * phi.second + 2.0 * phi.first * pc.first + phi.value * pc.second};
    if (gradient_) {
      const double keep = 1.0 - phi.value;
      auto& glog = d_->gradient_log;
      if (hessian_) {
        auto& hlog = d_->hessian;
        for (std::size_t e = h0; e < hlog.size(); ++e) hlog[e].block *= keep;
        Coalesce(g0, d_);
        const std::size_t g_end = glog.size();
        for (std::size_t e = g0; e < g_end; ++e) {
          // -(d phi / d x_I) (d P1 / d x_p)^T and its mirror images.
          const Mat3 c = (-phi.first) * u * glog[e].g.transpose();
          const int p = glog[e].point;
          PushBlock(pi, p, c);
          PushBlock(p, pi, c.transpose());
          PushBlock(pj, p, -c);
          PushBlock(p, pj, -c.transpose());
        }
      }
      for (std::size_t e = g0; e < glog.size(); ++e) glog[e].g *= keep;
      AppendRadial(pi, pj, q, u, r);
    }
    return p1 + q.value;
  }

  // Exact P_ij of triangles ta (body a) and tb (body b), derivatives appended at vertex points.
  double Exact(int ta, int tb) {
    TrianglePairResult& res = d_->pair_result;
    ComputeTrianglePairPotential(TriangleOf(a_, pa_, ta), TriangleOf(b_, pb_, tb),
                                 options_.derivatives, options_.pair,
                                 options_.warm_start ? d_->PlaneOf(ta, tb) : nullptr, &res,
                                 {want_a_, want_b_});
    Count(res);
    if (res.status == TrianglePairStatus::kIntersecting) return kInf;
    if (!gradient_) return res.value;
    int pts[6];
    for (int k = 0; k < 3; ++k) {
      pts[k] = d_->points.VertexA(a_.triangles()(ta, k));
      pts[k + 3] = d_->points.VertexB(b_.triangles()(tb, k));
    }
    // Only the wanted bodies' vertices (m < 3: body a's, m >= 3: body b's).
    const int m0 = want_a_ ? 0 : 3, m1 = want_b_ ? 6 : 3;
    for (int m = m0; m < m1; ++m) d_->gradient_log.push_back({pts[m], res.gradient.segment<3>(3 * m)});
    if (hessian_) {
      for (int m = m0; m < m1; ++m) {
        for (int k = m0; k < m1; ++k) {
          d_->hessian.push_back({pts[m], pts[k], res.hessian.block<3, 3>(3 * m, 3 * k)});
        }
      }
    }
    return res.value;
  }

  void Count(const TrianglePairResult& res) {
    LongRangeStats& s = d_->stats;
    ++s.exact_pairs;
    if (res.status == TrianglePairStatus::kIntersecting) return;
    s.newton_iterations += res.stats.iterations;
    s.max_newton_iterations = std::max(s.max_newton_iterations, res.stats.iterations);
    if (res.status != TrianglePairStatus::kConverged) ++s.unconverged_pairs;
  }

 private:
  // Gradient entries and Hessian blocks of h(|x_I - x_J|) at the two centre points.
  void AppendRadial(int pi, int pj, const Scalar2& h, const Vec3& u, double r) {
    const Vec3 g = h.first * u;
    if (want_a_) d_->gradient_log.push_back({pi, g});
    if (want_b_) d_->gradient_log.push_back({pj, -g});
    if (!hessian_) return;
    const Mat3 k = RadialHessianBlock(h, u, r);
    PushBlock(pi, pi, k);
    PushBlock(pi, pj, -k);
    PushBlock(pj, pi, -k);
    PushBlock(pj, pj, k);
  }

  // A Hessian block, unless one of its points is on a body whose derivatives are not wanted.
  void PushBlock(int row, int col, const Mat3& block) {
    if (Wanted(row) && Wanted(col)) d_->hessian.push_back({row, col, block});
  }
  bool Wanted(int point) const { return point < d_->points.VertexB(0) ? want_a_ : want_b_; }

  const BoundingSphereHierarchy& a_;
  const BoundingSphereHierarchy& b_;
  const BshPose& pa_;
  const BshPose& pb_;
  const LongRangeOptions& options_;
  LongRangeData* d_;
  bool gradient_ = false;
  bool hessian_ = false;
  bool want_a_ = true;  // derivatives with respect to body a's points (LongRangeOptions)
  bool want_b_ = true;
};

void CheckPose(const BoundingSphereHierarchy& bsh, const BshPose& pose, const char* name) {
  if (pose.vertices.rows() != bsh.num_vertices() ||
      static_cast<int>(pose.centers.size()) != bsh.num_nodes()) {
    throw InvalidArgument(std::string("ComputeLongRangePotential: pose ") + name +
                          " does not match its hierarchy (" + std::to_string(pose.vertices.rows()) +
                          " vertices, " + std::to_string(pose.centers.size()) +
                          " centres; expected " + std::to_string(bsh.num_vertices()) + " and " +
                          std::to_string(bsh.num_nodes()) + ")");
  }
}

// Eq. 3: every triangle pair exactly, derivatives accumulated densely over the vertices.
double BruteForce(const BoundingSphereHierarchy& a, const BshPose& pa,
                  const BoundingSphereHierarchy& b, const BshPose& pb,
                  const LongRangeOptions& options, LongRangeData* d, Evaluator& eval) {
  const bool gradient = options.derivatives != DerivativeOrder::kValue;
  const bool hessian = options.derivatives == DerivativeOrder::kHessian;
  const int na = a.num_vertices(), nb = b.num_vertices();
  if (hessian) d->brute_hessian.setZero(3 * (na + nb), 3 * (na + nb));
  double value = 0.0;
  TrianglePairResult& res = d->pair_result;
  for (int ta = 0; ta < a.num_triangles(); ++ta) {
    const Triangle tri_a = TriangleOf(a, pa, ta);
    for (int tb = 0; tb < b.num_triangles(); ++tb) {
      ComputeTrianglePairPotential(tri_a, TriangleOf(b, pb, tb), options.derivatives, options.pair,
                                   options.warm_start ? d->PlaneOf(ta, tb) : nullptr, &res);
      eval.Count(res);
      if (res.status == TrianglePairStatus::kIntersecting) return kInf;
      value += res.value;
      if (!gradient) continue;
      int idx[6];  // vertex index in the stacked (a, b) numbering
      for (int k = 0; k < 3; ++k) {
        idx[k] = a.triangles()(ta, k);
        idx[k + 3] = na + b.triangles()(tb, k);
      }
      for (int k = 0; k < 3; ++k) {
        d->gradient_a.row(idx[k]) += res.gradient.segment<3>(3 * k).transpose();
        d->gradient_b.row(idx[k + 3] - na) += res.gradient.segment<3>(9 + 3 * k).transpose();
      }
      if (!hessian) continue;
      for (int m = 0; m < 6; ++m) {
        for (int k = 0; k < 6; ++k) {
          d->brute_hessian.block<3, 3>(3 * idx[m], 3 * idx[k]) +=
              res.hessian.block<3, 3>(3 * m, 3 * k);
        }
      }
    }
  }
  if (gradient && !options.derivatives_a) d->gradient_a.setZero();
  if (gradient && !options.derivatives_b) d->gradient_b.setZero();
  if (hessian) {
    auto point = [&](int v) { return v < na ? d->points.VertexA(v) : d->points.VertexB(v - na); };
    auto wanted = [&](int v) { return v < na ? options.derivatives_a : options.derivatives_b; };
    for (int col = 0; col < na + nb; ++col) {
      for (int row = 0; row < na + nb; ++row) {
        const auto blk = d->brute_hessian.block<3, 3>(3 * row, 3 * col);
        if (!wanted(row) || !wanted(col)) continue;
        if ((blk.array() != 0.0).any()) d->hessian.push_back({point(row), point(col), blk});
      }
    }
  }
  return value;
}

}  // namespace

LongRangeStatus ComputeLongRangePotential(const BoundingSphereHierarchy& bsh_a,
                                          const BshPose& pose_a,
                                          const BoundingSphereHierarchy& bsh_b,
                                          const BshPose& pose_b, const LongRangeOptions& options,
                                          LongRangeData* data) {
  if (const std::string e = options.Validate(); !e.empty()) {
    throw InvalidArgument("LongRangeOptions: " + e);
  }
  CheckPose(bsh_a, pose_a, "a");
  CheckPose(bsh_b, pose_b, "b");
  LongRangeData& d = *data;
  d.stats.Reset();
  d.points = {bsh_a.num_vertices(), bsh_a.num_nodes(), bsh_b.num_vertices(), bsh_b.num_nodes()};
  d.gradient_a.setZero(bsh_a.num_vertices(), 3);
  d.gradient_b.setZero(bsh_b.num_vertices(), 3);
  d.hessian.clear();
  d.gradient_log.clear();
  d.touched.clear();
  d.point_sum.assign(d.points.size(), Vec3::Zero());
  d.point_slot.assign(d.points.size(), 0);

  Evaluator eval(bsh_a, pose_a, bsh_b, pose_b, options, data);
  const double value = options.brute_force
                           ? BruteForce(bsh_a, pose_a, bsh_b, pose_b, options, data, eval)
                           : eval.Process(bsh_a.root(), bsh_b.root());
  d.value = value;
  if (!(value < kInf)) {
    d.status = LongRangeStatus::kIntersecting;
    d.value = kInf;
    d.gradient_a.setZero();
    d.gradient_b.setZero();
    d.hessian.clear();
    d.gradient_log.clear();
    d.stats.hessian_blocks = 0;
    return d.status;
  }
  d.status =
      d.stats.unconverged_pairs > 0 ? LongRangeStatus::kPairNotConverged : LongRangeStatus::kOk;
  d.stats.hessian_blocks = static_cast<int>(d.hessian.size());
  if (options.brute_force || options.derivatives == DerivativeOrder::kValue) return d.status;

  // Point gradients to vertex gradients: a node's share goes to each of its vertices / |I|.
  Coalesce(0, data);
  for (const auto& e : d.gradient_log) {
    const PairPoints& pts = d.points;
    if (e.point < pts.NodeA(0)) {
      d.gradient_a.row(e.point) += e.g.transpose();
    } else if (e.point < pts.VertexB(0)) {
      const auto set = bsh_a.node_vertices(e.point - pts.NodeA(0));
      const Vec3 share = e.g / static_cast<double>(set.size());
      for (int v : set) d.gradient_a.row(v) += share.transpose();
    } else if (e.point < pts.NodeB(0)) {
      d.gradient_b.row(e.point - pts.VertexB(0)) += e.g.transpose();
    } else {
      const auto set = bsh_b.node_vertices(e.point - pts.NodeB(0));
      const Vec3 share = e.g / static_cast<double>(set.size());
      for (int v : set) d.gradient_b.row(v) += share.transpose();
    }
  }
  return d.status;
}

Vec4* LongRangeData::PlaneOf(int triangle_a, int triangle_b) {
  const std::uint64_t key =
      (static_cast<std::uint64_t>(triangle_a) << 32) | static_cast<std::uint32_t>(triangle_b);
  auto slot_of = [](const std::vector<PlaneSlot>& slots, std::uint64_t k) {
    const std::size_t mask = slots.size() - 1;  // size is a power of two
    std::size_t i = static_cast<std::size_t>((k * 0x9E3779B97F4A7C15ull) >> 20) & mask;
    while (slots[i].key != k && slots[i].key != PlaneSlot{}.key) i = (i + 1) & mask;
    return i;
  };
  if (2 * (plane_count + 1) > static_cast<int>(plane_slots.size())) {  // keep load <= 1/2
    std::vector<PlaneSlot> grown(std::max<std::size_t>(1024, 2 * plane_slots.size()));
    for (const PlaneSlot& old : plane_slots) {
      if (old.key != PlaneSlot{}.key) grown[slot_of(grown, old.key)] = old;
    }
    plane_slots.swap(grown);
  }
  PlaneSlot& slot = plane_slots[slot_of(plane_slots, key)];
  if (slot.key != key) {
    slot.key = key;
    slot.plane.setConstant(std::numeric_limits<double>::quiet_NaN());
    ++plane_count;
  }
  return &slot.plane;
}

Vec3 PointPosition(const PairPoints& points, const BshPose& pose_a, const BshPose& pose_b,
                   int point) {
  if (point < points.NodeA(0)) return pose_a.vertices.row(point).transpose();
  if (point < points.VertexB(0)) return pose_a.centers[point - points.NodeA(0)];
  if (point < points.NodeB(0)) return pose_b.vertices.row(point - points.VertexB(0)).transpose();
  return pose_b.centers[point - points.NodeB(0)];
}

Eigen::SparseMatrix<double> ExpandHessian(const BoundingSphereHierarchy& bsh_a,
                                          const BoundingSphereHierarchy& bsh_b,
                                          const std::vector<HessianBlock>& blocks) {
  const PairPoints pts{bsh_a.num_vertices(), bsh_a.num_nodes(), bsh_b.num_vertices(),
                       bsh_b.num_nodes()};
  const int na = bsh_a.num_vertices();
  // The stacked vertex indices a point stands for, and their common weight.
  auto members = [&](int point, std::vector<int>* out, double* weight) {
    out->clear();
    *weight = 1.0;
    if (point < pts.NodeA(0)) {
      out->push_back(point);
    } else if (point < pts.VertexB(0)) {
      for (int v : bsh_a.node_vertices(point - pts.NodeA(0))) out->push_back(v);
    } else if (point < pts.NodeB(0)) {
      out->push_back(na + point - pts.VertexB(0));
    } else {
      for (int v : bsh_b.node_vertices(point - pts.NodeB(0))) out->push_back(na + v);
    }
    *weight = 1.0 / static_cast<double>(out->size());
  };
  std::vector<Eigen::Triplet<double>> triplets;
  std::vector<int> rows, cols;
  for (const HessianBlock& b : blocks) {
    double wr = 1.0, wc = 1.0;
    members(b.row, &rows, &wr);
    members(b.col, &cols, &wc);
    for (int vr : rows) {
      for (int vc : cols) {
        for (int x = 0; x < 3; ++x) {
          for (int y = 0; y < 3; ++y) {
            triplets.emplace_back(3 * vr + x, 3 * vc + y, wr * wc * b.block(x, y));
          }
        }
      }
    }
  }
  const int n = 3 * (na + bsh_b.num_vertices());
  Eigen::SparseMatrix<double> h(n, n);
  h.setFromTriplets(triplets.begin(), triplets.end());
  return h;
}

}  // namespace arena::longrange
