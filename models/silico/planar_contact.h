// The single-level contact residual of one planar contact pair (seed 000, Silico eq. 20, in the
// exact form of the authors' released 2D code, which produced the figures), written once for
// any scalar type: double for the residual, forward-mode AutoDiff for its Jacobian.
//
// Pair: a "parent" shape P on a dynamic body and a "child" shape C on a dynamic body, fixed in
// the world, or the floor half-plane. Local inputs, in order:
//   x_P (3), v_P (3), x_C (3), v_C (3)   body poses (x, y, theta) at the END of the step and
//                                         midpoint velocities (x-dot, y-dot, theta-dot), world
//   c (2), alpha, aux_P, aux_C            contact point offset, scale, shape auxiliaries
//   gamma, psi, beta (2), lambda_alpha, lambda_P (m_P), lambda_C (m_C)   duals
// Outputs, in order:
//   w_P (3), w_C (3)   contact impulses (f_x, f_y, torque about the body origin) on each body
//   optimality rows    stationarity of the collision program in p (2), alpha (1), aux_P, aux_C
//   slackness rows     F such that F + s = 0, i.e. minus the constraint values:
//                      gap alpha - 1, friction cone mu gamma - beta1 - beta2, maximum
//                      dissipation (v_t + psi, -v_t + psi), alpha, g_P, g_C
// The contact point is p = c + (r_P + r_C)/2 (r = shape reference points), or c + r_P against
// the half-plane. The normals come from the collision duals, each shape its own (eq. 41,
// App. A: "significantly improves convergence"): n_P = dg_P/dp^T lambda_P points into P,
// n_C = -dg_C/dp^T lambda_C; both are left unnormalised as in the paper's code (|n| is the
// optimal-value sensitivity |d alpha / dx|), so gamma and beta are scaled impulses.
// Friction is the linearized 2D cone: tangent t = (n_y, -n_x), impulse on P = t (beta1 - beta2)
// + n gamma, on C the opposite with C's own normal.
#pragma once

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "models/silico/planar_shape.h"

namespace arena::silico {

/// Everything about one pair that does not change during a step.
struct PlanarPair {
  int collider_p = 0, collider_c = 0;  // scene collider indices
  int body_p = -1, body_c = -1;        // dynamic-body slots (-1: child fixed or floor)
  PlanarShape shape_p, shape_c;
  Vec3 placement_p = Vec3::Zero();     // shape frame in the body frame: (x, y, angle)
  Vec3 placement_c = Vec3::Zero();     // ... or in the world for a fixed child
  double friction = 0.5;
  // Offsets in the problem's y and z vectors.
  int y_offset = 0, z_offset = 0;

