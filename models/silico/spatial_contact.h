// The single-level contact residual of one spatial (3D) contact pair (seed 000, Silico eq. 20),
// the planar structure of planar_contact.h lifted to 3D, written once for any scalar type:
// double for the residual, forward-mode AutoDiff (fixed-size derivatives) for its Jacobian.
//
// Pair: a "parent" shape P on a free body and a "child" shape C on a free body, fixed in the
// world, or the floor half-space. Local inputs, in order:
//   v_P (3), w_P (3), v_C (3), w_C (3)   midpoint velocities of the bodies: v25 (world, linear)
//                                         and omega25 (body frame, angular). The end poses are
//                                         computed inside from the start poses (SpatialStart):
//                                         p3 = p2 + dt v25, q3 = q2 (x) (dt/2)[sqrt(4/dt^2 -
//                                         |omega25|^2); omega25], so the Jacobian differentiates
//                                         through the quaternion update.
//   y: c (3), alpha, aux_P, aux_C [, psi (soc friction only)]
//   z: orthant duals, then (soc friction only) the second-order block (beta0, beta_t (2))
//      pyramid: gamma, psi, beta (4), lambda_alpha, lambda_P (m_P), lambda_C (m_C)
//      soc:     gamma, lambda_alpha, lambda_P (m_P), lambda_C (m_C) | beta0, beta1, beta2
// Outputs, in order:
//   f_P (3, world), tau_P (3, body frame at q3), f_C, tau_C   contact impulses about each COM
//   optimality rows: stationarity of the collision program in p (3), alpha (1), aux_P, aux_C,
//                    [soc: mu gamma - beta0 = 0]
//   slackness rows F = -g (F + s = 0), in the order of z:
//      pyramid: gap alpha - 1, friction cone mu gamma - sum beta, maximum dissipation
//               (v_t1 + psi, -v_t1 + psi, v_t2 + psi, -v_t2 + psi), alpha, g_P, g_C
//      soc:     gap alpha - 1, alpha, g_P, g_C | (psi, v_t1, v_t2)
// In the soc variant the Jordan complementarity (beta0, beta_t) o (psi, v_t) = rho e encodes
// |beta_t| <= beta0 = mu gamma and maximum dissipation (beta_t = -beta0 v_t / |v_t| when
// sliding), as in Dojo's nonlinear contact.
// The contact point is p = c + (r_P + r_C)/2, or c + r_P against the half-space. Normals come
// from the collision duals, each body its own (eq. 41): n_P = dg_P/dp^T lambda_P,
// n_C = -dg_C/dp^T lambda_C (the floor: n_C = n_P), unnormalised as in the planar code. The
// tangents t1 (Gram-Schmidt of e_x, or e_y when |n_x| dominates, against n) and t2 = n x t1 / |n|
// have |t1| = |t2| = |n|, so beta is scaled like gamma. The tangential velocity is the plain
// relative velocity of the contact point (no (1 - v.n) scaling, no torsional drag: those were
// bugs of the paper's 3D code).
#pragma once

#include <algorithm>
#include <cmath>

#include "models/silico/spatial_shape.h"

namespace arena::silico {

template <class T> using M3 = Eigen::Matrix<T, 3, 3>;

enum class FrictionCone { kPyramid, kSoc };

struct SpatialPair {
  int collider_p = 0, collider_c = 0;
  int body_p = -1, body_c = -1;        // free-body slots (-1: child fixed or floor)
  SpatialShape shape_p, shape_c;
  Vec3 offset_p = Vec3::Zero();        // shape frame in the body frame (reference point) ...
  Mat3 rot_p = Mat3::Identity();
  Vec3 offset_c = Vec3::Zero();        // ... or in the world for a fixed child
  Mat3 rot_c = Mat3::Identity();
  double friction = 0.5;
  FrictionCone cone = FrictionCone::kPyramid;
  int y_offset = 0, z_offset = 0, soc_offset = 0;  // soc_offset: index in z of the SOC block

