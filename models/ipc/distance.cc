// Closest-feature classification and the smooth squared-distance pieces of IPC's contact pairs
// (Li et al., "Incremental Potential Contact", SIGGRAPH 2020, Sec. 4); derivations in the
// comments above each kernel, conventions in distance.h.
#include "models/ipc/distance.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace arena::ipc {

std::string_view ToString(PointEdgeType type) {
  switch (type) {
    case PointEdgeType::kVertex0: return "vertex0";
    case PointEdgeType::kVertex1: return "vertex1";
    case PointEdgeType::kInterior: return "interior";
  }
  return "?";
}

std::string_view ToString(PointTriangleType type) {
  switch (type) {
    case PointTriangleType::kVertex0: return "vertex0";
    case PointTriangleType::kVertex1: return "vertex1";
    case PointTriangleType::kVertex2: return "vertex2";
    case PointTriangleType::kEdge01: return "edge01";
    case PointTriangleType::kEdge12: return "edge12";
    case PointTriangleType::kEdge20: return "edge20";
    case PointTriangleType::kFace: return "face";
  }
  return "?";
}

std::string_view ToString(EdgeEdgeType type) {
  switch (type) {
    case EdgeEdgeType::kA0B0: return "a0_b0";
    case EdgeEdgeType::kA0B1: return "a0_b1";
    case EdgeEdgeType::kA1B0: return "a1_b0";
    case EdgeEdgeType::kA1B1: return "a1_b1";
    case EdgeEdgeType::kA0EdgeB: return "a0_edge_b";
    case EdgeEdgeType::kA1EdgeB: return "a1_edge_b";
    case EdgeEdgeType::kB0EdgeA: return "b0_edge_a";
    case EdgeEdgeType::kB1EdgeA: return "b1_edge_a";
    case EdgeEdgeType::kEdgeEdge: return "edge_edge";
  }
  return "?";
}

