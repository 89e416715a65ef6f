#include "models/silico/planar_problem.h"

#include <cmath>
#include <string>

#include <unsupported/Eigen/AutoDiff>

#include "core/common/error.h"
#include "models/silico/oriented_pairs.h"

namespace arena::silico {

namespace {

// Forward-mode AD over one pair's local inputs; the inline storage bounds the pair size.
constexpr int kMaxLocal = 80;

// Outputs and the dense local Jacobian d out / d in (no x nl) of one pair, with derivative
// vectors of compile-time size N (fixed sizes vectorize, and every constant then carries
// explicit zero derivatives: Eigen's AutoDiff misreads empty dynamic derivative vectors mixed
// with full ones). Only the inputs that can vary are seeded: a fixed child's pose and velocity
// (the floor, walls) are constants. With `through_pose` (the step's Jacobian), a moving body's
// end pose x = p2 + dt v is seeded with dt on its velocity's slot, so the velocity columns hold
// the total derivative d out / d v25 and the pose columns are zero: 3 seeds fewer per body.
template <class Derivatives>
void LocalJacobianN(const PlanarPair& pair, bool through_pose, double dt, const double* in_d, double* out_d,
                    MatX* J) {
  using Ad = Eigen::AutoDiffScalar<Derivatives>;
  const int nl = pair.num_local(), no = pair.num_outputs();
  const bool child_moves = pair.body_c >= 0;
  // Slot of input k: parent x, v (0..5), child x, v (6..11), then the pair's unknowns.
  const int bodies = child_moves ? 2 : 1;
  const int per_body = through_pose ? 3 : 6;
  auto slot = [&](int k) {
    if (k >= 12) return bodies * per_body + k - 12;
    const int body = k / 6, j = k % 6;
    if (body == 1 && !child_moves) return -1;
    return body * per_body + (through_pose ? j % 3 : j);
  };
  Ad in[kMaxLocal], out[kMaxLocal];
  for (int k = 0; k < nl; ++k) {
    const int a = slot(k);
    if (a < 0) {
      in[k] = Ad(in_d[k]);  // constants: zero derivatives
    } else if (through_pose && k < 12 && k % 6 < 3) {
      in[k] = Ad(in_d[k], Derivatives::Unit(a) * dt);  // x = p2 + dt v
    } else {
      in[k] = Ad(in_d[k], Derivatives::SizeAtCompileTime, a);
    }
  }
  PlanarContactResidual(pair, in, out);
  J->setZero(no, nl);
  for (int r = 0; r < no; ++r) {
    out_d[r] = out[r].value();
    const auto& d = out[r].derivatives();
    if (d.size() == 0) continue;
    for (int k = 0; k < nl; ++k) {
      if (through_pose && k < 12 && k % 6 < 3) continue;
      const int a = slot(k);
      if (a >= 0) (*J)(r, k) = d[a];
    }
  }
}

void LocalJacobian(const PlanarPair& pair, bool through_pose, double dt, const double* in_d, double* out_d,
                   MatX* J) {
  const int bodies = pair.body_c >= 0 ? 2 : 1;
  const int n = bodies * (through_pose ? 3 : 6) + pair.num_local() - 12;
  if (n <= 16) return LocalJacobianN<Eigen::Matrix<double, 16, 1>>(pair, through_pose, dt, in_d, out_d, J);
  if (n <= 20) return LocalJacobianN<Eigen::Matrix<double, 20, 1>>(pair, through_pose, dt, in_d, out_d, J);
  if (n <= 24) return LocalJacobianN<Eigen::Matrix<double, 24, 1>>(pair, through_pose, dt, in_d, out_d, J);
  if (n <= 32) return LocalJacobianN<Eigen::Matrix<double, 32, 1>>(pair, through_pose, dt, in_d, out_d, J);
  if (n <= 48) return LocalJacobianN<Eigen::Matrix<double, 48, 1>>(pair, through_pose, dt, in_d, out_d, J);
  return LocalJacobianN<Eigen::Matrix<double, kMaxLocal, 1>>(pair, through_pose, dt, in_d, out_d, J);
}

Vec3 PlanarPose(const SE3& X) {
  return Vec3(X.translation().x(), X.translation().y(), std::atan2(X.rotation()(1, 0), X.rotation()(0, 0)));
}

}  // namespace

PlanarProblem::PlanarProblem(const Scene& scene) {
  if (!scene.IsPlanar()) {
    throw Unsupported("silico (planar): scene '" + scene.name +
                      "' is not planar (bodies on planar joints to the world, 2D shapes)");
  }
  const auto& model = scene.model;
  std::vector<int> slot(model.num_bodies(), -1);
  std::vector<PlanarBody> bodies;
  for (int b = 0; b < model.num_bodies(); ++b) {
    const BodyModel& body = model.body(b);
    if (body.joint.type != JointType::kPlanar) continue;
    const SpatialInertia& I = body.inertia;
    if (I.com().norm() > 1e-12) {
      throw Unsupported("silico (planar): body '" + body.name +
                        "' has its centre of mass off the body origin; silico's 2D bodies need it at the origin");
    }
    if (!(I.mass() > 0.0) || !(I.inertia_com()(2, 2) > 0.0)) {
      throw InvalidArgument("silico (planar): body '" + body.name + "' needs a positive mass and inertia");
    }
    slot[b] = static_cast<int>(bodies.size());
    bodies.push_back({b, body.idx_q, body.idx_v, I.mass(), I.inertia_com()(2, 2)});
  }
  const int num_bodies = static_cast<int>(bodies.size());
  rows_ = PlanarBodyRows(scene, std::move(bodies), slot, "silico (planar)");

  int y = 3 * num_bodies;
  int z = 0;
  for (const OrientedPair& oriented : OrientPairs(scene, slot, "silico (planar)")) {
    PlanarPair pair;
    pair.shape_p = FromShape(scene.colliders[oriented.collider_p].shape);
    pair.shape_c = FromShape(scene.colliders[oriented.collider_c].shape);
    pair.placement_p = PlanarPose(oriented.X_p);
    pair.placement_c = PlanarPose(oriented.X_c);
    AdoptOrientation(oriented, kMaxShapeRows, kMaxShapeAux, kMaxLocal, &pair);
    pair.y_offset = y;
    pair.z_offset = z;
    y += pair.num_primals();
    z += pair.num_cone();
    pairs_.push_back(std::move(pair));
  }
  ny_ = y;
  nz_ = z;
  cone_.orthant = nz_;

  nu_ = scene.nu();
}

void PlanarProblem::SetStep(double dt, const VecX& p2, const VecX& v15, const VecX& u) {
  dt_ = dt;
  p2_ = p2;
  v15_ = v15;
  u_ = u.size() == nu_ ? u : VecX::Zero(nu_);
}

VecX PlanarProblem::EndPoses(const VecX& y) const {
  return p2_ + dt_ * y.head(3 * rows_.num_bodies());
}

void PlanarProblem::LocalInput(const PlanarPair& pair, const VecX& y, const VecX& z, double* in) const {
  for (int k = 0; k < 12; ++k) in[k] = 0.0;
  auto body = [&](int slot, double* x, double* v) {
    for (int i = 0; i < 3; ++i) {
      v[i] = y[3 * slot + i];
      x[i] = p2_[3 * slot + i] + dt_ * v[i];
    }
  };
  body(pair.body_p, in, in + 3);
  if (pair.body_c >= 0) body(pair.body_c, in + 6, in + 9);
  const int np = pair.num_primals(), nc = pair.num_cone();
  for (int k = 0; k < np; ++k) in[12 + k] = y[pair.y_offset + k];
  for (int k = 0; k < nc; ++k) in[12 + np + k] = z[pair.z_offset + k];
}

bool PlanarProblem::Evaluate(const VecX& y, const VecX& z, VecX* residual, MatX* jacobian) {
  VecX& F = *residual;
  F.setZero(ny_ + nz_);
  if (jacobian != nullptr) jacobian->setZero(ny_ + nz_, ny_ + nz_);
  rows_.Add(dt_, p2_, v15_, u_, y, &F, jacobian, nullptr);

  double in_d[kMaxLocal], out_d[kMaxLocal];
  for (const PlanarPair& pair : pairs_) {
    const int nl = pair.num_local(), no = pair.num_outputs(), np = pair.num_primals();
    LocalInput(pair, y, z, in_d);
    if (jacobian == nullptr) {
      PlanarContactResidual(pair, in_d, out_d);
    } else {
      LocalJacobian(pair, /*through_pose=*/true, dt_, in_d, out_d, &local_);
    }
    for (int r = 0; r < no; ++r) {
      const int R = RowOf(pair, r);
      if (R < 0) continue;
      const double sign = r < 6 ? -1.0 : 1.0;  // impulses enter the body rows with a minus
      F[R] += sign * out_d[r];
      if (jacobian == nullptr) continue;
      const double* d = local_.data() + r;  // column-major: d[k * no] = d out_r / d in_k
      // Velocity columns hold the total derivative through the end pose (through_pose).
      for (int k = 3; k < 6; ++k) (*jacobian)(R, 3 * pair.body_p + k - 3) += sign * d[k * no];
      if (pair.body_c >= 0) {
        for (int k = 9; k < 12; ++k) (*jacobian)(R, 3 * pair.body_c + k - 9) += sign * d[k * no];
      }
      for (int k = 12; k < nl; ++k) {
        const int col = k - 12 < np ? pair.y_offset + k - 12 : ny_ + pair.z_offset + k - 12 - np;
        (*jacobian)(R, col) += sign * d[k * no];
      }
    }
  }
  return F.allFinite();
}

void PlanarProblem::ParameterJacobian(const VecX& y, const VecX& z, MatX* dF_dtheta) {
  dF_dtheta->setZero(ny_ + nz_, num_parameters());
  VecX F = VecX::Zero(ny_ + nz_);
  rows_.Add(dt_, p2_, v15_, u_, y, &F, nullptr, dF_dtheta);

  double in_d[kMaxLocal], out_d[kMaxLocal];
  for (const PlanarPair& pair : pairs_) {
    const int no = pair.num_outputs();
    LocalInput(pair, y, z, in_d);
    LocalJacobian(pair, /*through_pose=*/false, dt_, in_d, out_d, &local_);
    for (int r = 0; r < no; ++r) {
      const int R = RowOf(pair, r);
      if (R < 0) continue;
      const double sign = r < 6 ? -1.0 : 1.0;
      // The end pose p3 = p2 + dt v25 depends on p2 with unit weight.
      for (int k = 0; k < 3; ++k) (*dF_dtheta)(R, 3 * pair.body_p + k) += sign * local_(r, k);
      if (pair.body_c >= 0) {
        for (int k = 6; k < 9; ++k) (*dF_dtheta)(R, 3 * pair.body_c + k - 6) += sign * local_(r, k);
      }
    }
  }
}

int PlanarProblem::RowOf(const PlanarPair& pair, int r) const {
  const int np = pair.num_primals();
  if (r < 3) return 3 * pair.body_p + r;
  if (r < 6) return pair.body_c >= 0 ? 3 * pair.body_c + r - 3 : -1;
  if (r < 6 + np) return pair.y_offset + r - 6;
  return ny_ + pair.z_offset + r - 6 - np;
}

int PlanarProblem::ActiveContacts(const VecX& z, const VecX& s) const {
  int n = 0;
  for (const PlanarPair& pair : pairs_) n += z[pair.z_offset] > s[pair.z_offset] ? 1 : 0;
  return n;
}

}  // namespace arena::silico