  bool child_is_floor() const { return !shape_c.scaled(); }
  /// A frictionless pair (mu = 0) keeps its friction variables in the cone of mu = 1 and applies
  /// none of them: the cone of mu = 0 (mu gamma >= beta1 + beta2, beta >= 0) has no strictly
  /// feasible point, and the interior point needs one.
  bool frictionless() const { return friction == 0.0; }
  double ConeFriction() const { return frictionless() ? 1.0 : friction; }
  int num_primals() const { return 3 + shape_p.num_aux() + shape_c.num_aux(); }
  int num_cone() const { return 5 + shape_p.num_rows() + shape_c.num_rows(); }
  int num_local() const { return 12 + num_primals() + num_cone(); }
  int num_outputs() const { return 6 + num_primals() + num_cone(); }
};

namespace detail {

template <class T>
T Cross2(const V2<T>& a, const V2<T>& b) { return a[0] * b[1] - a[1] * b[0]; }

// World pose of a shape frame: reference point r and angle, from the body pose (x, y, theta)
// and the placement (px, py, pangle) in the body frame.
template <class T>
void ShapePose(const T* x, const Vec3& placement, V2<T>* r, T* angle) {
  using std::cos, std::sin;
  const T c = cos(x[2]), s = sin(x[2]);
  (*r)[0] = x[0] + c * placement[0] - s * placement[1];
  (*r)[1] = x[1] + s * placement[0] + c * placement[1];
  *angle = x[2] + placement[2];
}

// g and the world-frame gradient dg/dp (rows x 2) of a shape at pose (r, angle).
template <class T>
void WorldConstraint(const PlanarShape& shape, const V2<T>& r, const T& angle, const V2<T>& p,
                     const T& alpha, const T* aux, T* g, T* dg_dpw, T* dg_dalpha, T* dg_daux) {
  using std::cos, std::sin;
  const T c = cos(angle), s = sin(angle);
  const V2<T> d = p - r;
  const V2<T> p_S(c * d[0] + s * d[1], -s * d[0] + c * d[1]);  // R^T (p - r)
  const int m = shape.num_rows();
  T dg_dpS[2 * kMaxShapeRows];
  EvaluateConstraint(shape, p_S, alpha, aux, g, dg_dpS, dg_dalpha, dg_daux);
  for (int i = 0; i < m; ++i) {  // dg/dp_w = dg/dp_S R^T
    dg_dpw[2 * i] = dg_dpS[2 * i] * c - dg_dpS[2 * i + 1] * s;
    dg_dpw[2 * i + 1] = dg_dpS[2 * i] * s + dg_dpS[2 * i + 1] * c;
  }
}

}  // namespace detail

/// Everything of the collision program at the body poses that does not involve the
/// multipliers: the contact point p and, per shape, g and its world-frame partials dg/dp,
/// dg/dalpha, dg/daux. The pair's residual is linear in each dual given the others (the
/// normals are linear in lambda, the impulses bilinear in (gamma, beta) and lambda), so the
/// step's Jacobian differentiates this part by AD over the geometry only (LocalJacobian in
/// planar_problem.cc) and fills the dual columns by hand from its values.
template <class T>
struct CollisionGeometry {
  V2<T> point;
  T g[2 * kMaxShapeRows];  // g_P then g_C
  T G_p[2 * kMaxShapeRows], Ga_p[kMaxShapeRows], Gx_p[kMaxShapeRows * kMaxShapeAux];
  T G_c[2 * kMaxShapeRows], Ga_c[kMaxShapeRows], Gx_c[kMaxShapeRows * kMaxShapeAux];
};

/// The geometry at the body poses x_P, x_C and the primals `y` = (c, alpha, aux_P, aux_C).
template <class T>
void EvaluateCollisionGeometry(const PlanarPair& pair, const T* x_p, const T* x_c, const T* y,
                               CollisionGeometry<T>* geo) {
  const int na_p = pair.shape_p.num_aux();
  const V2<T> c(y[0], y[1]);
  const T& alpha = y[2];
  const T* aux_p = y + 3;
  const T* aux_c = y + 3 + na_p;

  V2<T> r_p, r_c;
  T angle_p, angle_c;
  detail::ShapePose(x_p, pair.placement_p, &r_p, &angle_p);
  detail::ShapePose(x_c, pair.placement_c, &r_c, &angle_c);
  geo->point = pair.child_is_floor() ? V2<T>(c + r_p) : V2<T>(c + 0.5 * (r_p + r_c));
  const V2<T>& p = geo->point;
  detail::WorldConstraint(pair.shape_p, r_p, angle_p, p, alpha, aux_p, geo->g, geo->G_p, geo->Ga_p, geo->Gx_p);
  detail::WorldConstraint(pair.shape_c, r_c, angle_c, p, alpha, aux_c, geo->g + pair.shape_p.num_rows(), geo->G_c,
                          geo->Ga_c, geo->Gx_c);
}

/// The stationarity rows (2 + 1 + aux) of the collision program's Lagrangian alpha - lambda^T g
/// at `geo` and the multipliers `lambda` = (lambda_P, lambda_C), and both normals. `L` is T, or
/// double when T differentiates the geometry only.
template <class T, class L>
void StationarityRows(const PlanarPair& pair, const CollisionGeometry<T>& geo, const L* lambda, T* opt, V2<T>* n_p,
                      V2<T>* n_c) {
  const int na_p = pair.shape_p.num_aux(), na_c = pair.shape_c.num_aux();
  const int m_p = pair.shape_p.num_rows(), m_c = pair.shape_c.num_rows();
  const L* lambda_p = lambda;
  const L* lambda_c = lambda + m_p;

  // Stationarity of the Lagrangian alpha - lambda^T g (lambda_alpha is left out of the alpha
  // row as in the authors' code; App. A eq. 26 has it) and the two normals.
  V2<T> np(T(0.0), T(0.0)), nc(T(0.0), T(0.0));
  T d_alpha = T(1.0);
  for (int i = 0; i < m_p; ++i) {
    np[0] += geo.G_p[2 * i] * lambda_p[i];
    np[1] += geo.G_p[2 * i + 1] * lambda_p[i];
    d_alpha -= geo.Ga_p[i] * lambda_p[i];
  }
  for (int i = 0; i < m_c; ++i) {
    nc[0] -= geo.G_c[2 * i] * lambda_c[i];
    nc[1] -= geo.G_c[2 * i + 1] * lambda_c[i];
    d_alpha -= geo.Ga_c[i] * lambda_c[i];
  }
  opt[0] = np[0] - nc[0];  // = dg_P/dp^T lambda_P + dg_C/dp^T lambda_C
  opt[1] = np[1] - nc[1];
  opt[2] = d_alpha;
  for (int j = 0; j < na_p; ++j) {
    T sum = T(0.0);
    for (int i = 0; i < m_p; ++i) sum += geo.Gx_p[i * na_p + j] * lambda_p[i];
    opt[3 + j] = sum;
  }
  for (int j = 0; j < na_c; ++j) {
    T sum = T(0.0);
    for (int i = 0; i < m_c; ++i) sum += geo.Gx_c[i * na_c + j] * lambda_c[i];
    opt[3 + na_p + j] = sum;
  }
  *n_p = np;
  *n_c = nc;
}

/// The collision program of a pair at the body poses x_P, x_C (Sec. IV-A, the KKT conditions
/// of min alpha s.t. g_P >= 0, g_C >= 0): `y` = (c, alpha, aux_P, aux_C), `lambda` = (lambda_P,
/// lambda_C). Writes the stationarity rows (2 + 1 + aux) to `opt`, the constraint values
/// (g_P then g_C) to `g`, the contact point and both normals.
template <class T>
void CollisionKkt(const PlanarPair& pair, const T* x_p, const T* x_c, const T* y, const T* lambda,
                  T* opt, T* g, V2<T>* point, V2<T>* n_p, V2<T>* n_c) {
  CollisionGeometry<T> geo;
  EvaluateCollisionGeometry(pair, x_p, x_c, y, &geo);
  StationarityRows(pair, geo, lambda, opt, n_p, n_c);
  const int m = pair.shape_p.num_rows() + pair.shape_c.num_rows();
  for (int i = 0; i < m; ++i) g[i] = geo.g[i];
  *point = geo.point;
}

/// Where and how the bodies touch in a pair's residual (values): the contact point p, the
/// normals (unnormalised, see the file comment), the lever arms p - x and the velocities of the
/// bodies' material points at p.
struct ContactFrame {
  Vec2 point, n_p, n_c, arm_p, arm_c, vel_p, vel_c;
};

namespace detail {

// The value of a double or of a forward-mode AD scalar.
template <class T>
double ValueOf(const T& x) {
  if constexpr (std::is_arithmetic_v<T>) {
    return x;
  } else {
    return x.value();
  }
}
template <class T>
Vec2 ValueOf(const V2<T>& v) { return Vec2(ValueOf(v[0]), ValueOf(v[1])); }

}  // namespace detail

/// The pair's residual rows from its geometry (see the file comment for the layout of `in` and
/// `out`; `in`'s duals are read from `z` instead, of type D = T, or double when T
/// differentiates the geometry only). Writes the contact frame to `frame` if non-null.
template <class T, class D>
void ContactRows(const PlanarPair& pair, const CollisionGeometry<T>& geo, const T* in, const D* z, T* out,
                 ContactFrame* frame = nullptr) {
  using detail::Cross2;
  const T* x_p = in;
  const T* v_p = in + 3;
  const T* x_c = in + 6;
  const T* v_c = in + 9;
  const T* y = in + 12;
  const int m_p = pair.shape_p.num_rows(), m_c = pair.shape_c.num_rows();
  const T& alpha = y[2];
  const D& gamma = z[0];
  const D& psi = z[1];
  const D& beta1 = z[2];
  const D& beta2 = z[3];

  T* opt = out + 6;
  V2<T> n_p, n_c;
  StationarityRows(pair, geo, z + 5, opt, &n_p, &n_c);
  const V2<T>& p = geo.point;

  // Against the floor only the parent's normal is used (the child does not move).
  if (pair.child_is_floor()) n_c = n_p;
  const V2<T> t_p(n_p[1], -n_p[0]);
  const V2<T> t_c(n_c[1], -n_c[0]);

  // Relative tangential velocity at p, each body with its own tangent (as in the authors' code).
  const V2<T> arm_p(p[0] - x_p[0], p[1] - x_p[1]);
  const V2<T> arm_c(p[0] - x_c[0], p[1] - x_c[1]);
  const V2<T> vp(v_p[0] - v_p[2] * arm_p[1], v_p[1] + v_p[2] * arm_p[0]);
  const V2<T> vc(v_c[0] - v_c[2] * arm_c[1], v_c[1] + v_c[2] * arm_c[0]);
  const T v_t = vp.dot(t_p) - vc.dot(t_c);

  T* slack = opt + pair.num_primals();
  slack[0] = -(alpha - 1.0);
  slack[1] = -(pair.ConeFriction() * gamma - beta1 - beta2);
  slack[2] = -(v_t + psi);
  slack[3] = -(-v_t + psi);
  slack[4] = -alpha;
  for (int i = 0; i < m_p + m_c; ++i) slack[5 + i] = -geo.g[i];

  // Impulses (not forces: no dt factor, as in the authors' code and App. C eq. 58).
  const D beta = pair.frictionless() ? D(0.0) : D(beta1 - beta2);
  const V2<T> f_p = t_p * beta + n_p * gamma;
  const V2<T> f_c = -(t_c * beta + n_c * gamma);
  out[0] = f_p[0];
  out[1] = f_p[1];
  out[2] = Cross2(arm_p, f_p);
  out[3] = f_c[0];
  out[4] = f_c[1];
  out[5] = Cross2(arm_c, f_c);
  if (frame != nullptr) {
    using detail::ValueOf;
    *frame = {ValueOf(p), ValueOf(n_p), ValueOf(n_c), ValueOf(arm_p), ValueOf(arm_c), ValueOf(vp), ValueOf(vc)};
  }
}

/// The pair's residual block (see the file comment for the layout of `in` and `out`).
template <class T>
void PlanarContactResidual(const PlanarPair& pair, const T* in, T* out) {
  CollisionGeometry<T> geo;
  EvaluateCollisionGeometry(pair, in, in + 6, in + 12, &geo);
  ContactRows(pair, geo, in, in + 12 + pair.num_primals(), out);
}

}  // namespace arena::silico