namespace {

Mat3 Skew(const Vec3& v) {
  Mat3 s;
  s << 0.0, -v.z(), v.y(), v.z(), 0.0, -v.x(), -v.y(), v.x(), 0.0;
  return s;
}

// Chain rule through a linear change of variables: kernel variable i (a 3-vector) is
// sum_k C(i, k) x_k of the stencil vertices x_k, so the stencil gradient block k is
// sum_i C(i, k) g_i and the Hessian block (k, l) is sum_ij C(i, k) C(j, l) H_ij.
template <int NV, int NX>
void ToStencil(const Eigen::Matrix<double, NV, NX>& c,
               const Eigen::Matrix<double, 3 * NV, 1>& g_var,
               const Eigen::Matrix<double, 3 * NV, 3 * NV>* h_var,
               Eigen::Matrix<double, 3 * NX, 1>* g, Eigen::Matrix<double, 3 * NX, 3 * NX>* h) {
  if (g != nullptr) {
    g->setZero();
    for (int k = 0; k < NX; ++k) {
      for (int i = 0; i < NV; ++i) {
        if (c(i, k) != 0.0)
          g->template segment<3>(3 * k) += c(i, k) * g_var.template segment<3>(3 * i);
      }
    }
  }
  if (h != nullptr) {
    h->setZero();
    for (int k = 0; k < NX; ++k) {
      for (int l = 0; l < NX; ++l) {
        for (int i = 0; i < NV; ++i) {
          if (c(i, k) == 0.0) continue;
          for (int j = 0; j < NV; ++j) {
            if (c(j, l) == 0.0) continue;
            h->template block<3, 3>(3 * k, 3 * l) +=
                (c(i, k) * c(j, l)) * h_var->template block<3, 3>(3 * i, 3 * j);
          }
        }
      }
    }
  }
}

// Scatters the derivatives of a piece on a sub-stencil (its vertices are stencil vertices
// `index[0..NS)`) into the full stencil.
template <int NS, int NX>
void Scatter(const std::array<int, NS>& index, const Eigen::Matrix<double, 3 * NS, 1>& g_sub,
             const Eigen::Matrix<double, 3 * NS, 3 * NS>& h_sub,
             Eigen::Matrix<double, 3 * NX, 1>* g, Eigen::Matrix<double, 3 * NX, 3 * NX>* h) {
  if (g != nullptr) {
    g->setZero();
    for (int i = 0; i < NS; ++i)
      g->template segment<3>(3 * index[i]) = g_sub.template segment<3>(3 * i);
  }
  if (h != nullptr) {
    h->setZero();
    for (int i = 0; i < NS; ++i) {
      for (int j = 0; j < NS; ++j) {
        h->template block<3, 3>(3 * index[i], 3 * index[j]) =
            h_sub.template block<3, 3>(3 * i, 3 * j);
      }
    }
  }
}

// d(r, e) = |r x e|^2 / |e|^2: squared distance of the point r from the line through the
// origin along e. With t = r.e / |e|^2, w = r - t e (the perpendicular from the line to the point)
// and P = I - e e^T / |e|^2:
//   d_r = 2 w,  d_e = -2 t w,
//   d_rr = 2 P,  d_re = -2 t P - 2 e w^T / |e|^2,
//   d_ee = 2 t^2 P + 2 t (w e^T + e w^T) / |e|^2 - 2 w w^T / |e|^2.
// The value uses the cross product, which keeps full relative accuracy when the point is close
// to the line far from its origin (|r|^2 - (r.e)^2/|e|^2 would cancel).
double PointLineKernel(const Vec3& r, const Vec3& e, Vec6* g, Mat6* h) {
  const double beta = e.squaredNorm();
  const double value = r.cross(e).squaredNorm() / beta;
  if (g == nullptr && h == nullptr) return value;
  const double t = r.dot(e) / beta;
  const Vec3 w = r - t * e;
  if (g != nullptr) {
    g->head<3>() = 2.0 * w;
    g->tail<3>() = -2.0 * t * w;
  }
  if (h != nullptr) {
    const Mat3 p = Mat3::Identity() - e * e.transpose() / beta;
    const Mat3 h_re = -2.0 * t * p - 2.0 * e * w.transpose() / beta;
    h->block<3, 3>(0, 0) = 2.0 * p;
    h->block<3, 3>(0, 3) = h_re;
    h->block<3, 3>(3, 0) = h_re.transpose();
    h->block<3, 3>(3, 3) = 2.0 * t * t * p +
                           2.0 * t * (w * e.transpose() + e * w.transpose()) / beta -
                           2.0 * w * w.transpose() / beta;
  }
  return value;
}

// d(r, a, b) = s^2 / nu with n = a x b, s = r . n, nu = |n|^2: the squared distance of the point
// r from the plane through the origin spanned by a and b (point-plane with r = p - t0; line-line
// with r = eb0 - ea0). Gradients of s and nu in (r, a, b):
//   s_r = n, s_a = b x r, s_b = r x a;   nu_a = 2 b x n, nu_b = 2 n x a,
// Hessians ([v] is the cross-product matrix):
//   s_ra = -[b], s_rb = [a], s_ab = -[r];   nu_aa = -2 [b]^2, nu_bb = -2 [a]^2,
//   nu_ab = 2 (-[n] + [b][a]);
// and the quotient rule d'' = 2/nu s' s'^T + 2s/nu s'' - 2s/nu^2 (s' nu'^T + nu' s'^T)
//   + 2 s^2/nu^3 nu' nu'^T - s^2/nu^2 nu''.
double PlaneKernel(const Vec3& r, const Vec3& a, const Vec3& b, Vec9* g, Mat9* h) {
  const Vec3 n = a.cross(b);
  const double nu = n.squaredNorm();
  const double s = r.dot(n);
  const double value = s * s / nu;
  if (g == nullptr && h == nullptr) return value;
  Vec9 gs, gn;
  gs << n, b.cross(r), r.cross(a);
  gn << Vec3::Zero(), 2.0 * b.cross(n), 2.0 * n.cross(a);
  const double s_nu = s / nu, s2_nu2 = s_nu * s_nu;
  if (g != nullptr) *g = 2.0 * s_nu * gs - s2_nu2 * gn;
  if (h != nullptr) {
    const Mat3 sa = Skew(a), sb = Skew(b), sr = Skew(r), sn = Skew(n);
    Mat9 hs = Mat9::Zero();
    hs.block<3, 3>(0, 3) = -sb;
    hs.block<3, 3>(3, 0) = sb;
    hs.block<3, 3>(0, 6) = sa;
    hs.block<3, 3>(6, 0) = -sa;
    hs.block<3, 3>(3, 6) = -sr;
    hs.block<3, 3>(6, 3) = sr;
    Mat9 hn = Mat9::Zero();
    hn.block<3, 3>(3, 3) = -2.0 * sb * sb;
    hn.block<3, 3>(6, 6) = -2.0 * sa * sa;
    const Mat3 ab = 2.0 * (sb * sa - sn);
    hn.block<3, 3>(3, 6) = ab;
    hn.block<3, 3>(6, 3) = ab.transpose();
    const Vec9 mixed = gs * (1.0 / nu);
    *h = (2.0 / nu) * gs * gs.transpose() + 2.0 * s_nu * hs -
         2.0 * s_nu * (mixed * gn.transpose() + gn * mixed.transpose()) +
         2.0 * s2_nu2 / nu * gn * gn.transpose() - s2_nu2 * hn;
  }
  return value;
}

// nu(a, b) = |a x b|^2 with the derivatives listed above PlaneKernel.
double CrossNormKernel(const Vec3& a, const Vec3& b, Vec6* g, Mat6* h) {
  const Vec3 n = a.cross(b);
  if (g != nullptr) *g << 2.0 * b.cross(n), 2.0 * n.cross(a);
  if (h != nullptr) {
    const Mat3 sa = Skew(a), sb = Skew(b), sn = Skew(n);
    const Mat3 ab = 2.0 * (sb * sa - sn);
    h->block<3, 3>(0, 0) = -2.0 * sb * sb;
    h->block<3, 3>(3, 3) = -2.0 * sa * sa;
    h->block<3, 3>(0, 3) = ab;
    h->block<3, 3>(3, 0) = ab.transpose();
  }
  return n.squaredNorm();
}

// Point-edge types of the four vertex-edge pairs of an edge-edge stencil, as edge-edge types.
constexpr EdgeEdgeType kVertexEdgeTypes[4][3] = {
    // ea0 against b: closest to eb0, to eb1, or b's interior
    {EdgeEdgeType::kA0B0, EdgeEdgeType::kA0B1, EdgeEdgeType::kA0EdgeB},
    {EdgeEdgeType::kA1B0, EdgeEdgeType::kA1B1, EdgeEdgeType::kA1EdgeB},
    // eb0 against a: closest to ea0, to ea1, or a's interior
    {EdgeEdgeType::kA0B0, EdgeEdgeType::kA1B0, EdgeEdgeType::kB0EdgeA},
    {EdgeEdgeType::kA0B1, EdgeEdgeType::kA1B1, EdgeEdgeType::kB1EdgeA},
};

// Parameter of the point of segment e0 e1 closest to p, clamped to [0, 1] (0 for e0 == e1).
double SegmentParameter(const Vec3& p, const Vec3& e0, const Vec3& e1) {
  const Vec3 e = e1 - e0;
  const double beta = e.squaredNorm();
  if (!(beta > 0.0)) return 0.0;
  return std::clamp((p - e0).dot(e) / beta, 0.0, 1.0);
}

// Closest-point parameters (s on a, t on b) of the lines through ea0 ea1 and eb0 eb1:
// s = ((r x b) . n) / |n|^2, t = ((r x a) . n) / |n|^2 with r = eb0 - ea0 and n = a x b.
Vec2 LineLineParameters(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1) {
  const Vec3 a = ea1 - ea0, b = eb1 - eb0, r = eb0 - ea0;
  const Vec3 n = a.cross(b);
  const double nu = n.squaredNorm();
  return Vec2(r.cross(b).dot(n) / nu, r.cross(a).dot(n) / nu);
}

}  // namespace

