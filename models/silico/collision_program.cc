#include "models/silico/collision_program.h"

#include <unsupported/Eigen/AutoDiff>

namespace arena::silico {

namespace {

// Forward-mode AD with fixed-size derivative vectors: constants then carry explicit zeros
// (Eigen's AutoDiff misreads empty dynamic derivative vectors mixed with full ones).
constexpr int kMaxVars = 64;

// d out / d(y, z) (wrt_poses = false) or d out / d(x_P, x_C) (true), n = number of seeds.
template <int N, class Residual>
void AdJacobian(const Residual& residual, const Vec3& x_p, const Vec3& x_c, const VecX& y, const VecX& z,
                bool wrt_poses, VecX* value, MatX* J) {
  using Ad = Eigen::AutoDiffScalar<Eigen::Matrix<double, N, 1>>;
  const int ny = static_cast<int>(y.size()), nz = static_cast<int>(z.size()), n = ny + nz;
  Ad x[6], yy[kMaxVars], zz[kMaxVars], out[kMaxVars];
  for (int i = 0; i < 3; ++i) {
    x[i] = wrt_poses ? Ad(x_p[i], N, i) : Ad(x_p[i]);
    x[3 + i] = wrt_poses ? Ad(x_c[i], N, 3 + i) : Ad(x_c[i]);
  }
  for (int i = 0; i < ny; ++i) yy[i] = wrt_poses ? Ad(y[i]) : Ad(y[i], N, i);
  for (int i = 0; i < nz; ++i) zz[i] = wrt_poses ? Ad(z[i]) : Ad(z[i], N, ny + i);
  residual(x, yy, zz, out);
  const int cols = wrt_poses ? 6 : n;
  J->resize(n, cols);
  if (value != nullptr) value->resize(n);
  for (int r = 0; r < n; ++r) {
    if (value != nullptr) (*value)[r] = out[r].value();
    J->row(r) = out[r].derivatives().head(cols).transpose();
  }
}

template <class Residual>
void AdJacobianDispatch(const Residual& residual, const Vec3& x_p, const Vec3& x_c, const VecX& y,
                        const VecX& z, bool wrt_poses, VecX* value, MatX* J) {
  const int n = wrt_poses ? 6 : static_cast<int>(y.size() + z.size());
  if (n <= 16) return AdJacobian<16>(residual, x_p, x_c, y, z, wrt_poses, value, J);
  if (n <= 32) return AdJacobian<32>(residual, x_p, x_c, y, z, wrt_poses, value, J);
  return AdJacobian<kMaxVars>(residual, x_p, x_c, y, z, wrt_poses, value, J);
}

}  // namespace

CollisionProgram::CollisionProgram(PlanarPair pair) : pair_(std::move(pair)) {
  cone_.orthant = 1 + pair_.shape_p.num_rows() + pair_.shape_c.num_rows();
}

void CollisionProgram::SetPoses(const Vec3& x_p, const Vec3& x_c) {
  x_p_ = x_p;
  x_c_ = x_c;
}

// out = [stationarity (num_primals) | -alpha, -g_P, -g_C]; z = (lambda_alpha, lambda_P, lambda_C).
template <class T>
void CollisionProgram::Residual(const T* x, const T* y, const T* z, T* out) const {
  T g[2 * kMaxShapeRows];
  V2<T> p, n_p, n_c;
  CollisionKkt(pair_, x, x + 3, y, z + 1, out, g, &p, &n_p, &n_c);
  T* slack = out + num_primals();
  slack[0] = -y[2];
  for (int i = 0; i < cone_.orthant - 1; ++i) slack[1 + i] = -g[i];
}

bool CollisionProgram::Evaluate(const VecX& y, const VecX& z, VecX* residual, MatX* jacobian) {
  const int n = num_primals() + cone_.orthant;
  if (jacobian == nullptr) {
    double x[6] = {x_p_[0], x_p_[1], x_p_[2], x_c_[0], x_c_[1], x_c_[2]};
    residual->resize(n);
    Residual(x, y.data(), z.data(), residual->data());
    return residual->allFinite();
  }
  auto f = [this](const auto* x, const auto* yy, const auto* zz, auto* out) { Residual(x, yy, zz, out); };
  AdJacobianDispatch(f, x_p_, x_c_, y, z, false, residual, jacobian);
  return residual->allFinite();
}

void CollisionProgram::ParameterJacobian(const VecX& y, const VecX& z, MatX* dF_dtheta) {
  auto f = [this](const auto* x, const auto* yy, const auto* zz, auto* out) { Residual(x, yy, zz, out); };
  AdJacobianDispatch(f, x_p_, x_c_, y, z, true, nullptr, dF_dtheta);
}

void CollisionProgram::PointAndNormal(const VecX& y, const VecX& z, Vec2* point, Vec2* normal) const {
  double opt[kMaxVars], g[2 * kMaxShapeRows];
  V2<double> p, n_p, n_c;
  CollisionKkt(pair_, x_p_.data(), x_c_.data(), y.data(), z.data() + 1, opt, g, &p, &n_p, &n_c);
  *point = p;
  *normal = n_p;
}

CollisionResult SolveCollision(CollisionProgram& program, InteriorPointSolver& solver, bool sensitivities) {
  CollisionResult r;
  const bool warm = solver.options().warm_start;
  solver.options().warm_start = false;
  r.report = solver.Solve(program);
  solver.options().warm_start = warm;
  const VecX& y = solver.primals();
  r.alpha = y[2];
  r.phi = r.alpha - 1.0;
  program.PointAndNormal(y, solver.duals(), &r.point, &r.normal);
  if (sensitivities) {
    MatX dw;
    if (solver.Differentiate(program, &dw)) {
      // y = (c, alpha, ...): the point is c + (r_P + r_C)/2 (or c + r_P on the floor); its
      // explicit dependence on the poses is added to dc/dx.
      r.dphi_dx = dw.row(2);
      r.dpoint_dx = dw.topRows(2);
      const PlanarPair& pair = program.pair();
      auto add_reference = [&](int col0, const Vec3& placement, double weight, double angle) {
        const double c = std::cos(angle), s = std::sin(angle);
        r.dpoint_dx(0, col0) += weight;
        r.dpoint_dx(1, col0 + 1) += weight;
        r.dpoint_dx(0, col0 + 2) += weight * (-s * placement[0] - c * placement[1]);
        r.dpoint_dx(1, col0 + 2) += weight * (c * placement[0] - s * placement[1]);
      };
      const double w = pair.child_is_floor() ? 1.0 : 0.5;
      add_reference(0, pair.placement_p, w, program.x_p()[2]);
      if (!pair.child_is_floor()) add_reference(3, pair.placement_c, w, program.x_c()[2]);
    }
  }
  return r;
}

InteriorPointOptions PsdfSolverOptions() {
  InteriorPointOptions o;
  o.complementarity_tolerance = 1e-4;
  o.residual_tolerance = 1e-5;
  o.max_iterations = 20;
  o.compressed = true;
  return o;
}

}  // namespace arena::silico
