#include "models/sdrs/point_set_distance.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace arena::sdrs {

namespace {

struct Vertex {
  Vec3 w = Vec3::Zero();  // a_i - b_j
  int i = -1, j = -1;
};

int Argmax(const PointsX3& p, const Vec3& d) {
  int best = 0;
  double best_value = -std::numeric_limits<double>::infinity();
  for (int k = 0; k < p.rows(); ++k) {
    const double value = p.row(k).dot(d.transpose());
    if (value > best_value) {
      best_value = value;
      best = k;
    }
  }
  return best;
}

// The simplex's point closest to the origin as barycentric weights; drops the vertices whose
// weight is 0 (the closest feature). Returns false when the origin lies in a tetrahedron.
bool ReduceSimplex(std::array<Vertex, 4>* s, int* size, Vec3* v, std::array<double, 4>* weights) {
  std::array<double, 4> lambda{};
  auto& x = *s;
  switch (*size) {
    case 1:
      lambda[0] = 1.0;
      break;
    case 2: {
      const Vec3 e = x[1].w - x[0].w;
      const double ee = e.squaredNorm();
      const double t = ee > 0.0 ? std::clamp(-x[0].w.dot(e) / ee, 0.0, 1.0) : 0.0;
      lambda[0] = 1.0 - t;
      lambda[1] = t;
      break;
    }
    case 3: {
      const TrianglePoint tp = ClosestPointOnTriangle(Vec3::Zero(), x[0].w, x[1].w, x[2].w);
      for (int k = 0; k < 3; ++k) lambda[k] = tp.barycentric(k);
      break;
    }
    default: {
      // Inside the tetrahedron when the origin is on the inner side of all four faces.
      const auto volume = [](const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
        return (b - a).cross(c - a).dot(d - a);
      };
      const double total = volume(x[0].w, x[1].w, x[2].w, x[3].w);
      const Vec3 o = Vec3::Zero();
      const std::array<double, 4> part = {volume(o, x[1].w, x[2].w, x[3].w), volume(x[0].w, o, x[2].w, x[3].w),
                                          volume(x[0].w, x[1].w, o, x[3].w), volume(x[0].w, x[1].w, x[2].w, o)};
      if (total != 0.0 && part[0] * total >= 0.0 && part[1] * total >= 0.0 && part[2] * total >= 0.0 &&
          part[3] * total >= 0.0) {
        return false;
      }
      // Else the nearest of the four faces.
      double best = std::numeric_limits<double>::infinity();
      constexpr int kFaces[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
      for (const auto& f : kFaces) {
        const TrianglePoint tp = ClosestPointOnTriangle(o, x[f[0]].w, x[f[1]].w, x[f[2]].w);
        const double d = tp.point.squaredNorm();
        if (d < best) {
          best = d;
          lambda = {0.0, 0.0, 0.0, 0.0};
          for (int k = 0; k < 3; ++k) lambda[f[k]] = tp.barycentric(k);
        }
      }
    }
  }
  int kept = 0;
  Vec3 closest = Vec3::Zero();
  std::array<double, 4> kept_lambda{};
  for (int k = 0; k < *size; ++k) {
    if (lambda[k] > 0.0) {
      closest += lambda[k] * x[k].w;
      kept_lambda[kept] = lambda[k];
      x[kept++] = x[k];
    }
  }
  if (kept == 0) {  // all weight on round-off: keep the first vertex
    kept = 1;
    closest = x[0].w;
    kept_lambda[0] = 1.0;
  }
  *size = kept;
  *v = closest;
  *weights = kept_lambda;
  return true;
}

}  // namespace

PointSetSeparation SeparatePointSets(const PointsX3& a, const PointsX3& b, double relative_tolerance,
                                     int max_iterations) {
  PointSetSeparation out;
  std::array<Vertex, 4> simplex;
  int size = 1;
  const Vec3 ca = a.colwise().mean().transpose(), cb = b.colwise().mean().transpose();
  Vec3 dir = cb - ca;  // search direction: from a towards b is where a's closest points lie
  if (!(dir.squaredNorm() > 0.0)) dir = Vec3::UnitX();
  simplex[0].i = Argmax(a, dir);
  simplex[0].j = Argmax(b, -dir);
  simplex[0].w = (a.row(simplex[0].i) - b.row(simplex[0].j)).transpose();
  Vec3 v = simplex[0].w;
  std::array<double, 4> weights = {1.0, 0.0, 0.0, 0.0};  // of v on the simplex
  for (int it = 0; it < max_iterations; ++it) {
    out.iterations = it + 1;
    const double vv = v.squaredNorm();
    if (!(vv > 0.0)) {
      out.intersecting = true;
      return out;
    }
    Vertex s;
    s.i = Argmax(a, -v);
    s.j = Argmax(b, v);
    s.w = (a.row(s.i) - b.row(s.j)).transpose();
    // v.w >= ... : the support plane's distance bounds the hull distance below (van den Bergen).
    if (vv - v.dot(s.w) <= relative_tolerance * vv) break;
    bool repeated = false;
    for (int k = 0; k < size; ++k) repeated = repeated || (simplex[k].i == s.i && simplex[k].j == s.j);
    if (repeated) break;  // no new support point: v is as close as this simplex gets
    std::array<Vertex, 4> trial = simplex;
    trial[size] = s;
    int trial_size = size + 1;
    Vec3 next;
    std::array<double, 4> trial_weights;
    if (!ReduceSimplex(&trial, &trial_size, &next, &trial_weights)) {
      out.intersecting = true;
      return out;
    }
    if (!(next.squaredNorm() < vv)) break;  // no progress (round-off): keep v and its simplex
    simplex = trial;
    size = trial_size;
    weights = trial_weights;
    v = next;
  }
  // Witnesses: v = sum_k lambda_k (a_ik - b_jk) split into its two parts.
  for (int k = 0; k < size; ++k) {
    out.point_a += weights[k] * a.row(simplex[k].i).transpose();
    out.point_b += weights[k] * b.row(simplex[k].j).transpose();
  }
  out.distance = v.norm();
  out.intersecting = !(out.distance > 0.0);
  return out;
}

}  // namespace arena::sdrs