// ---- Pieces

double PointPointSquaredDistance(const Vec3& p0, const Vec3& p1, Vec6* gradient, Mat6* hessian) {
  const Vec3 d = p0 - p1;
  if (gradient != nullptr) *gradient << 2.0 * d, -2.0 * d;
  if (hessian != nullptr) {
    hessian->setZero();
    hessian->block<3, 3>(0, 0) = hessian->block<3, 3>(3, 3) = 2.0 * Mat3::Identity();
    hessian->block<3, 3>(0, 3) = hessian->block<3, 3>(3, 0) = -2.0 * Mat3::Identity();
  }
  return d.squaredNorm();
}

// The three pieces below evaluate their kernel not at r = p - e0 (p - t0, eb0 - ea0) but at
// r' = the offset from the foot of the common perpendicular (the closest point on the line or
// plane, or on the other line). The kernels see r only through its component normal to e (to a
// and b), so r' gives the same function of the vertices, and holding the foot's weights
// constant in the chain rule is exact for the same reason. Numerically, the rounding of a nearly
// degenerate normal direction then multiplies the short |r'| instead of the long |r|: nearly
// parallel line-line pairs in generic coordinates keep ~1e-14 relative accuracy instead of
// ~1e-8 (measured at theta = 1e-7).

double PointLineSquaredDistance(const Vec3& p, const Vec3& e0, const Vec3& e1, Vec9* gradient,
                                Mat9* hessian) {
  const Vec3 e = e1 - e0;
  const double t = (p - e0).dot(e) / e.squaredNorm();  // foot: (1 - t) e0 + t e1
  Vec6 g;
  Mat6 h;
  const double value = PointLineKernel(p - ((1.0 - t) * e0 + t * e1), e, gradient ? &g : nullptr,
                                       hessian ? &h : nullptr);
  if (gradient != nullptr || hessian != nullptr) {
    Eigen::Matrix<double, 2, 3> c;
    c << 1, -(1.0 - t), -t,  // r' = p - foot
        0, -1, 1;            // e = e1 - e0
    ToStencil<2, 3>(c, g, &h, gradient, hessian);
  }
  return value;
}

