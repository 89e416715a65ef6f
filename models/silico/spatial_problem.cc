#include "models/silico/spatial_problem.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <unsupported/Eigen/AutoDiff>

#include "core/common/error.h"
#include "core/math/so3.h"
#include "models/silico/oriented_pairs.h"

namespace arena::silico {

namespace {

constexpr int kMaxLocal3 = 96;

// Columns of a pair's local Jacobian: the geometry seeds (the moving bodies' velocities, 6 each,
// then the pair's primals c, alpha, aux_P, aux_C (, psi)), then the duals in the order of the
// local inputs (the orthant block, then the soc block).
struct LocalColumns3 {
  int bodies = 1;
  int primals = 0;
  int duals = 0;
  explicit LocalColumns3(const SpatialPair& pair)
      : bodies(pair.body_c >= 0 ? 2 : 1), primals(pair.num_primals()), duals(pair.num_cone()) {}
  int seeds() const { return 6 * bodies + primals; }
  int size() const { return seeds() + duals; }
};

// The pair's outputs and the geometry columns of its local Jacobian (column-major, no rows):
// forward-mode AD with derivative vectors of compile-time size N (fixed sizes vectorize; every
// constant then carries explicit zero derivatives) over the seeds of LocalColumns3. The duals
// enter as constants: their columns are DualColumns'. Also returns the geometry's values.
template <int N>
void GeometryColumns(const SpatialPair& pair, const SpatialStart& st, const LocalColumns3& cols, const double* in_d,
                     double* out_d, double* J, ContactGeometry3<double>* geo_d) {
  using Derivatives = Eigen::Matrix<double, N, 1>;
  using Ad = Eigen::AutoDiffScalar<Derivatives>;
  const int nl = pair.num_local(), no = pair.num_outputs();
  const int body_seeds = 6 * cols.bodies, last_seed = 12 + cols.primals;
  Ad in[kMaxLocal3], out[kMaxLocal3];
  for (int k = 0; k < nl; ++k) {
    const int a = k < body_seeds ? k : k >= 12 && k < last_seed ? k - 12 + body_seeds : -1;
    in[k] = a >= 0 ? Ad(in_d[k], N, a) : Ad(in_d[k], Derivatives::Zero());
  }
  ContactGeometry3<Ad> geo;
  SpatialContactResidual<Ad>(pair, st, in, out, nullptr, nullptr, nullptr, &geo);
  const int seeds = cols.seeds();
  for (int r = 0; r < no; ++r) {
    out_d[r] = out[r].value();
    const double* d = out[r].derivatives().data();
    for (int a = 0; a < seeds; ++a) J[a * no + r] = d[a];
  }
  auto value = [](const auto& m) { return m.unaryExpr([](const Ad& x) { return x.value(); }).eval(); };
  ContactKinematics3<double>& k = geo_d->kinematics;
  k.R_p = value(geo.kinematics.R_p);
  k.R_c = value(geo.kinematics.R_c);
  k.arm_p = value(geo.kinematics.arm_p);
  k.arm_c = value(geo.kinematics.arm_c);
  k.vel_p = value(geo.kinematics.vel_p);
  k.vel_c = value(geo.kinematics.vel_c);
  geo_d->n_p = value(geo.n_p);
  geo_d->n_c = value(geo.n_c);
  const int m_p = pair.shape_p.num_rows(), m_c = pair.shape_c.num_rows();
  const int na_p = pair.shape_p.num_aux(), na_c = pair.shape_c.num_aux();
  CollisionGradients3<double>& g = geo_d->gradients;
  for (int i = 0; i < 3 * m_p; ++i) g.G_p[i] = geo.gradients.G_p[i].value();
  for (int i = 0; i < 3 * m_c; ++i) g.G_c[i] = geo.gradients.G_c[i].value();
  for (int i = 0; i < m_p; ++i) g.Ga_p[i] = geo.gradients.Ga_p[i].value();
  for (int i = 0; i < m_c; ++i) g.Ga_c[i] = geo.gradients.Ga_c[i].value();
  for (int i = 0; i < m_p * na_p; ++i) g.Gx_p[i] = geo.gradients.Gx_p[i].value();
  for (int i = 0; i < m_c * na_c; ++i) g.Gx_c[i] = geo.gradients.Gx_c[i].value();
}

// A normal's tangents (detail3::Tangents) and their derivatives dt/dn, by AD with 3 derivatives.
struct TangentFrame {
  Vec3 t1, t2;
  Mat3 dt1, dt2;
};
TangentFrame TangentsAndDerivatives(const Vec3& n) {
  using Ad3 = Eigen::AutoDiffScalar<Vec3>;
  V3<Ad3> na, t1, t2;
  for (int i = 0; i < 3; ++i) na[i] = Ad3(n[i], 3, i);
  detail3::Tangents(na, &t1, &t2);
  TangentFrame f;
  for (int i = 0; i < 3; ++i) {
    f.t1[i] = t1[i].value();
    f.t2[i] = t2[i].value();
    f.dt1.row(i) = t1[i].derivatives().transpose();
    f.dt2.row(i) = t2[i].derivatives().transpose();
  }
  return f;
}

// d (impulses (12), vt1, vt2) / d (n_P (3), n_C (3), gamma, b1, b2) at fixed geometry: the only
// part of the pair's residual that is nonlinear in its duals (ImpulseAndSlip3), by the chain
// rule through the tangents: f_P = n_P gamma + t1_P b1 + t2_P b2, f_C = -(the same with C's),
// tau = R^T (arm x f), vt = vel_P . t_P - vel_C . t_C.
using FrameJacobian = Eigen::Matrix<double, 14, 9>;
FrameJacobian ImpulseAndSlipJacobian(const ContactGeometry3<double>& geo, double gamma, double b1, double b2) {
  const ContactKinematics3<double>& k = geo.kinematics;
  const TangentFrame P = TangentsAndDerivatives(geo.n_p), C = TangentsAndDerivatives(geo.n_c);
  const Mat3 torque_p = k.R_p.transpose() * Skew(k.arm_p), torque_c = k.R_c.transpose() * Skew(k.arm_c);
  FrameJacobian D = FrameJacobian::Zero();
  const Mat3 dfp_dnp = gamma * Mat3::Identity() + b1 * P.dt1 + b2 * P.dt2;
  const Mat3 dfc_dnc = -(gamma * Mat3::Identity() + b1 * C.dt1 + b2 * C.dt2);
  D.block<3, 3>(0, 0) = dfp_dnp;
  D.block<3, 3>(3, 0) = torque_p * dfp_dnp;
  D.block<3, 3>(6, 3) = dfc_dnc;
  D.block<3, 3>(9, 3) = torque_c * dfc_dnc;
  const Vec3 dp[3] = {geo.n_p, P.t1, P.t2}, dc[3] = {geo.n_c, C.t1, C.t2};  // d f / d (gamma, b1, b2)
  for (int j = 0; j < 3; ++j) {
    D.block<3, 1>(0, 6 + j) = dp[j];
    D.block<3, 1>(3, 6 + j) = torque_p * dp[j];
    D.block<3, 1>(6, 6 + j) = -dc[j];
    D.block<3, 1>(9, 6 + j) = -(torque_c * dc[j]);
  }
  D.block<1, 3>(12, 0) = k.vel_p.transpose() * P.dt1;
  D.block<1, 3>(12, 3) = -(k.vel_c.transpose() * C.dt1);
  D.block<1, 3>(13, 0) = k.vel_p.transpose() * P.dt2;
  D.block<1, 3>(13, 3) = -(k.vel_c.transpose() * C.dt2);
  return D;
}

// The dual columns d out / d z of a pair's local Jacobian, by hand at fixed geometry (Silico
// eq. 20): the stationarity rows are linear in the multipliers (the normals n_P = sum_i
// dg_P,i/dp^T lambda_P,i, n_C = -sum_i dg_C,i/dp^T lambda_C,i, the floor's n_C = n_P for
// friction), the friction cone and dissipation rows linear in gamma, psi and beta, and the
// impulses and slip depend on the duals through (n_P, n_C, gamma, b1, b2) alone, whose Jacobian
// ImpulseAndSlipJacobian gives. `z` = the pair's duals in local order; columns from `first`.
void DualColumns(const SpatialPair& pair, const ContactGeometry3<double>& geo, const double* z, int first, double* J) {
  const int m_p = pair.shape_p.num_rows(), m_c = pair.shape_c.num_rows();
  const int na_p = pair.shape_p.num_aux(), na_c = pair.shape_c.num_aux(), na = na_p + na_c;
  const int np = pair.num_primals(), no = pair.num_orthant(), nout = pair.num_outputs();
  const bool soc = pair.soc(), floor = pair.child_is_floor(), frictionless = pair.frictionless();
  const int opt = 12, slack = 12 + np;  // first rows of the stationarity and slackness blocks
  const double mu = pair.ConeFriction();
  auto column = [&](int j) { return J + (first + j) * nout; };
  std::fill(column(0), column(pair.num_cone()), 0.0);

  const double gamma = z[0];
  const double b1 = frictionless ? 0.0 : soc ? z[no + 1] : z[2] - z[3];
  const double b2 = frictionless ? 0.0 : soc ? z[no + 2] : z[4] - z[5];
  const FrameJacobian D = ImpulseAndSlipJacobian(geo, gamma, b1, b2);
  // Frame column c of D, times `scale`, added to a column's impulse rows.
  auto add_impulses = [&](double* col, int c, double scale) {
    for (int r = 0; r < 12; ++r) col[r] += scale * D(r, c);
  };
  // The slip rows of a change (dvt1, dvt2) of the tangential velocity.
  auto slip_rows = [&](double* col, double dvt1, double dvt2) {
    if (!soc) {
      col[slack + 2] -= dvt1;
      col[slack + 3] += dvt1;
      col[slack + 4] -= dvt2;
      col[slack + 5] += dvt2;
    } else {
      col[slack + no + 1] -= dvt1;
      col[slack + no + 2] -= dvt2;
    }
  };

  // gamma, then the friction variables.
  add_impulses(column(0), 6, 1.0);
  if (!soc) {
    column(0)[slack + 1] = -mu;
    for (int r = 2; r < 6; ++r) column(1)[slack + r] = -1.0;  // psi
    for (int j = 0; j < 4; ++j) {                             // beta: b1 = beta1 - beta2, b2 = beta3 - beta4
      if (!frictionless) add_impulses(column(2 + j), j < 2 ? 7 : 8, j % 2 == 0 ? 1.0 : -1.0);
      column(2 + j)[slack + 1] = 1.0;
    }
  } else {
    column(0)[opt + 4 + na] = mu;
    column(no)[opt + 4 + na] = -1.0;  // beta0
    if (!frictionless) {
      add_impulses(column(no + 1), 7, 1.0);
      add_impulses(column(no + 2), 8, 1.0);
    }
  }

  // The multipliers: through the normals (dn = G_i for lambda_P,i, and for n_C too against the
  // floor; dn_C = -G_i for lambda_C,i) and the stationarity rows.
  const int first_lambda = soc ? 2 : 7;
  auto through_normal = [&](double* col, const double* G, int normal, double sign) {
    double dvt1 = 0.0, dvt2 = 0.0;
    for (int a = 0; a < 3; ++a) {
      const double dn = sign * G[a];
      add_impulses(col, 3 * normal + a, dn);
      dvt1 += D(12, 3 * normal + a) * dn;
      dvt2 += D(13, 3 * normal + a) * dn;
    }
    slip_rows(col, dvt1, dvt2);
  };
  const CollisionGradients3<double>& g = geo.gradients;
  for (int i = 0; i < m_p; ++i) {
    double* col = column(first_lambda + i);
    const double* G = g.G_p + 3 * i;
    through_normal(col, G, 0, 1.0);
    if (floor) through_normal(col, G, 1, 1.0);
    for (int a = 0; a < 3; ++a) col[opt + a] += G[a];
    col[opt + 3] -= g.Ga_p[i];
    for (int j = 0; j < na_p; ++j) col[opt + 4 + j] += g.Gx_p[i * na_p + j];
  }
  for (int i = 0; i < m_c; ++i) {
    double* col = column(first_lambda + m_p + i);
    const double* G = g.G_c + 3 * i;
    if (!floor) through_normal(col, G, 1, -1.0);
    for (int a = 0; a < 3; ++a) col[opt + a] += G[a];
    col[opt + 3] -= g.Ga_c[i];
    for (int j = 0; j < na_c; ++j) col[opt + 4 + na_p + j] += g.Gx_c[i * na_c + j];
  }
}

// Outputs and the local Jacobian d out / d (seeds, duals) of one pair, column-major into J
// (num_outputs x LocalColumns3::size()): AD over the geometry seeds, the duals by hand.
template <int N>
void LocalJacobianN(const SpatialPair& pair, const SpatialStart& st, const LocalColumns3& cols, const double* in_d,
                    double* out_d, double* J) {
  ContactGeometry3<double> geo;
  GeometryColumns<N>(pair, st, cols, in_d, out_d, J, &geo);
  DualColumns(pair, geo, in_d + 12 + cols.primals, cols.seeds(), J);
}

void LocalJacobian(const SpatialPair& pair, const SpatialStart& st, const LocalColumns3& cols, const double* in_d,
                   double* out_d, double* J) {
  const int n = cols.seeds();
  if (n <= 12) return LocalJacobianN<12>(pair, st, cols, in_d, out_d, J);
  if (n <= 16) return LocalJacobianN<16>(pair, st, cols, in_d, out_d, J);
  static_assert(12 + 4 + 2 * kMaxShapeAux3 + 1 <= 32);
  return LocalJacobianN<32>(pair, st, cols, in_d, out_d, J);
}

// Dojo's discrete momentum terms (dt/2)[J w s(w) +- w x J w] (see spatial_problem.h).
template <class T>
V3<T> Momentum(const Mat3& J, double dt, const V3<T>& w, double sign) {
  const T s = detail3::IncrementScalar(dt, w.squaredNorm());
  const V3<T> Jw = J.cast<T>() * w;
  return 0.5 * dt * (Jw * s + sign * w.cross(Jw));
}

}  // namespace

FrictionCone FrictionConeFromString(const std::string& name) {
  if (name == "pyramid") return FrictionCone::kPyramid;
  if (name == "soc") return FrictionCone::kSoc;
  throw InvalidArgument("silico: friction_cone must be 'pyramid' or 'soc', got '" + name + "'");
}

SpatialProblem::SpatialProblem(const Scene& scene, FrictionCone cone) {
  const auto& model = scene.model;
  std::vector<int> slot(model.num_bodies(), -1);
  for (int b = 0; b < model.num_bodies(); ++b) {
    const BodyModel& body = model.body(b);
    if (body.joint.type == JointType::kFixed) continue;
    if (body.joint.type != JointType::kFree || body.parent != kWorldBody) {
      throw Unsupported("silico (spatial): body '" + body.name +
                        "' must be on a free joint to the world (or fixed); articulated bodies are not supported");
    }
    const SE3& J = body.joint.placement;
    if (!J.rotation().isIdentity(1e-12) || J.translation().norm() > 1e-12) {
      throw Unsupported("silico (spatial): free joint of '" + body.name + "' has a non-identity placement");
    }
    const SpatialInertia& I = body.inertia;
    if (I.com().norm() > 1e-12) {
      throw Unsupported("silico (spatial): body '" + body.name +
                        "' has its centre of mass off the body origin; silico's bodies need it at the origin");
    }
    if (!(I.mass() > 0.0) || !(I.inertia_com().determinant() > 0.0)) {
      throw InvalidArgument("silico (spatial): body '" + body.name + "' needs a positive mass and inertia");
    }
    slot[b] = static_cast<int>(bodies_.size());
    bodies_.push_back({b, body.idx_q, body.idx_v, I.mass(), I.inertia_com()});
  }
  if (scene.nu() > 0) throw Unsupported("silico (spatial): actuators are not supported in 3D scenes yet");
  gravity_ = model.gravity();

  int y = 6 * static_cast<int>(bodies_.size());
  int z = 0;
  for (const OrientedPair& oriented : OrientPairs(scene, slot, "silico (spatial)")) {
    SpatialPair pair;
    Vec3 off_p, off_c;
    pair.shape_p = FromShape3(scene.colliders[oriented.collider_p].shape, &off_p);
    pair.shape_c = FromShape3(scene.colliders[oriented.collider_c].shape, &off_c);
    const SE3& Xp = oriented.X_p;
    const SE3& Xc = oriented.X_c;
    pair.offset_p = Xp.translation() + Xp.rotation() * off_p;
    pair.rot_p = Xp.rotation();
    pair.offset_c = Xc.translation() + Xc.rotation() * off_c;
    pair.rot_c = Xc.rotation();
    pair.cone = cone;  // before the size check: the SOC cone adds unknowns
    AdoptOrientation(oriented, kMaxShapeRows3, kMaxShapeAux3, kMaxLocal3, &pair);
    pair.y_offset = y;
    pair.z_offset = z;
    y += pair.num_primals();
    z += pair.num_orthant();
    pairs_.push_back(std::move(pair));
  }
  ny_ = y;
  nz_orthant_ = z;
  cone_.orthant = z;
  for (SpatialPair& pair : pairs_) {
    if (!pair.soc()) continue;
    pair.soc_offset = z;
    z += 3;
    cone_.soc.push_back(3);
  }
  // Where each pair's local outputs and Jacobian columns go in the step's residual and Jacobian.
  Eigen::Index local_size = 0;
  for (const SpatialPair& pair : pairs_) {
    const LocalColumns3 cols(pair);
    std::vector<int>& rows = local_rows_.emplace_back(pair.num_outputs());
    for (int r = 0; r < pair.num_outputs(); ++r) rows[r] = RowOf(pair, r);
    std::vector<int>& columns = local_cols_.emplace_back(cols.size());
    for (int a = 0; a < cols.size(); ++a) {
      // The seeds are the local inputs but a fixed child's velocities; the duals follow them.
      const int k = a < 6 * cols.bodies ? a : a < cols.seeds() ? a - 6 * cols.bodies + 12 : a - cols.seeds() + 12 + cols.primals;
      columns[a] = ColOf(pair, k);
    }
    local_size = std::max<Eigen::Index>(local_size, pair.num_outputs() * cols.size());
  }
  local_.resize(local_size);
  const int nb = static_cast<int>(bodies_.size());
  p2_.assign(nb, Vec3::Zero());
  v15_.assign(nb, Vec3::Zero());
  w15_.assign(nb, Vec3::Zero());
  q2_.assign(nb, Quat::Identity());
}

void SpatialProblem::SetStep(double dt, const std::vector<Vec3>& p2, const std::vector<Quat>& q2,
                             const std::vector<Vec3>& v15, const std::vector<Vec3>& w15) {
  dt_ = dt;
  p2_ = p2;
  q2_ = q2;
  v15_ = v15;
  w15_ = w15;
}

SpatialStart SpatialProblem::Start(const SpatialPair& pair) const {
  SpatialStart st;
  st.dt = dt_;
  st.p2_p = p2_[pair.body_p];
  st.q2_p = q2_[pair.body_p];
  if (pair.body_c >= 0) {
    st.p2_c = p2_[pair.body_c];
    st.q2_c = q2_[pair.body_c];
  }
  return st;
}

void SpatialProblem::EndPose(const VecX& y, int k, Vec3* p3, Quat* q3) const {
  const Vec3 v = y.segment<3>(6 * k), w = y.segment<3>(6 * k + 3);
  *p3 = p2_[k] + dt_ * v;
  const double b0 = 0.5 * dt_ * detail3::IncrementScalar(dt_, w.squaredNorm());
  const Quat dq(b0, 0.5 * dt_ * w.x(), 0.5 * dt_ * w.y(), 0.5 * dt_ * w.z());
  *q3 = (q2_[k] * dq).normalized();
}

void SpatialProblem::LocalInput(const SpatialPair& pair, const VecX& y, const VecX& z, double* in) const {
  for (int k = 0; k < 12; ++k) in[k] = 0.0;
  for (int k = 0; k < 6; ++k) in[k] = y[6 * pair.body_p + k];
  if (pair.body_c >= 0) {
    for (int k = 0; k < 6; ++k) in[6 + k] = y[6 * pair.body_c + k];
  }
  const int np = pair.num_primals(), no = pair.num_orthant(), ns = pair.num_soc();
  double* p = in + 12;
  for (int k = 0; k < np; ++k) *p++ = y[pair.y_offset + k];
  for (int k = 0; k < no; ++k) *p++ = z[pair.z_offset + k];
  for (int k = 0; k < ns; ++k) *p++ = z[pair.soc_offset + k];
}

int SpatialProblem::RowOf(const SpatialPair& pair, int r) const {
  const int np = pair.num_primals(), no = pair.num_orthant();
  if (r < 6) return 6 * pair.body_p + r;
  if (r < 12) return pair.body_c >= 0 ? 6 * pair.body_c + r - 6 : -1;
  r -= 12;
  if (r < np) return pair.y_offset + r;
  r -= np;
  if (r < no) return ny_ + pair.z_offset + r;
  return ny_ + pair.soc_offset + r - no;
}

int SpatialProblem::ColOf(const SpatialPair& pair, int k) const { return RowOf(pair, k); }

bool SpatialProblem::Evaluate(const VecX& y, const VecX& z, VecX* residual, MatX* jacobian) {
  VecX& F = *residual;
  const int n = ny_ + cone_.size();
  F.setZero(n);
  if (jacobian != nullptr) jacobian->setZero(n, n);
  using Ad3 = Eigen::AutoDiffScalar<Vec3>;
  for (size_t k = 0; k < bodies_.size(); ++k) {
    const SpatialBody& b = bodies_[k];
    const int r = 6 * static_cast<int>(k);
    for (int i = 0; i < 3; ++i) {
      F[r + i] = b.mass * (y[r + i] - v15_[k][i]) - dt_ * b.mass * gravity_[i];
      if (jacobian != nullptr) (*jacobian)(r + i, r + i) += b.mass;
    }
    const Vec3 B = Momentum<double>(b.inertia, dt_, w15_[k], -1.0);
    if (jacobian == nullptr) {
      F.segment<3>(r + 3) = Momentum<double>(b.inertia, dt_, Vec3(y.segment<3>(r + 3)), 1.0) - B;
    } else {
      V3<Ad3> w;
      for (int i = 0; i < 3; ++i) w[i] = Ad3(y[r + 3 + i], 3, i);
      const V3<Ad3> A = Momentum<Ad3>(b.inertia, dt_, w, 1.0);
      for (int i = 0; i < 3; ++i) {
        F[r + 3 + i] = A[i].value() - B[i];
        if (A[i].derivatives().size() == 3) jacobian->block<1, 3>(r + 3 + i, r + 3) += A[i].derivatives().transpose();
      }
    }
  }

  double in_d[kMaxLocal3], out_d[kMaxLocal3];
  for (size_t i = 0; i < pairs_.size(); ++i) {
    const SpatialPair& pair = pairs_[i];
    const int no = pair.num_outputs();
    const SpatialStart st = Start(pair);
    LocalInput(pair, y, z, in_d);
    const std::vector<int>& rows = local_rows_[i];
    if (jacobian == nullptr) {
      SpatialContactResidual(pair, st, in_d, out_d);
    } else {
      const LocalColumns3 cols(pair);
      LocalJacobian(pair, st, cols, in_d, out_d, local_.data());
      // Impulses enter the body rows with a minus; a fixed child's rows are dropped (-1).
      for (int a = 0; a < cols.size(); ++a) {
        double* global = jacobian->col(local_cols_[i][a]).data();
        const double* local = local_.data() + a * no;
        for (int r = 0; r < 12; ++r) {
          if (rows[r] >= 0) global[rows[r]] -= local[r];
        }
        for (int r = 12; r < no; ++r) global[rows[r]] += local[r];
      }
    }
    for (int r = 0; r < 12; ++r) {
      if (rows[r] >= 0) F[rows[r]] -= out_d[r];
    }
    for (int r = 12; r < no; ++r) F[rows[r]] += out_d[r];
  }
  return F.allFinite();
}

void SpatialProblem::ParameterJacobian(const VecX& y, const VecX& z, MatX* dF_dtheta) {
  MatX& D = *dF_dtheta;
  D.setZero(ny_ + cone_.size(), num_parameters());
  using Ad3 = Eigen::AutoDiffScalar<Vec3>;
  for (size_t k = 0; k < bodies_.size(); ++k) {
    const SpatialBody& b = bodies_[k];
    const int r = 6 * static_cast<int>(k), c = 12 * static_cast<int>(k);
    D.block<3, 3>(r, c + 6) = -b.mass * Mat3::Identity();  // m (v25 - v15)
    V3<Ad3> w;
    for (int i = 0; i < 3; ++i) w[i] = Ad3(w15_[k][i], 3, i);
    const V3<Ad3> B = Momentum<Ad3>(b.inertia, dt_, w, -1.0);
    for (int i = 0; i < 3; ++i) D.block<1, 3>(r + 3 + i, c + 9) = -B[i].derivatives().transpose();
  }
  // Pairs depend on the start poses through their end poses: AD over the 12 start
  // perturbations (dp, dtheta of the parent, then of the child), the unknowns held fixed.
  using Ad = Eigen::AutoDiffScalar<Eigen::Matrix<double, 12, 1>>;
  double in_d[kMaxLocal3];
  Ad in[kMaxLocal3], out[kMaxLocal3], dstart[12];
  for (int k = 0; k < 12; ++k) dstart[k] = Ad(0.0, 12, k);
  for (const SpatialPair& pair : pairs_) {
    const int nl = pair.num_local(), no = pair.num_outputs();
    LocalInput(pair, y, z, in_d);
    for (int k = 0; k < nl; ++k) in[k] = Ad(in_d[k], Eigen::Matrix<double, 12, 1>::Zero());
    SpatialContactResidual(pair, Start(pair), in, out, dstart);
    for (int r = 0; r < no; ++r) {
      const int R = RowOf(pair, r);
      if (R < 0) continue;
      const double sign = r < 12 ? -1.0 : 1.0;  // as in Evaluate
      const auto& d = out[r].derivatives();
      if (d.size() != 12) continue;
      D.block<1, 6>(R, 12 * pair.body_p) += sign * d.head<6>().transpose();
      if (pair.body_c >= 0) D.block<1, 6>(R, 12 * pair.body_c) += sign * d.tail<6>().transpose();
    }
  }
}

void SpatialProblem::InitialPrimals(VecX* y) {
  y->setZero();
  for (const SpatialPair& pair : pairs_) (*y)[pair.y_offset + 3] = 1.0;
}

void SpatialProblem::PairContact(const VecX& y, const VecX& z, int i, Vec3* point, Vec3* normal,
                                 Vec3* impulse_on_parent) const {
  const SpatialPair& pair = pairs_[i];
  double in[kMaxLocal3], out[kMaxLocal3];
  LocalInput(pair, y, z, in);
  Vec3 n;
  SpatialContactResidual(pair, Start(pair), in, out, static_cast<const double*>(nullptr), point, &n);
  *normal = n.normalized();
  *impulse_on_parent = Vec3(out[0], out[1], out[2]);
}

int SpatialProblem::ActiveContacts(const VecX& z, const VecX& s) const {
  int n = 0;
  for (const SpatialPair& pair : pairs_) n += z[pair.z_offset] > s[pair.z_offset] ? 1 : 0;
  return n;
}

// ---- standalone collision program ----

SpatialCollisionProgram::SpatialCollisionProgram(SpatialPair pair) : pair_(std::move(pair)) {
  cone_.orthant = 1 + pair_.shape_p.num_rows() + pair_.shape_c.num_rows();
}

void SpatialCollisionProgram::SetPoses(const Vec3& p_p, const Quat& q_p, const Vec3& p_c, const Quat& q_c) {
  p_p_ = p_p;
  R_p_ = q_p.normalized().toRotationMatrix();
  p_c_ = p_c;
  R_c_ = q_c.normalized().toRotationMatrix();
}

void SpatialCollisionProgram::InitialPrimals(VecX* y) {
  y->setZero();
  (*y)[3] = 1.0;
}

template <class T>
void SpatialCollisionProgram::Residual(const T* yz, T* out) const {
  const int np = num_primals();
  BodyPose3<T> P{p_p_.cast<T>(), R_p_.cast<T>()}, C{p_c_.cast<T>(), R_c_.cast<T>()};
  T g[2 * kMaxShapeRows3];
  V3<T> point, n_p, n_c;
  CollisionKkt3(pair_, P, C, yz, yz + np + 1, out, g, &point, &n_p, &n_c);
  out[np] = -yz[3];  // alpha >= 0
  for (int i = 0; i < cone_.orthant - 1; ++i) out[np + 1 + i] = -g[i];
}

bool SpatialCollisionProgram::Evaluate(const VecX& y, const VecX& z, VecX* residual, MatX* jacobian) {
  const int np = num_primals(), n = np + cone_.orthant;
  residual->setZero(n);
  if (n > 64) return false;
  using Ad = Eigen::AutoDiffScalar<Eigen::Matrix<double, 64, 1>>;
  Ad in[64], out[64];
  for (int k = 0; k < n; ++k) in[k] = Ad(k < np ? y[k] : z[k - np], 64, k);
  for (int k = n; k < 64; ++k) in[k] = Ad(0.0);  // never read; keeps the compiler's flow analysis quiet
  Residual(in, out);
  if (jacobian != nullptr) jacobian->setZero(n, n);
  for (int r = 0; r < n; ++r) {
    (*residual)[r] = out[r].value();
    if (jacobian != nullptr && out[r].derivatives().size() == 64) {
      for (int k = 0; k < n; ++k) (*jacobian)(r, k) = out[r].derivatives()[k];
    }
  }
  return residual->allFinite();
}

}  // namespace arena::silico
