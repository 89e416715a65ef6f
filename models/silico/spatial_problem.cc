#include "models/silico/spatial_problem.h"

#include <cmath>
#include <string>

#include <unsupported/Eigen/AutoDiff>

#include "core/common/error.h"
#include "models/silico/oriented_pairs.h"

namespace arena::silico {

namespace {

constexpr int kMaxLocal3 = 96;

// Forward-mode AD over one pair's local inputs with compile-time derivative size N (fixed
// sizes only: every constant carries explicit zero derivatives). A fixed child's velocity
// inputs (6..11) are constants and not seeded.
template <class Derivatives>
void LocalJacobianN(const SpatialPair& pair, const SpatialStart& st, const double* in_d, double* out_d, MatX* J) {
  using Ad = Eigen::AutoDiffScalar<Derivatives>;
  const int nl = pair.num_local(), no = pair.num_outputs();
  const bool child_moves = pair.body_c >= 0;
  const int n = Derivatives::SizeAtCompileTime;
  auto slot = [&](int k) { return child_moves || k < 6 ? k : k >= 12 ? k - 6 : -1; };
  Ad in[kMaxLocal3], out[kMaxLocal3];
  for (int k = 0; k < nl; ++k) {
    const int a = slot(k);
    in[k] = a >= 0 ? Ad(in_d[k], n, a) : Ad(in_d[k], Derivatives::Zero());
  }
  SpatialContactResidual(pair, st, in, out);
  J->setZero(no, nl);
  for (int r = 0; r < no; ++r) {
    out_d[r] = out[r].value();
    const auto& d = out[r].derivatives();
    if (d.size() == 0) continue;
    for (int k = 0; k < nl; ++k) {
      const int a = slot(k);
      if (a >= 0) (*J)(r, k) = d[a];
    }
  }
}

void LocalJacobian(const SpatialPair& pair, const SpatialStart& st, const double* in_d, double* out_d, MatX* J) {
  const int n = pair.body_c >= 0 ? pair.num_local() : pair.num_local() - 6;
  if (n <= 24) return LocalJacobianN<Eigen::Matrix<double, 24, 1>>(pair, st, in_d, out_d, J);
  if (n <= 48) return LocalJacobianN<Eigen::Matrix<double, 48, 1>>(pair, st, in_d, out_d, J);
  return LocalJacobianN<Eigen::Matrix<double, kMaxLocal3, 1>>(pair, st, in_d, out_d, J);
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
  for (const SpatialPair& pair : pairs_) {
    const int nl = pair.num_local(), no = pair.num_outputs();
    const SpatialStart st = Start(pair);
    LocalInput(pair, y, z, in_d);
    if (jacobian == nullptr) {
      SpatialContactResidual(pair, st, in_d, out_d);
    } else {
      LocalJacobian(pair, st, in_d, out_d, &local_);
    }
    for (int r = 0; r < no; ++r) {
      const int R = RowOf(pair, r);
      if (R < 0) continue;
      const double sign = r < 12 ? -1.0 : 1.0;  // impulses enter the body rows with a minus
      F[R] += sign * out_d[r];
      if (jacobian == nullptr) continue;
      for (int k = 0; k < nl; ++k) {
        const int C = ColOf(pair, k);
        if (C >= 0) (*jacobian)(R, C) += sign * local_(r, k);
      }
    }
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