double PointPlaneSquaredDistance(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2,
                                 Vec12* gradient, Mat12* hessian) {
  const Vec3 a = t1 - t0, b = t2 - t0, r = p - t0;
  const Vec3 n = a.cross(b);
  const double nu = n.squaredNorm();
  // Foot t0 + b1 a + b2 b: b1 = ((r x b) . n) / |n|^2, b2 = ((a x r) . n) / |n|^2.
  const double b1 = r.cross(b).dot(n) / nu, b2 = a.cross(r).dot(n) / nu;
  Vec9 g;
  Mat9 h;
  const double value =
      PlaneKernel(r - b1 * a - b2 * b, a, b, gradient ? &g : nullptr, hessian ? &h : nullptr);
  if (gradient != nullptr || hessian != nullptr) {
    Eigen::Matrix<double, 3, 4> c;
    c << 1, -(1.0 - b1 - b2), -b1, -b2,  // r' = p - foot
        0, -1, 1, 0,                     // a = t1 - t0
        0, -1, 0, 1;                     // b = t2 - t0
    ToStencil<3, 4>(c, g, &h, gradient, hessian);
  }
  return value;
}

double LineLineSquaredDistance(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                               Vec12* gradient, Mat12* hessian) {
  const Vec2 st = LineLineParameters(ea0, ea1, eb0, eb1);
  const double s = st[0], t = st[1];  // closest points ea0 + s a and eb0 + t b
  const Vec3 a = ea1 - ea0, b = eb1 - eb0;
  Vec9 g;
  Mat9 h;
  const double value = PlaneKernel((eb0 + t * b) - (ea0 + s * a), a, b, gradient ? &g : nullptr,
                                   hessian ? &h : nullptr);
  if (gradient != nullptr || hessian != nullptr) {
    Eigen::Matrix<double, 3, 4> c;
    c << -(1.0 - s), -s, 1.0 - t, t,  // r' = closest point on b - closest point on a
        -1, 1, 0, 0,                  // a = ea1 - ea0
        0, 0, -1, 1;                  // b = eb1 - eb0
    ToStencil<3, 4>(c, g, &h, gradient, hessian);
  }
  return value;
}

double EdgeEdgeCrossSquaredNorm(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                                Vec12* gradient, Mat12* hessian) {
  Vec6 g;
  Mat6 h;
  const double value =
      CrossNormKernel(ea1 - ea0, eb1 - eb0, gradient ? &g : nullptr, hessian ? &h : nullptr);
  if (gradient != nullptr || hessian != nullptr) {
    Eigen::Matrix<double, 2, 4> c;
    c << -1, 1, 0, 0,  // a = ea1 - ea0
        0, 0, -1, 1;   // b = eb1 - eb0
    ToStencil<2, 4>(c, g, &h, gradient, hessian);
  }
  return value;
}