  bool child_is_floor() const { return !shape_c.scaled(); }
  /// A frictionless pair (mu = 0) keeps its friction variables in the cone of mu = 1 and applies
  /// none of them: at mu = 0 the cone (mu gamma >= sum beta, beta >= 0; soc: beta0 = mu gamma >=
  /// |beta_t|) has no strictly feasible point, and the interior point needs one.
  bool frictionless() const { return friction == 0.0; }
  double ConeFriction() const { return frictionless() ? 1.0 : friction; }
  bool soc() const { return cone == FrictionCone::kSoc; }
  int num_aux() const { return shape_p.num_aux() + shape_c.num_aux(); }
  int num_primals() const { return 4 + num_aux() + (soc() ? 1 : 0); }
  int num_orthant() const { return (soc() ? 2 : 7) + shape_p.num_rows() + shape_c.num_rows(); }
  int num_soc() const { return soc() ? 3 : 0; }
  int num_cone() const { return num_orthant() + num_soc(); }
  int num_local() const { return 12 + num_primals() + num_cone(); }
  int num_outputs() const { return 12 + num_primals() + num_cone(); }
};

/// The start of the step of a pair's bodies (a fixed child: unused).
struct SpatialStart {
  double dt = 0.01;
  Vec3 p2_p = Vec3::Zero(), p2_c = Vec3::Zero();
  Quat q2_p = Quat::Identity(), q2_c = Quat::Identity();
};

inline constexpr int kMaxShapeRows3 = 32;
inline constexpr int kMaxShapeAux3 = 4;

namespace detail3 {

/// sqrt(4/dt^2 - |w|^2), the scalar part of the quaternion increment times 2/dt, with |w|^2
/// clipped to 3.9 / dt^2 (Dojo's guard; the clipped branch is constant).
template <class T>
T IncrementScalar(double dt, const T& w2) {
  using std::sqrt;
  const double lim = 0.1 / (dt * dt);
  T arg = 4.0 / (dt * dt) - w2;
  if (arg < T(lim)) arg = T(lim);
  return sqrt(arg);
}

/// End pose from a start pose (p2, quaternion (a0, a)) and midpoint velocities: p3 = p2 + dt v,
/// q3 = q2 (x) (dt/2)[s; w]; R3 its rotation matrix (normalised by |q3|^2 when clipped). The
/// start is double-valued in the step's residual and T-valued when differentiating the step
/// with respect to its start (ParameterJacobian).
template <class S, class T>
void EndPoseFrom(double dt, const V3<S>& p2, const S& a0, const V3<S>& a, const T* v, const T* w, V3<T>* p3,
                 M3<T>* R3) {
  for (int i = 0; i < 3; ++i) (*p3)[i] = p2[i] + dt * v[i];
  const T w2 = w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
  const T b0 = 0.5 * dt * IncrementScalar(dt, w2);
  const V3<T> b(0.5 * dt * w[0], 0.5 * dt * w[1], 0.5 * dt * w[2]);
  const V3<T> av = a.template cast<T>();
  const T qw = a0 * b0 - av.dot(b);
  const V3<T> qv = a0 * b + b0 * av + av.cross(b);
  const T n2 = qw * qw + qv.squaredNorm();
  const T x = qv[0], y = qv[1], z = qv[2];
  const T s = 2.0 / n2;
  (*R3)(0, 0) = 1.0 - s * (y * y + z * z);
  (*R3)(0, 1) = s * (x * y - z * qw);
  (*R3)(0, 2) = s * (x * z + y * qw);
  (*R3)(1, 0) = s * (x * y + z * qw);
  (*R3)(1, 1) = 1.0 - s * (x * x + z * z);
  (*R3)(1, 2) = s * (y * z - x * qw);
  (*R3)(2, 0) = s * (x * z - y * qw);
  (*R3)(2, 1) = s * (y * z + x * qw);
  (*R3)(2, 2) = 1.0 - s * (x * x + y * y);
}

/// EndPoseFrom at the start (p2, q2), or, when `dstart` is given, at the perturbed start
/// (p2 + dp, q2 (x) [1; dtheta/2]) with dstart = (dp (world), dtheta (body frame)): first order
/// in dstart, which is all ParameterJacobian evaluates (at dstart = 0).
template <class T>
void EndPose(double dt, const Vec3& p2, const Quat& q2, const T* v, const T* w, V3<T>* p3, M3<T>* R3,
             const T* dstart = nullptr) {
  if (dstart == nullptr) return EndPoseFrom<double, T>(dt, p2, q2.w(), q2.vec(), v, w, p3, R3);
  const V3<T> p2t(p2[0] + dstart[0], p2[1] + dstart[1], p2[2] + dstart[2]);
  const V3<T> h(0.5 * dstart[3], 0.5 * dstart[4], 0.5 * dstart[5]);
  const V3<T> a = q2.vec().cast<T>();
  const T a0 = q2.w() - a.dot(h);
  const V3<T> av = q2.w() * h + a + a.cross(h);
  EndPoseFrom<T, T>(dt, p2t, a0, av, v, w, p3, R3);
}

// g and the world-frame gradient dg/dp (rows x 3) of a shape with reference point r and
// orientation R_S (world).
template <class T>
void WorldConstraint(const SpatialShape& shape, const V3<T>& r, const M3<T>& R_S, const V3<T>& p,
                     const T& alpha, const T* aux, T* g, T* dg_dpw, T* dg_dalpha, T* dg_daux) {
  const V3<T> p_S = R_S.transpose() * (p - r);
  T dS[3 * kMaxShapeRows3];
  EvaluateConstraint3(shape, p_S, alpha, aux, g, dS, dg_dalpha, dg_daux);
  for (int i = 0; i < shape.num_rows(); ++i) {  // dg/dp_w = R_S dg/dp_S (as a column)
    for (int k = 0; k < 3; ++k) {
      dg_dpw[3 * i + k] = R_S(k, 0) * dS[3 * i] + R_S(k, 1) * dS[3 * i + 1] + R_S(k, 2) * dS[3 * i + 2];
    }
  }
}

// Tangents of an (unnormalised) normal n: |t1| = |t2| = |n|, t1 from Gram-Schmidt of a fixed
// axis (e_x, or e_y when |n_x| dominates), t2 = n x t1 / |n|. No division by zero at n = 0.
template <class T>
void Tangents(const V3<T>& n, V3<T>* t1, V3<T>* t2) {
  using std::abs, std::sqrt;
  const bool x_dominates = abs(n[0]) > abs(n[1]) && abs(n[0]) > abs(n[2]);
  const int axis = x_dominates ? 1 : 0;
  const T n2 = n.squaredNorm();
  const T& an = n[axis];
  V3<T> raw = -an * n;
  raw[axis] += n2;  // |n|^2 a - (a.n) n = |n|^2 (Gram-Schmidt vector)
  *t1 = raw / sqrt(n2 - an * an + 1e-30);
  *t2 = n.cross(*t1) / sqrt(n2 + 1e-30);
}

}  // namespace detail3

/// Pose of a pair's body at the end of the step (T-valued).
template <class T>
struct BodyPose3 {
  V3<T> p;
  M3<T> R;
};

/// World-frame constraint gradients of both shapes at the contact point: dg/dp (3 per row),
/// dg/dalpha and dg/daux (num_aux per row), as CollisionKkt3 computes them.
template <class T>
struct CollisionGradients3 {
  T G_p[3 * kMaxShapeRows3], Ga_p[kMaxShapeRows3], Gx_p[kMaxShapeRows3 * kMaxShapeAux3];
  T G_c[3 * kMaxShapeRows3], Ga_c[kMaxShapeRows3], Gx_c[kMaxShapeRows3 * kMaxShapeAux3];
};

/// The collision program of the pair at end poses P, C (KKT of min alpha s.t. g_P, g_C >= 0):
/// y = (c, alpha, aux_P, aux_C), lambda = (lambda_P, lambda_C). Writes the stationarity rows
/// (3 + 1 + aux) to `opt`, g_P then g_C to `g`, the contact point and both normals, and, with
/// `gradients`, the constraints' world gradients.
template <class T>
void CollisionKkt3(const SpatialPair& pair, const BodyPose3<T>& P, const BodyPose3<T>& C, const T* y,
                   const T* lambda, T* opt, T* g, V3<T>* point, V3<T>* n_p, V3<T>* n_c,
                   CollisionGradients3<T>* gradients = nullptr) {
  const int na_p = pair.shape_p.num_aux(), na_c = pair.shape_c.num_aux();
  const int m_p = pair.shape_p.num_rows(), m_c = pair.shape_c.num_rows();
  const V3<T> c(y[0], y[1], y[2]);
  const T& alpha = y[3];
  const T* aux_p = y + 4;
  const T* aux_c = y + 4 + na_p;
  const T* lambda_p = lambda;
  const T* lambda_c = lambda + m_p;

  const V3<T> r_p = P.p + P.R * pair.offset_p.cast<T>();
  const M3<T> R_p = P.R * pair.rot_p.cast<T>();
  const V3<T> r_c = C.p + C.R * pair.offset_c.cast<T>();
  const M3<T> R_c = C.R * pair.rot_c.cast<T>();
  const V3<T> p = pair.child_is_floor() ? V3<T>(c + r_p) : V3<T>(c + 0.5 * (r_p + r_c));

  CollisionGradients3<T> local;
  CollisionGradients3<T>& grad = gradients != nullptr ? *gradients : local;
  T* G_p = grad.G_p;
  T* Ga_p = grad.Ga_p;
  T* Gx_p = grad.Gx_p;
  T* G_c = grad.G_c;
  T* Ga_c = grad.Ga_c;
  T* Gx_c = grad.Gx_c;
  detail3::WorldConstraint(pair.shape_p, r_p, R_p, p, alpha, aux_p, g, G_p, Ga_p, Gx_p);
  detail3::WorldConstraint(pair.shape_c, r_c, R_c, p, alpha, aux_c, g + m_p, G_c, Ga_c, Gx_c);

  V3<T> np = V3<T>::Zero(), nc = V3<T>::Zero();
  T d_alpha = T(1.0);
  for (int i = 0; i < m_p; ++i) {
    for (int k = 0; k < 3; ++k) np[k] += G_p[3 * i + k] * lambda_p[i];
    d_alpha -= Ga_p[i] * lambda_p[i];
  }
  for (int i = 0; i < m_c; ++i) {
    for (int k = 0; k < 3; ++k) nc[k] -= G_c[3 * i + k] * lambda_c[i];
    d_alpha -= Ga_c[i] * lambda_c[i];
  }
  for (int k = 0; k < 3; ++k) opt[k] = np[k] - nc[k];
  opt[3] = d_alpha;
  for (int j = 0; j < na_p; ++j) {
    T sum = T(0.0);
    for (int i = 0; i < m_p; ++i) sum += Gx_p[i * na_p + j] * lambda_p[i];
    opt[4 + j] = sum;
  }
  for (int j = 0; j < na_c; ++j) {
    T sum = T(0.0);
    for (int i = 0; i < m_c; ++i) sum += Gx_c[i * na_c + j] * lambda_c[i];
    opt[4 + na_p + j] = sum;
  }
  *point = p;
  *n_p = np;
  *n_c = nc;
}

/// End poses of the pair's bodies from the local velocity inputs (a fixed child: its pose is
/// the identity; the child shape's offset/rotation then hold its world placement). `dstart`:
/// optional start perturbations (dp_P, dtheta_P, dp_C, dtheta_C), see detail3::EndPose.
template <class T>
void PairPoses(const SpatialPair& pair, const SpatialStart& st, const T* in, BodyPose3<T>* P, BodyPose3<T>* C,
               const T* dstart = nullptr) {
  detail3::EndPose(st.dt, st.p2_p, st.q2_p, in, in + 3, &P->p, &P->R, dstart);
  if (pair.body_c >= 0) {
    detail3::EndPose(st.dt, st.p2_c, st.q2_c, in + 6, in + 9, &C->p, &C->R,
                     dstart == nullptr ? dstart : dstart + 6);
  } else {
    C->p.setZero();
    C->R.setIdentity();
  }
}

/// What the impulse and slip rows take from the geometry: both bodies' rotations at the end of
/// the step, the lever arms from their centres of mass to the contact point and their material
/// velocities there (world).
template <class T>
struct ContactKinematics3 {
  M3<T> R_p, R_c;
  V3<T> arm_p, arm_c, vel_p, vel_c;
};

/// The impulses of a contact on both bodies (out: f_P, tau_P, f_C, tau_C; forces in the world,
/// torque impulses about each COM in the body frame at q3) and its tangential slip (vt1, vt2),
/// from the unnormalised friction normals n_P, n_C, the normal impulse gamma and the tangential
/// ones b1, b2 along each body's tangents. The residual's only nonlinear dependence on the duals
/// (through the normals' tangents), so the step's dual columns differentiate this alone.
template <class T>
void ImpulseAndSlip3(const ContactKinematics3<T>& k, const V3<T>& n_p, const V3<T>& n_c, const T& gamma, const T& b1,
                     const T& b2, T* out, T* vt1, T* vt2) {
  V3<T> t1_p, t2_p, t1_c, t2_c;
  detail3::Tangents(n_p, &t1_p, &t2_p);
  detail3::Tangents(n_c, &t1_c, &t2_c);
  *vt1 = k.vel_p.dot(t1_p) - k.vel_c.dot(t1_c);
  *vt2 = k.vel_p.dot(t2_p) - k.vel_c.dot(t2_c);
  const V3<T> f_p = n_p * gamma + t1_p * b1 + t2_p * b2;
  const V3<T> f_c = -(n_c * gamma + t1_c * b1 + t2_c * b2);
  const V3<T> tau_p = k.R_p.transpose() * k.arm_p.cross(f_p);
  const V3<T> tau_c = k.R_c.transpose() * k.arm_c.cross(f_c);
  for (int i = 0; i < 3; ++i) {
    out[i] = f_p[i];
    out[3 + i] = tau_p[i];
    out[6 + i] = f_c[i];
    out[9 + i] = tau_c[i];
  }
}

/// The geometry of a pair's contact at a residual evaluation, for the dual columns of the step's
/// Jacobian: the kinematics, the friction normals (n_C = n_P against the floor) and the
/// constraint gradients.
template <class T>
struct ContactGeometry3 {
  ContactKinematics3<T> kinematics;
  V3<T> n_p, n_c;
  CollisionGradients3<T> gradients;
};

/// The pair's residual block (layout in the file comment); `dstart` as in PairPoses. With
/// `contact_point` / `parent_normal`, also the contact point p and the parent's normal n_P; with
/// `geometry`, what the dual columns need.
template <class T>
void SpatialContactResidual(const SpatialPair& pair, const SpatialStart& st, const T* in, T* out,
                            const T* dstart = nullptr, V3<T>* contact_point = nullptr, V3<T>* parent_normal = nullptr,
                            ContactGeometry3<T>* geometry = nullptr) {
  const T* v_p = in;
  const T* w_p = in + 3;
  const T* v_c = in + 6;
  const T* w_c = in + 9;
  const T* y = in + 12;
  const int np = pair.num_primals(), no = pair.num_orthant();
  const int m = pair.shape_p.num_rows() + pair.shape_c.num_rows();
  const T& alpha = y[3];
  const T* z = y + np;
  const T& gamma = z[0];
  const bool soc = pair.soc();
  const T* lambda = z + (soc ? 2 : 7);

  BodyPose3<T> P, C;
  PairPoses(pair, st, in, &P, &C, dstart);
  T* opt = out + 12;
  T g[2 * kMaxShapeRows3];
  V3<T> p, n_p, n_c;
  CollisionKkt3(pair, P, C, y, lambda, opt, g, &p, &n_p, &n_c, geometry != nullptr ? &geometry->gradients : nullptr);
  if (pair.child_is_floor()) n_c = n_p;
  if (contact_point != nullptr) *contact_point = p;
  if (parent_normal != nullptr) *parent_normal = n_p;

  // Contact point velocities: v25 + (R3 omega25) x (p - p3).
  ContactKinematics3<T> kin;
  kin.R_p = P.R;
  kin.R_c = C.R;
  kin.arm_p = p - P.p;
  kin.arm_c = p - C.p;
  const V3<T> wp_W = P.R * V3<T>(w_p[0], w_p[1], w_p[2]);
  kin.vel_p = V3<T>(v_p[0], v_p[1], v_p[2]) + wp_W.cross(kin.arm_p);
  kin.vel_c = V3<T>::Zero();
  if (pair.body_c >= 0) {
    const V3<T> wc_W = C.R * V3<T>(w_c[0], w_c[1], w_c[2]);
    kin.vel_c = V3<T>(v_c[0], v_c[1], v_c[2]) + wc_W.cross(kin.arm_c);
  }
  if (geometry != nullptr) {
    geometry->kinematics = kin;
    geometry->n_p = n_p;
    geometry->n_c = n_c;
  }

  const int na = pair.num_aux();
  T* slack = opt + np;
  const double cone_mu = pair.ConeFriction();
  T b1, b2;
  if (!soc) {
    b1 = z[2] - z[3];
    b2 = z[4] - z[5];
  } else {
    b1 = z[no + 1];
    b2 = z[no + 2];
  }
  if (pair.frictionless()) b1 = b2 = T(0.0);
  T vt1, vt2;
  ImpulseAndSlip3(kin, n_p, n_c, gamma, b1, b2, out, &vt1, &vt2);

  if (!soc) {
    const T& psi = z[1];
    const T* beta = z + 2;
    slack[0] = -(alpha - 1.0);
    slack[1] = -(cone_mu * gamma - beta[0] - beta[1] - beta[2] - beta[3]);
    slack[2] = -(vt1 + psi);
    slack[3] = -(-vt1 + psi);
    slack[4] = -(vt2 + psi);
    slack[5] = -(-vt2 + psi);
    slack[6] = -alpha;
    for (int i = 0; i < m; ++i) slack[7 + i] = -g[i];
  } else {
    const T& psi = y[4 + na];
    const T* beta = z + no;  // (beta0, beta1, beta2)
    opt[4 + na] = cone_mu * gamma - beta[0];
    slack[0] = -(alpha - 1.0);
    slack[1] = -alpha;
    for (int i = 0; i < m; ++i) slack[2 + i] = -g[i];
    slack[no + 0] = -psi;
    slack[no + 1] = -vt1;
    slack[no + 2] = -vt2;
  }
}

}  // namespace arena::silico
