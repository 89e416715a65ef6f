#include "models/silico/planar_problem.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <unsupported/Eigen/AutoDiff>

#include "core/common/error.h"
#include "models/silico/oriented_pairs.h"

namespace arena::silico {

namespace {

// Inline storage bound of one pair's local inputs and outputs.
constexpr int kMaxLocal = 80;
// AD over the geometry: the moving bodies' seeds (6 each) and the pair's primals (c, alpha,
// aux_P, aux_C: 3 + 2 kMaxShapeAux at most).
constexpr int kMaxGeometrySeeds = 12 + 3 + 2 * kMaxShapeAux;

// Columns of a pair's local Jacobian (see LocalJacobian): the geometry seeds, then the duals.
struct LocalColumns {
  int bodies = 1;    // moving bodies of the pair: the parent, and the child if it moves
  int per_body = 3;  // seeds per body: v (through the end pose), or x then v
  int primals = 0;   // c, alpha, aux_P, aux_C
  int duals = 0;     // gamma, psi, beta (2), lambda_alpha, lambda_P, lambda_C

  LocalColumns(const PlanarPair& pair, bool through_pose)
      : bodies(pair.body_c >= 0 ? 2 : 1),
        per_body(through_pose ? 3 : 6),
        primals(pair.num_primals()),
        duals(pair.num_cone()) {}
  int seeds() const { return bodies * per_body + primals; }
  int size() const { return seeds() + duals; }
};

// The pair's outputs and the geometry columns of its local Jacobian: forward-mode AD with
// derivative vectors of compile-time size N (fixed sizes vectorize, and every constant then
// carries explicit zero derivatives: Eigen's AutoDiff misreads empty dynamic derivative vectors
// mixed with full ones) over the moving bodies' poses and velocities and the pair's primals.
// The duals enter as plain doubles (their columns are DualColumns'). A fixed child's pose and
// velocity (the floor, walls) are constants. With `through_pose` (the step's Jacobian), a
// moving body's end pose x = p2 + dt v is seeded with dt on its velocity's slot, so the
// velocity columns hold the total derivative d out / d v25: 3 seeds per body instead of 6.
// Returns the contact frame's values, which the dual columns need.
template <int N>
ContactFrame GeometryColumns(const PlanarPair& pair, const LocalColumns& cols, double dt, const double* in_d,
                             double* out_d, double* J, CollisionGeometry<double>* geo_d) {
  using Derivatives = Eigen::Matrix<double, N, 1>;
  using Ad = Eigen::AutoDiffScalar<Derivatives>;
  const bool through_pose = cols.per_body == 3;
  Ad in[12 + kMaxGeometrySeeds];
  for (int body = 0; body < 2; ++body) {
    for (int j = 0; j < 6; ++j) {
      const int k = 6 * body + j;
      if (body >= cols.bodies) {
        in[k] = Ad(in_d[k]);  // constants: zero derivatives
      } else if (through_pose) {
        const int a = 3 * body + j % 3;
        in[k] = j < 3 ? Ad(in_d[k], Derivatives::Unit(a) * dt) : Ad(in_d[k], N, a);  // x = p2 + dt v
      } else {
        in[k] = Ad(in_d[k], N, 6 * body + j);
      }
    }
  }
  const int first_primal = cols.bodies * cols.per_body;
  for (int k = 0; k < cols.primals; ++k) in[12 + k] = Ad(in_d[12 + k], N, first_primal + k);

  CollisionGeometry<Ad> geo;
  EvaluateCollisionGeometry(pair, in, in + 6, in + 12, &geo);
  Ad out[kMaxLocal];
  ContactFrame frame;
  ContactRows(pair, geo, in, in_d + 12 + cols.primals, out, &frame);

  const int no = pair.num_outputs(), seeds = cols.seeds();
  for (int r = 0; r < no; ++r) {
    out_d[r] = out[r].value();
    const double* d = out[r].derivatives().data();
    for (int a = 0; a < seeds; ++a) J[a * no + r] = d[a];
  }
  const int m_p = pair.shape_p.num_rows(), m_c = pair.shape_c.num_rows();
  const int na_p = pair.shape_p.num_aux(), na_c = pair.shape_c.num_aux();
  for (int i = 0; i < 2 * m_p; ++i) geo_d->G_p[i] = geo.G_p[i].value();
  for (int i = 0; i < 2 * m_c; ++i) geo_d->G_c[i] = geo.G_c[i].value();
  for (int i = 0; i < m_p; ++i) geo_d->Ga_p[i] = geo.Ga_p[i].value();
  for (int i = 0; i < m_c; ++i) geo_d->Ga_c[i] = geo.Ga_c[i].value();
  for (int i = 0; i < m_p * na_p; ++i) geo_d->Gx_p[i] = geo.Gx_p[i].value();
  for (int i = 0; i < m_c * na_c; ++i) geo_d->Gx_c[i] = geo.Gx_c[i].value();
  return frame;
}

// The impulse (f, torque about the body origin) of a change df of a body's contact force.
void ImpulseColumn(const Vec2& arm, const Vec2& df, double* column) {
  column[0] = df[0];
  column[1] = df[1];
  column[2] = arm[0] * df[1] - arm[1] * df[0];
}

// The dual columns d out / d z of a pair's local Jacobian, by hand: at fixed geometry the
// residual (ContactRows, Silico eq. 20) is linear in gamma, psi and beta with the normals as
// coefficients, and linear in each multiplier lambda_i through the normals n_P = sum_i
// dg_P,i/dp^T lambda_P,i and n_C = -sum_i dg_C,i/dp^T lambda_C,i (the floor reuses n_P), and
// through the stationarity rows. Written in the order AD would take (the same rounding).
// `z` = (gamma, psi, beta1, beta2, lambda_alpha, lambda_P, lambda_C); columns from `first`.
void DualColumns(const PlanarPair& pair, const CollisionGeometry<double>& geo, const ContactFrame& frame,
                 const double* z, int first, double* J) {
  using V = Vec2;
  const int m_p = pair.shape_p.num_rows(), m_c = pair.shape_c.num_rows();
  const int na_p = pair.shape_p.num_aux(), na_c = pair.shape_c.num_aux();
  const int np = pair.num_primals(), no = pair.num_outputs();
  const bool floor = pair.child_is_floor();
  const int opt = 6, slack = 6 + np;  // first rows of the stationarity and slackness blocks
  const double gamma = z[0], beta = pair.frictionless() ? 0.0 : z[2] - z[3];
  auto perp = [](const V& n) { return V(n[1], -n[0]); };  // the tangent of a normal
  auto column = [&](int j) { return J + (first + j) * no; };
  std::fill(column(0), column(pair.num_cone()), 0.0);

  // gamma, psi, beta1, beta2 (lambda_alpha does not enter: a zero column).
  const V t_p = perp(frame.n_p), t_c = perp(frame.n_c);
  const V neg_n_c = -frame.n_c, neg_t_c = -t_c;
  ImpulseColumn(frame.arm_p, frame.n_p, column(0));
  ImpulseColumn(frame.arm_c, neg_n_c, column(0) + 3);
  column(0)[slack + 1] = -pair.ConeFriction();
  column(1)[slack + 2] = -1.0;
  column(1)[slack + 3] = -1.0;
  for (int j = 2; j < 4; ++j) {
    const double sign = j == 2 ? 1.0 : -1.0;
    if (!pair.frictionless()) {  // a frictionless pair applies no beta
      ImpulseColumn(frame.arm_p, V(sign * t_p), column(j));
      ImpulseColumn(frame.arm_c, V(sign * neg_t_c), column(j) + 3);
    }
    column(j)[slack + 1] = 1.0;
  }

  // d v_t / d n for a body's material velocity v at p: v . perp(dn).
  auto slip = [](const V& vel, const V& dn) { return vel[0] * dn[1] + vel[1] * -dn[0]; };
  // lambda_P,i: dn_P = dg_P,i/dp (and dn_C = dn_P against the floor).
  for (int i = 0; i < m_p; ++i) {
    double* col = column(5 + i);
    const V G(geo.G_p[2 * i], geo.G_p[2 * i + 1]);
    const V df = perp(G) * beta + G * gamma;
    ImpulseColumn(frame.arm_p, df, col);
    double dv_t = slip(frame.vel_p, G);
    if (floor) {
      ImpulseColumn(frame.arm_c, V(-df), col + 3);
      dv_t -= slip(frame.vel_c, G);
    }
    col[opt] = G[0];
    col[opt + 1] = G[1];
    col[opt + 2] = -geo.Ga_p[i];
    for (int j = 0; j < na_p; ++j) col[opt + 3 + j] = geo.Gx_p[i * na_p + j];
    col[slack + 2] = -dv_t;
    col[slack + 3] = dv_t;
  }
  // lambda_C,i: dn_C = -dg_C,i/dp, unless the child is the floor (then only the stationarity).
  for (int i = 0; i < m_c; ++i) {
    double* col = column(5 + m_p + i);
    const V G(geo.G_c[2 * i], geo.G_c[2 * i + 1]);
    if (!floor) {
      const V dn = -G;
      ImpulseColumn(frame.arm_c, V(-(perp(dn) * beta + dn * gamma)), col + 3);
      const double dv_t = -slip(frame.vel_c, dn);
      col[slack + 2] = -dv_t;
      col[slack + 3] = dv_t;
    }
    col[opt] = G[0];
    col[opt + 1] = G[1];
    col[opt + 2] = -geo.Ga_c[i];
    for (int j = 0; j < na_c; ++j) col[opt + 3 + na_p + j] = geo.Gx_c[i * na_c + j];
  }
}

// Outputs and the local Jacobian d out / d (seeds, z) of one pair, column-major into J
// (no x LocalColumns::size()): AD over the geometry seeds (GeometryColumns), the duals by hand
// (DualColumns).
template <int N>
void LocalJacobianN(const PlanarPair& pair, const LocalColumns& cols, double dt, const double* in_d, double* out_d,
                    double* J) {
  CollisionGeometry<double> geo;
  const ContactFrame frame = GeometryColumns<N>(pair, cols, dt, in_d, out_d, J, &geo);
  DualColumns(pair, geo, frame, in_d + 12 + cols.primals, cols.seeds(), J);
}

void LocalJacobian(const PlanarPair& pair, const LocalColumns& cols, double dt, const double* in_d, double* out_d,
                   double* J) {
  const int n = cols.seeds();
  if (n <= 6) return LocalJacobianN<6>(pair, cols, dt, in_d, out_d, J);
  if (n <= 9) return LocalJacobianN<9>(pair, cols, dt, in_d, out_d, J);
  if (n <= 16) return LocalJacobianN<16>(pair, cols, dt, in_d, out_d, J);
  static_assert(kMaxGeometrySeeds <= 32);
  return LocalJacobianN<32>(pair, cols, dt, in_d, out_d, J);
}

// Adds one column of a pair's local Jacobian (or a local output vector) to the global one:
// the impulses (outputs 0-5) to the body rows with a minus (dropped on a fixed child), the
// stationarity and slackness rows to the pair's own rows, which no other pair or body row
// touches (so they are copied into the zeroed global column, not accumulated).
void ScatterColumn(const PlanarPair& pair, int ny, const double* local, double* global) {
  for (int r = 0; r < 3; ++r) global[3 * pair.body_p + r] -= local[r];
  if (pair.body_c >= 0) {
    for (int r = 0; r < 3; ++r) global[3 * pair.body_c + r] -= local[3 + r];
  }
  const int np = pair.num_primals(), nc = pair.num_cone();
  std::copy_n(local + 6, np, global + pair.y_offset);
  std::copy_n(local + 6 + np, nc, global + ny + pair.z_offset);
}

// Global column (of the step's Jacobian) of column `a` of a pair's local Jacobian with
// `through_pose`: body velocities, the pair's primals, its duals (after the ny primals).
int StepColumn(const PlanarPair& pair, const LocalColumns& cols, int ny, int a) {
  const int body_seeds = cols.bodies * 3;
  if (a < body_seeds) return 3 * (a < 3 ? pair.body_p : pair.body_c) + a % 3;
  if (a < cols.seeds()) return pair.y_offset + a - body_seeds;
  return ny + pair.z_offset + a - cols.seeds();
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
  Eigen::Index local_size = 0;
  for (const PlanarPair& pair : pairs_) {
    local_size = std::max<Eigen::Index>(local_size, pair.num_outputs() * LocalColumns(pair, false).size());
  }
  local_.resize(local_size);
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
    const int no = pair.num_outputs();
    LocalInput(pair, y, z, in_d);
    if (jacobian == nullptr) {
      PlanarContactResidual(pair, in_d, out_d);
    } else {
      // Velocity columns hold the total derivative through the end pose (through_pose).
      const LocalColumns cols(pair, /*through_pose=*/true);
      LocalJacobian(pair, cols, dt_, in_d, out_d, local_.data());
      for (int a = 0; a < cols.size(); ++a) {
        ScatterColumn(pair, ny_, local_.data() + a * no, jacobian->col(StepColumn(pair, cols, ny_, a)).data());
      }
    }
    ScatterColumn(pair, ny_, out_d, F.data());
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
    const LocalColumns cols(pair, /*through_pose=*/false);
    LocalJacobian(pair, cols, dt_, in_d, out_d, local_.data());
    // The end pose p3 = p2 + dt v25 depends on p2 with unit weight: the pose seeds' columns.
    for (int body = 0; body < cols.bodies; ++body) {
      const int slot = body == 0 ? pair.body_p : pair.body_c;
      for (int k = 0; k < 3; ++k) {
        ScatterColumn(pair, ny_, local_.data() + (6 * body + k) * no, dF_dtheta->col(3 * slot + k).data());
      }
    }
  }
}

void PlanarProblem::PairContact(const VecX& y, const VecX& z, int i, Vec2* point, Vec2* normal,
                                Vec2* impulse_on_parent) const {
  const PlanarPair& pair = pairs_[i];
  double in[kMaxLocal], out[kMaxLocal];
  LocalInput(pair, y, z, in);
  CollisionGeometry<double> geo;
  EvaluateCollisionGeometry(pair, in, in + 6, in + 12, &geo);
  ContactFrame frame;
  ContactRows(pair, geo, in, in + 12 + pair.num_primals(), out, &frame);
  *point = frame.point;
  *normal = frame.n_p.normalized();
  *impulse_on_parent = Vec2(out[0], out[1]);
}

int PlanarProblem::ActiveContacts(const VecX& z, const VecX& s) const {
  int n = 0;
  for (const PlanarPair& pair : pairs_) n += z[pair.z_offset] > s[pair.z_offset] ? 1 : 0;
  return n;
}

}  // namespace arena::silico