// ---- Classification

PointEdgeType ClassifyPointEdge(const Vec3& p, const Vec3& e0, const Vec3& e1) {
  const Vec3 e = e1 - e0;
  const double beta = e.squaredNorm();
  if (!(beta > 0.0)) return PointEdgeType::kVertex0;
  const double t = (p - e0).dot(e) / beta;
  if (t <= 0.0) return PointEdgeType::kVertex0;
  if (t >= 1.0) return PointEdgeType::kVertex1;
  return PointEdgeType::kInterior;
}

PointTriangleType ClassifyPointTriangle(const Vec3& p, const Vec3& t0, const Vec3& t1,
                                        const Vec3& t2) {
  const std::array<const Vec3*, 3> t = {&t0, &t1, &t2};
  const Vec3 n = (t1 - t0).cross(t2 - t0);
  const double longest2 =
      std::max({(t1 - t0).squaredNorm(), (t2 - t1).squaredNorm(), (t0 - t2).squaredNorm()});
  if (n.squaredNorm() > kDegenerateTriangleThreshold * longest2 * longest2) {
    // Face region: the projection of p lies strictly inside every edge (the sign of
    // ((t_j - t_i) x (p - t_i)) . n does not depend on p's height above the plane).
    bool inside = true;
    for (int i = 0; i < 3 && inside; ++i) {
      const Vec3& u = *t[i];
      const Vec3& v = *t[(i + 1) % 3];
      inside = (v - u).cross(p - u).dot(n) > 0.0;
    }
    if (inside) return PointTriangleType::kFace;
  }
  // Otherwise the closest point is on the boundary: the nearest of the three edges.
  constexpr PointTriangleType kEdgeTypes[3][3] = {
      {PointTriangleType::kVertex0, PointTriangleType::kVertex1, PointTriangleType::kEdge01},
      {PointTriangleType::kVertex1, PointTriangleType::kVertex2, PointTriangleType::kEdge12},
      {PointTriangleType::kVertex2, PointTriangleType::kVertex0, PointTriangleType::kEdge20},
  };
  double best = std::numeric_limits<double>::infinity();
  PointTriangleType best_type = PointTriangleType::kVertex0;
  for (int i = 0; i < 3; ++i) {
    const Vec3& u = *t[i];
    const Vec3& v = *t[(i + 1) % 3];
    const PointEdgeType pe = ClassifyPointEdge(p, u, v);
    const double d = PointEdgeSquaredDistance(p, u, v, pe);
    if (d < best) {
      best = d;
      best_type = kEdgeTypes[i][static_cast<int>(pe)];
    }
  }
  return best_type;
}

EdgeEdgeType ClassifyEdgeEdge(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1) {
  // The segment distance is attained either at interior points of both (then it is the
  // line-line distance) or on the boundary of the parameter square, i.e. at an endpoint of one
  // segment against the other segment: the least of four point-edge distances.
  const std::array<const Vec3*, 4> point = {&ea0, &ea1, &eb0, &eb1};
  const std::array<const Vec3*, 4> edge0 = {&eb0, &eb0, &ea0, &ea0};
  const std::array<const Vec3*, 4> edge1 = {&eb1, &eb1, &ea1, &ea1};
  double best = std::numeric_limits<double>::infinity();
  EdgeEdgeType best_type = EdgeEdgeType::kA0B0;
  for (int i = 0; i < 4; ++i) {
    const PointEdgeType pe = ClassifyPointEdge(*point[i], *edge0[i], *edge1[i]);
    const double d = PointEdgeSquaredDistance(*point[i], *edge0[i], *edge1[i], pe);
    if (d < best) {
      best = d;
      best_type = kVertexEdgeTypes[i][static_cast<int>(pe)];
    }
  }
  const Vec3 a = ea1 - ea0, b = eb1 - eb0;
  const double nu = a.cross(b).squaredNorm();
  if (nu > kParallelThreshold * a.squaredNorm() * b.squaredNorm()) {
    const Vec2 st = LineLineParameters(ea0, ea1, eb0, eb1);
    if (st[0] > 0.0 && st[0] < 1.0 && st[1] > 0.0 && st[1] < 1.0 &&
        LineLineSquaredDistance(ea0, ea1, eb0, eb1) <= best) {
      return EdgeEdgeType::kEdgeEdge;
    }
  }
  return best_type;
}

// ---- Piecewise distances

double PointEdgeSquaredDistance(const Vec3& p, const Vec3& e0, const Vec3& e1, PointEdgeType type,
                                Vec9* gradient, Mat9* hessian) {
  if (type == PointEdgeType::kInterior)
    return PointLineSquaredDistance(p, e0, e1, gradient, hessian);
  const bool at0 = type == PointEdgeType::kVertex0;
  Vec6 g;
  Mat6 h;
  const bool derivatives = gradient != nullptr || hessian != nullptr;
  const double value = PointPointSquaredDistance(p, at0 ? e0 : e1, derivatives ? &g : nullptr,
                                                 hessian ? &h : nullptr);
  if (derivatives) Scatter<2, 3>({0, at0 ? 1 : 2}, g, h, gradient, hessian);
  return value;
}

double PointEdgeSquaredDistance(const Vec3& p, const Vec3& e0, const Vec3& e1, Vec9* gradient,
                                Mat9* hessian) {
  return PointEdgeSquaredDistance(p, e0, e1, ClassifyPointEdge(p, e0, e1), gradient, hessian);
}

double PointTriangleSquaredDistance(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2,
                                    PointTriangleType type, Vec12* gradient, Mat12* hessian) {
  const bool derivatives = gradient != nullptr || hessian != nullptr;
  const std::array<const Vec3*, 3> t = {&t0, &t1, &t2};
  switch (type) {
    case PointTriangleType::kVertex0:
    case PointTriangleType::kVertex1:
    case PointTriangleType::kVertex2: {
      const int i = static_cast<int>(type) - static_cast<int>(PointTriangleType::kVertex0);
      Vec6 g;
      Mat6 h;
      const double value =
          PointPointSquaredDistance(p, *t[i], derivatives ? &g : nullptr, hessian ? &h : nullptr);
      if (derivatives) Scatter<2, 4>({0, 1 + i}, g, h, gradient, hessian);
      return value;
    }
    case PointTriangleType::kEdge01:
    case PointTriangleType::kEdge12:
    case PointTriangleType::kEdge20: {
      const int i = static_cast<int>(type) - static_cast<int>(PointTriangleType::kEdge01);
      const int j = (i + 1) % 3;
      Vec9 g;
      Mat9 h;
      const double value = PointLineSquaredDistance(p, *t[i], *t[j], derivatives ? &g : nullptr,
                                                    hessian ? &h : nullptr);
      if (derivatives) Scatter<3, 4>({0, 1 + i, 1 + j}, g, h, gradient, hessian);
      return value;
    }
    case PointTriangleType::kFace:
      return PointPlaneSquaredDistance(p, t0, t1, t2, gradient, hessian);
  }
  return std::numeric_limits<double>::quiet_NaN();
}

double PointTriangleSquaredDistance(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2,
                                    Vec12* gradient, Mat12* hessian) {
  return PointTriangleSquaredDistance(p, t0, t1, t2, ClassifyPointTriangle(p, t0, t1, t2), gradient,
                                      hessian);
}

double EdgeEdgeSquaredDistance(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                               EdgeEdgeType type, Vec12* gradient, Mat12* hessian) {
  const bool derivatives = gradient != nullptr || hessian != nullptr;
  const std::array<const Vec3*, 4> x = {&ea0, &ea1, &eb0, &eb1};
  switch (type) {
    case EdgeEdgeType::kA0B0:
    case EdgeEdgeType::kA0B1:
    case EdgeEdgeType::kA1B0:
    case EdgeEdgeType::kA1B1: {
      const int k = static_cast<int>(type) - static_cast<int>(EdgeEdgeType::kA0B0);
      const int i = k / 2, j = 2 + k % 2;
      Vec6 g;
      Mat6 h;
      const double value = PointPointSquaredDistance(*x[i], *x[j], derivatives ? &g : nullptr,
                                                     hessian ? &h : nullptr);
      if (derivatives) Scatter<2, 4>({i, j}, g, h, gradient, hessian);
      return value;
    }
    case EdgeEdgeType::kA0EdgeB:
    case EdgeEdgeType::kA1EdgeB:
    case EdgeEdgeType::kB0EdgeA:
    case EdgeEdgeType::kB1EdgeA: {
      const int k = static_cast<int>(type) - static_cast<int>(EdgeEdgeType::kA0EdgeB);
      // Point k of (ea0, ea1, eb0, eb1) against the other edge.
      const std::array<int, 3> index =
          k < 2 ? std::array<int, 3>{k, 2, 3} : std::array<int, 3>{k, 0, 1};
      Vec9 g;
      Mat9 h;
      const double value =
          PointLineSquaredDistance(*x[index[0]], *x[index[1]], *x[index[2]],
                                   derivatives ? &g : nullptr, hessian ? &h : nullptr);
      if (derivatives) Scatter<3, 4>(index, g, h, gradient, hessian);
      return value;
    }
    case EdgeEdgeType::kEdgeEdge:
      return LineLineSquaredDistance(ea0, ea1, eb0, eb1, gradient, hessian);
  }
  return std::numeric_limits<double>::quiet_NaN();
}

double EdgeEdgeSquaredDistance(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                               Vec12* gradient, Mat12* hessian) {
  return EdgeEdgeSquaredDistance(ea0, ea1, eb0, eb1, ClassifyEdgeEdge(ea0, ea1, eb0, eb1), gradient,
                                 hessian);
}

// ---- Closest points as stencil weights

Vec4 PointTriangleClosestWeights(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2,
                                 PointTriangleType type) {
  const std::array<const Vec3*, 3> t = {&t0, &t1, &t2};
  Vec4 w = Vec4::Zero();
  w[0] = 1.0;
  switch (type) {
    case PointTriangleType::kVertex0:
    case PointTriangleType::kVertex1:
    case PointTriangleType::kVertex2:
      w[1 + static_cast<int>(type) - static_cast<int>(PointTriangleType::kVertex0)] = -1.0;
      break;
    case PointTriangleType::kEdge01:
    case PointTriangleType::kEdge12:
    case PointTriangleType::kEdge20: {
      const int i = static_cast<int>(type) - static_cast<int>(PointTriangleType::kEdge01);
      const int j = (i + 1) % 3;
      const double s = SegmentParameter(p, *t[i], *t[j]);
      w[1 + i] = -(1.0 - s);
      w[1 + j] = -s;
      break;
    }
    case PointTriangleType::kFace: {
      // Projection q = t0 + b1 a + b2 b: b1 = ((r x b) . n) / |n|^2, b2 = ((a x r) . n) / |n|^2.
      const Vec3 a = t1 - t0, b = t2 - t0, r = p - t0;
      const Vec3 n = a.cross(b);
      const double nu = n.squaredNorm();
      const double b1 = r.cross(b).dot(n) / nu, b2 = a.cross(r).dot(n) / nu;
      w[1] = -(1.0 - b1 - b2);
      w[2] = -b1;
      w[3] = -b2;
      break;
    }
  }
  return w;
}

Vec4 EdgeEdgeClosestWeights(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                            EdgeEdgeType type) {
  double s = 0.0, t = 0.0;  // closest points ea0 + s (ea1 - ea0) and eb0 + t (eb1 - eb0)
  switch (type) {
    case EdgeEdgeType::kA0B0: break;
    case EdgeEdgeType::kA0B1: t = 1.0; break;
    case EdgeEdgeType::kA1B0: s = 1.0; break;
    case EdgeEdgeType::kA1B1: s = t = 1.0; break;
    case EdgeEdgeType::kA0EdgeB: t = SegmentParameter(ea0, eb0, eb1); break;
    case EdgeEdgeType::kA1EdgeB:
      s = 1.0;
      t = SegmentParameter(ea1, eb0, eb1);
      break;
    case EdgeEdgeType::kB0EdgeA: s = SegmentParameter(eb0, ea0, ea1); break;
    case EdgeEdgeType::kB1EdgeA:
      t = 1.0;
      s = SegmentParameter(eb1, ea0, ea1);
      break;
    case EdgeEdgeType::kEdgeEdge: {
      const Vec2 st = LineLineParameters(ea0, ea1, eb0, eb1);
      s = std::clamp(st[0], 0.0, 1.0);
      t = std::clamp(st[1], 0.0, 1.0);
      break;
    }
  }
  return Vec4(1.0 - s, s, -(1.0 - t), -t);
}

}  // namespace arena::ipc
