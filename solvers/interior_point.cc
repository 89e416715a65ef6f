// Primal-dual interior-point solver for NCPs over the orthant and second-order cones.
// The algorithm is the one the header documents (Silico Sec. V-C, as the authors' released
// solver implements it): a Mehrotra predictor-corrector on the relaxed system
// [F(y, z) + [0; s]; z o s - rho e] = 0 with a fraction-to-boundary rule and a permissive
// backtracking line search.
//
// Layout of the unknowns: w = (y, z, s), sizes (ny, nc, nc). Rows of the full Newton system:
//   [ dF/dy  dF/dz   [0; I] ] [dy]     [ F + [0; s]          ]
//   [   0    Arrow(s) Arrow(z)] [dz] = - [ z o s - kappa e     ]
//                               [ds]
// Arrow(u) v = u o v is the Jordan product's matrix (diag(u) on the orthant).
// The compressed system eliminates ds = -Arrow(z)^-1 (r_c + Arrow(s) dz) (the companion
// solver's "compressed" search direction), leaving ny + nc unknowns with
// -Arrow(z)^-1 Arrow(s) added to the slackness rows' z columns.
//
// Allocation: every buffer is sized in Resize() when the dimensions change; the iteration loop
// only assigns into buffers of the right size (Eigen does not reallocate then), and the LU
// object keeps its storage between factorizations of equal size.
#include "solvers/interior_point.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/common/deadline.h"
#include "core/common/error.h"

namespace arena {

int ConeSpec::size() const {
  int n = orthant;
  for (int m : soc) n += m;
  return n;
}

int ConeSpec::degree() const { return orthant + static_cast<int>(soc.size()); }

std::string_view ToString(InteriorPointStatus status) {
  switch (status) {
    case InteriorPointStatus::kConverged: return "converged";
    case InteriorPointStatus::kMaxIterations: return "max_iterations";
    case InteriorPointStatus::kSingular: return "singular";
    case InteriorPointStatus::kNonFinite: return "non_finite";
    case InteriorPointStatus::kDeadline: return "deadline";
  }
  return "?";
}

namespace {

// A factorization whose smallest pivot is below this fraction of the largest one is singular.
// Barrier systems are legitimately ill-conditioned near the solution (s/z spans ~1/rho^2), so
// only pivots that carry no digits at all (exact zeros, denormal-level ratios) are rejected;
// anything else is left to the finite-solution check and the line search.
constexpr double kSingularPivotRatio = 1e-20;

using ConstRef = Eigen::Ref<const VecX>;
using MutRef = Eigen::Ref<VecX>;

/// Every entry finite, as Eigen's allFinite() but vectorized: x * 0 is 0 for a finite x and NaN
/// otherwise, so the sum is 0 exactly when all are finite (allFinite() is a scalar loop with a
/// branch per entry, a few percent of a contact step for the Jacobian's check).
template <class Derived>
bool AllFinite(const Eigen::DenseBase<Derived>& m) {
  return (m.derived().array() * 0.0).sum() == 0.0;
}

bool SameCone(const ConeSpec& a, const ConeSpec& b) {
  return a.orthant == b.orthant && a.soc == b.soc;
}

void Validate(int num_primals, const ConeSpec& cone) {
  if (num_primals < 0) throw InvalidArgument("interior point: negative num_primals");
  if (cone.orthant < 0) throw InvalidArgument("interior point: negative orthant size");
  for (int m : cone.soc) {
    if (m < 2) {
      throw InvalidArgument("interior point: second-order cone block of size " +
                            std::to_string(m) + " (must be >= 2)");
    }
  }
}

/// u = value * e (e = 1 on the orthant, (1, 0, ..., 0) on each SOC block).
void SetNeutral(const ConeSpec& K, double value, VecX* u) {
  u->setZero();
  u->head(K.orthant).setConstant(value);
  int o = K.orthant;
  for (int m : K.soc) {
    (*u)[o] = value;
    o += m;
  }
}

/// u += value * e.
void AddNeutral(const ConeSpec& K, double value, VecX* u) {
  u->head(K.orthant).array() += value;
  int o = K.orthant;
  for (int m : K.soc) {
    (*u)[o] += value;
    o += m;
  }
}

/// out += scale * (u o v), the Jordan product: u_i v_i on the orthant,
/// (u.v, u0 v1 + v0 u1) on a SOC block. `out` must not alias u or v.
void AddJordan(const ConeSpec& K, double scale, const ConstRef& u, const ConstRef& v,
               MutRef out) {
  for (int i = 0; i < K.orthant; ++i) out[i] += scale * u[i] * v[i];
  int o = K.orthant;
  for (int m : K.soc) {
    const double u0 = u[o], v0 = v[o];
    out[o] += scale * u.segment(o, m).dot(v.segment(o, m));
    for (int k = 1; k < m; ++k) out[o + k] += scale * (u0 * v[o + k] + v0 * u[o + k]);
    o += m;
  }
}

/// out = z o s - kappa e.
void SetComplementarity(const ConeSpec& K, const VecX& z, const VecX& s, double kappa, VecX* out) {
  out->setZero();
  AddJordan(K, 1.0, z, s, *out);
  AddNeutral(K, -kappa, out);
}

/// t <- Arrow(z)^-1 t in place for one SOC block z strictly inside the cone. With
/// det = z0^2 - |z1|^2:  Arrow(z)^-1 = 1/det [[z0, -z1^T], [-z1, (det/z0) I + z1 z1^T / z0]].
void SocArrowSolveInPlace(const ConstRef& z, MutRef t) {
  const Eigen::Index m = z.size();
  const double z0 = z[0];
  const auto z1 = z.tail(m - 1);
  const double n1 = z1.norm();
  const double det = (z0 - n1) * (z0 + n1);
  const double t0 = t[0];
  const double z1t1 = z1.dot(t.tail(m - 1));
  for (Eigen::Index k = 1; k < m; ++k) {
    t[k] = -t0 * z[k] / det + t[k] / z0 + z[k] * z1t1 / (z0 * det);
  }
  t[0] = (z0 * t0 - z1t1) / det;
}

/// t <- Arrow(z)^-1 t over the whole cone (t / z on the orthant).
void ArrowSolveInPlace(const ConeSpec& K, const VecX& z, MutRef t) {
  for (int i = 0; i < K.orthant; ++i) t[i] /= z[i];
  int o = K.orthant;
  for (int m : K.soc) {
    SocArrowSolveInPlace(z.segment(o, m), t.segment(o, m));
    o += m;
  }
}

/// Convergence and line-search measures of the complementarity z o s - rho e: the orthant
/// entries and a SOC block's first entry are signed (one-sided) or absolute; a SOC block's
/// other entries (target 0) always enter as absolute values. 0 for an empty cone.
double ComplementarityMeasure(const ConeSpec& K, const VecX& z, const VecX& s, double rho,
                              bool absolute) {
  double worst = -kInf;
  auto take = [&](double v) { worst = std::max(worst, absolute ? std::abs(v) : v); };
  for (int i = 0; i < K.orthant; ++i) take(z[i] * s[i] - rho);
  int o = K.orthant;
  for (int m : K.soc) {
    take(z.segment(o, m).dot(s.segment(o, m)) - rho);
    for (int k = 1; k < m; ++k) worst = std::max(worst, std::abs(z[o] * s[o + k] + s[o] * z[o + k]));
    o += m;
  }
  return worst == -kInf ? 0.0 : worst;
}

/// |F + [0; s]|_inf.
double EqualityViolation(int ny, const VecX& F, const VecX& s) {
  double worst = 0.0;
  for (int i = 0; i < ny; ++i) worst = std::max(worst, std::abs(F[i]));
  for (int i = 0; i < s.size(); ++i) worst = std::max(worst, std::abs(F[ny + i] + s[i]));
  return worst;
}

/// Largest a >= 0 with (u0, u1) + a (du0, du1) in {x0 >= |x1|}, u strictly inside (kInf if
/// the whole ray stays inside). f(a) = (u0 + a du0)^2 - |u1 + a du1|^2 = A a^2 + 2 B a + C is
/// positive at 0 and the ray leaves the cone at f's smallest positive root (it cannot reach
/// the negative cone without crossing f <= 0).
double SocMaxStep(const ConstRef& u, const ConstRef& du) {
  const int m = static_cast<int>(u.size());
  const double u0 = u[0], du0 = du[0];
  const auto u1 = u.tail(m - 1), du1 = du.tail(m - 1);
  const double n1 = u1.norm();
  const double C = (u0 - n1) * (u0 + n1);
  if (!(C > 0.0) || !(u0 > 0.0)) return 0.0;
  const double A = du0 * du0 - du1.squaredNorm();
  const double B = u0 * du0 - u1.dot(du1);
  if (A == 0.0) return B < 0.0 ? -C / (2.0 * B) : kInf;
  const double disc = B * B - A * C;
  if (disc < 0.0) return kInf;  // then A > 0: f never vanishes
  // Stable roots of A a^2 + 2 B a + C: q / A and C / q.
  const double q = -(B + std::copysign(std::sqrt(disc), B));
  double best = kInf;
  const double r1 = q / A;
  if (r1 > 0.0) best = std::min(best, r1);
  if (q != 0.0) {
    const double r2 = C / q;
    if (r2 > 0.0) best = std::min(best, r2);
  }
  return best;
}

/// Largest a >= 0 keeping u + a du in the cone.
double MaxStep(const ConeSpec& K, const VecX& u, const VecX& du) {
  double a = kInf;
  for (int i = 0; i < K.orthant; ++i) {
    if (du[i] < 0.0) a = std::min(a, -u[i] / du[i]);
  }
  int o = K.orthant;
  for (int m : K.soc) {
    a = std::min(a, SocMaxStep(u.segment(o, m), du.segment(o, m)));
    o += m;
  }
  return a;
}

/// Whether the block u[offset, offset + size) is strictly inside its cone (size 1: an orthant
/// entry).
bool StrictlyInside(const VecX& u, int offset, int size) {
  if (size == 1) return u[offset] > 0.0;
  return u[offset] > u.segment(offset + 1, size - 1).norm();
}

}  // namespace

void InteriorPointSolver::Resize(int num_primals, const ConeSpec& cone) {
  if (num_primals == num_primals_ && scratch_compressed_ == options_.compressed &&
      SameCone(cone, cone_)) {
    return;
  }
  Validate(num_primals, cone);
  num_primals_ = num_primals;
  cone_ = cone;
  scratch_compressed_ = options_.compressed;
  const int ny = num_primals, nc = cone.size(), nf = ny + nc;
  const int nsys = options_.compressed ? nf : nf + nc;
  residual_.resize(nf);
  candidate_residual_.resize(nf);
  fd_residual_.resize(nf);
  eq_residual_.resize(nf);
  jacobian_.resize(nf, nf);
  system_.resize(nsys, nsys);
  rhs_.resize(nsys);
  solution_.resize(nsys);
  y_try_.resize(ny);
  fd_y_.resize(ny);
  dy_.resize(ny);
  for (VecX* v : {&z_try_, &s_try_, &dz_, &ds_, &dz_aff_, &ds_aff_, &comp_residual_, &fd_z_}) {
    v->resize(nc);
  }
  int largest = 0;
  for (int m : cone.soc) largest = std::max(largest, m);
  soc_work_.resize(largest);
}

bool InteriorPointSolver::EvaluateResidual(ComplementarityProblem& problem, const VecX& y,
                                           const VecX& z, VecX* residual) {
  const Eigen::Index n = residual->size();
  const bool ok = problem.Evaluate(y, z, residual, nullptr);
  if (residual->size() != n) {
    throw InvalidArgument("interior point: Evaluate returned " + std::to_string(residual->size()) +
                          " residual rows, expected " + std::to_string(n));
  }
  return ok && AllFinite(*residual);
}

bool InteriorPointSolver::EvaluateJacobian(ComplementarityProblem& problem) {
  const int ny = num_primals_, nf = static_cast<int>(residual_.size());
  if (!options_.finite_difference_jacobian) {
    const bool ok = problem.Evaluate(y_, z_, &residual_, &jacobian_);
    if (residual_.size() != nf || jacobian_.rows() != nf || jacobian_.cols() != nf) {
      throw InvalidArgument("interior point: Evaluate returned a residual or Jacobian of the "
                            "wrong size (expected " + std::to_string(nf) + " rows)");
    }
    return ok && AllFinite(residual_) && AllFinite(jacobian_);
  }
  // Forward differences about residual_ = F(y_, z_); step sqrt(eps) max(1, |w_j|), taken as
  // the representable difference (w + h) - w.
  const double root_eps = std::sqrt(std::numeric_limits<double>::epsilon());
  fd_y_ = y_;
  fd_z_ = z_;
  for (int j = 0; j < nf; ++j) {
    double& w = j < ny ? fd_y_[j] : fd_z_[j - ny];
    const double w0 = w;
    w = w0 + root_eps * std::max(1.0, std::abs(w0));
    const double h = w - w0;
    const bool ok = EvaluateResidual(problem, fd_y_, fd_z_, &fd_residual_);
    w = w0;
    if (!ok) return false;
    jacobian_.col(j) = (fd_residual_ - residual_) / h;
  }
  return true;
}

bool InteriorPointSolver::Factorize(bool regularize) {
  const ConeSpec& K = cone_;
  const int ny = num_primals_, nc = K.size(), nf = ny + nc;
  if (options_.compressed) {
    // Slackness rows' z columns get -Arrow(z)^-1 Arrow(s) (orthant: -diag(s / z)).
    system_ = jacobian_;
    for (int i = 0; i < K.orthant; ++i) system_(ny + i, ny + i) -= s_[i] / z_[i];
    int o = K.orthant;
    for (int m : K.soc) {
      for (int j = 0; j < m; ++j) {
        // Column j of Arrow(s): (s0, s1) for j = 0, (s_j, s0 e_j) otherwise.
        auto col = soc_work_.head(m);
        if (j == 0) {
          col = s_.segment(o, m);
        } else {
          col.setZero();
          col[0] = s_[o + j];
          col[j] = s_[o];
        }
        SocArrowSolveInPlace(z_.segment(o, m), col);
        system_.block(ny + o, ny + o + j, m, 1) -= col;
      }
      o += m;
    }
  } else {
    system_.setZero();
    system_.topLeftCorner(nf, nf) = jacobian_;
    for (int i = 0; i < nc; ++i) system_(ny + i, nf + i) = 1.0;  // [0; I] of the slacks
    for (int i = 0; i < K.orthant; ++i) {
      system_(nf + i, ny + i) = s_[i];
      system_(nf + i, nf + i) = z_[i];
    }
    int o = K.orthant;
    for (int m : K.soc) {
      // Arrow(u) = [[u0, u1^T], [u1, u0 I]]: Arrow(s) in the dz columns, Arrow(z) in the ds ones.
      for (int pass = 0; pass < 2; ++pass) {
        const VecX& u = pass == 0 ? s_ : z_;
        const int c0 = (pass == 0 ? ny : nf) + o, r0 = nf + o;
        system_.block(r0, c0, 1, m) = u.segment(o, m).transpose();
        system_.block(r0 + 1, c0, m - 1, 1) = u.segment(o + 1, m - 1);
        for (int k = 1; k < m; ++k) system_(r0 + k, c0 + k) = u[o];
      }
      o += m;
    }
  }
  if (regularize) {
    for (int i = 0; i < ny; ++i) system_(i, i) += options_.primal_regularization;
    for (int i = 0; i < nc; ++i) system_(ny + i, ny + i) -= options_.dual_regularization;
  }
  if (system_.size() == 0) return true;
  lu_.set_kind(options_.linear_solver);  // options() may have changed since construction
  return lu_.Compute(&system_, kSingularPivotRatio);  // system_ is rebuilt before every factorization
}

bool InteriorPointSolver::SolveDirection() {
  const ConeSpec& K = cone_;
  const int ny = num_primals_, nc = K.size(), nf = ny + nc;
  if (options_.compressed) {
    // rhs = -[r_opt; r_slack - Arrow(z)^-1 r_c]; then ds = -Arrow(z)^-1 (r_c + s o dz).
    rhs_.tail(nc) = comp_residual_;
    ArrowSolveInPlace(K, z_, rhs_.tail(nc));
    rhs_.tail(nc) -= eq_residual_.tail(nc);
    rhs_.head(ny) = -eq_residual_.head(ny);
    if (nf > 0) lu_.Solve(rhs_, &solution_);
    dy_ = solution_.head(ny);
    dz_ = solution_.tail(nc);
    ds_ = comp_residual_;
    AddJordan(K, 1.0, s_, dz_, ds_);
    ArrowSolveInPlace(K, z_, ds_);
    ds_ *= -1.0;
  } else {
    rhs_.head(nf) = -eq_residual_;
    rhs_.tail(nc) = -comp_residual_;
    if (nf > 0) lu_.Solve(rhs_, &solution_);
    dy_ = solution_.head(ny);
    dz_ = solution_.segment(ny, nc);
    ds_ = solution_.tail(nc);
  }
  return AllFinite(dy_) && AllFinite(dz_) && AllFinite(ds_);
}

double InteriorPointSolver::StepToBoundary() const {
  const double a = std::min(MaxStep(cone_, z_, dz_), MaxStep(cone_, s_, ds_));
  return std::min(1.0, options_.fraction_to_boundary * a);
}

InteriorPointReport InteriorPointSolver::Finish(InteriorPointReport report,
                                                InteriorPointStatus status) const {
  report.status = status;
  report.residual = EqualityViolation(num_primals_, residual_, s_);
  report.complementarity =
      ComplementarityMeasure(cone_, z_, s_, options_.complementarity_tolerance, false);
  return report;
}

InteriorPointReport InteriorPointSolver::Solve(ComplementarityProblem& problem) {
  const int ny = problem.num_primals();
  Resize(ny, problem.cone());  // validates the cone
  const ConeSpec& K = cone_;
  const int nc = K.size();
  const bool warm = options_.warm_start && y_.size() == ny && z_.size() == nc &&
                    s_.size() == nc && y_.allFinite() && z_.allFinite() && s_.allFinite();

  // Starting point (Silico Sec. V-C: cold start at z = s = e; warm start backs the previous
  // solution off the cone's boundary so that the barrier iterates start strictly inside).
  if (warm) {
    AddNeutral(K, options_.warm_start_backstep, &z_);
    AddNeutral(K, options_.warm_start_backstep, &s_);
    // A start that is still not strictly inside (e.g. a SetStart on the boundary with a zero
    // backstep) would break the fraction-to-boundary rule: that block restarts cold.
    int o = 0;
    auto repair = [&](int offset, int size) {
      for (VecX* u : {&z_, &s_}) {
        if (!StrictlyInside(*u, offset, size)) {
          u->segment(offset, size).setZero();
          (*u)[offset] = options_.initial_cone_value;
        }
      }
    };
    for (; o < K.orthant; ++o) repair(o, 1);
    for (int m : K.soc) {
      repair(o, m);
      o += m;
    }
  } else {
    y_.resize(ny);
    problem.InitialPrimals(&y_);
    if (y_.size() != ny) throw InvalidArgument("interior point: InitialPrimals changed the size");
    z_.resize(nc);
    s_.resize(nc);
    SetNeutral(K, options_.initial_cone_value, &z_);
    SetNeutral(K, options_.initial_cone_value, &s_);
  }

  const double rho = options_.complementarity_tolerance;
  const double tol = options_.residual_tolerance;
  const int degree = K.degree();
  InteriorPointReport report;
  bool have_residual = false;  // residual_ holds F(y_, z_)

  for (int it = 1; it <= options_.max_iterations; ++it) {
    if (DeadlinePassed()) {
      report.iterations = it - 1;
      if (!have_residual && !EvaluateResidual(problem, y_, z_, &residual_)) {
        return Finish(report, InteriorPointStatus::kNonFinite);
      }
      return Finish(report, InteriorPointStatus::kDeadline);
    }
    report.iterations = it;
    // 1. Convergence: |F + [0; s]|_inf and the one-sided max(z o s - rho e).
    if (!have_residual) {
      if (!EvaluateResidual(problem, y_, z_, &residual_)) {
        return Finish(report, InteriorPointStatus::kNonFinite);
      }
      have_residual = true;
    }
    const double equality = EqualityViolation(ny, residual_, s_);
    if (equality <= tol && ComplementarityMeasure(K, z_, s_, rho, false) <= tol) {
      return Finish(report, InteriorPointStatus::kConverged);
    }

    if (!EvaluateJacobian(problem)) return Finish(report, InteriorPointStatus::kNonFinite);
    if (!Factorize(true)) return Finish(report, InteriorPointStatus::kSingular);

    // 2. Predictor, aimed at rho rather than 0 (the relaxed complementarity).
    eq_residual_ = residual_;
    eq_residual_.tail(nc) += s_;
    SetComplementarity(K, z_, s_, rho, &comp_residual_);
    if (!SolveDirection()) return Finish(report, InteriorPointStatus::kSingular);
    // 3. Fraction to the boundary.
    const double alpha_aff = StepToBoundary();

    double alpha = alpha_aff;
    if (degree > 0) {
      // 4. Centering (the companion solver's): sigma = (nu_aff / nu)^3, target never below rho.
      const double nu = z_.dot(s_) / degree;
      const double nu_aff = (z_ + alpha_aff * dz_).dot(s_ + alpha_aff * ds_) / degree;
      const double ratio = std::clamp(nu_aff / nu, 0.0, 1.0);
      const double kappa = std::max(ratio * ratio * ratio * nu, rho);
      // 5. Corrector with the same factorization: z o s - kappa e + c^2 a^2 (dz o ds).
      dz_aff_.swap(dz_);
      ds_aff_.swap(ds_);
      const double ca = options_.complementarity_correction * alpha_aff;
      SetComplementarity(K, z_, s_, kappa, &comp_residual_);
      AddJordan(K, ca * ca, dz_aff_, ds_aff_, comp_residual_);
      if (!SolveDirection()) return Finish(report, InteriorPointStatus::kSingular);
      // 6. One scalar step for all of w.
      alpha = StepToBoundary();
    }

    // 7. Backtracking: accept when the equality OR the (absolute) complementarity violation
    //    decreased; after max_line_search tries take the last candidate anyway (the companion
    //    solver's permissive rule).
    const double complementarity = ComplementarityMeasure(K, z_, s_, rho, true);
    const int tries = std::max(1, options_.max_line_search);
    bool accepted = false, finite = false;
    for (int t = 0; t < tries; ++t) {
      if (t > 0) alpha *= options_.line_search_scale;
      y_try_ = y_ + alpha * dy_;
      z_try_ = z_ + alpha * dz_;
      s_try_ = s_ + alpha * ds_;
      finite = EvaluateResidual(problem, y_try_, z_try_, &candidate_residual_);
      if (!finite) continue;
      if (EqualityViolation(ny, candidate_residual_, s_try_) < equality ||
          ComplementarityMeasure(K, z_try_, s_try_, rho, true) < complementarity) {
        accepted = true;
        break;
      }
    }
    if (!accepted) {
      ++report.line_search_failures;
      // Even the smallest step leaves F's domain: stop at the current (finite) point.
      if (!finite) return Finish(report, InteriorPointStatus::kNonFinite);
    }
    y_.swap(y_try_);
    z_.swap(z_try_);
    s_.swap(s_try_);
    residual_.swap(candidate_residual_);
  }

  report.iterations = std::max(0, options_.max_iterations);
  if (!have_residual && !EvaluateResidual(problem, y_, z_, &residual_)) {
    return Finish(report, InteriorPointStatus::kNonFinite);
  }
  return Finish(report, InteriorPointStatus::kMaxIterations);
}

bool InteriorPointSolver::Differentiate(ComplementarityProblem& problem, MatX* dw_dtheta) {
  const int ny = problem.num_primals();
  const ConeSpec& cone = problem.cone();
  const int nc = cone.size(), nf = ny + nc;
  if (ny != num_primals_ || !SameCone(cone, cone_) || y_.size() != ny || z_.size() != nc ||
      s_.size() != nc) {
    return false;  // no solution of this problem to differentiate
  }
  Resize(ny, cone);  // options().compressed may have changed since the solve
  const ConeSpec& K = cone_;
  if (!EvaluateResidual(problem, y_, z_, &residual_) || !EvaluateJacobian(problem)) return false;
  // The exact Jacobian (no regularization): the implicit function theorem needs the true J.
  if (!Factorize(false)) return false;

  dF_dtheta_.resize(nf, 0);
  problem.ParameterJacobian(y_, z_, &dF_dtheta_);
  if (dF_dtheta_.rows() != nf || !dF_dtheta_.allFinite()) return false;
  const Eigen::Index p = dF_dtheta_.cols();
  dw_dtheta->resize(nf + nc, p);
  if (p == 0) return true;

  // The complementarity rows do not depend on theta: right-hand side -[dF/dtheta; 0].
  if (options_.compressed) {
    parameter_solution_ = lu_.Solve(MatX(-dF_dtheta_));
    dw_dtheta->topRows(nf) = parameter_solution_;
    for (Eigen::Index j = 0; j < p; ++j) {
      // ds = -Arrow(z)^-1 (s o dz).
      auto ds = dw_dtheta->col(j).tail(nc);
      ds.setZero();
      AddJordan(K, 1.0, s_, parameter_solution_.col(j).tail(nc), ds);
      ArrowSolveInPlace(K, z_, ds);
      ds *= -1.0;
    }
  } else {
    parameter_solution_.setZero(nf + nc, p);
    parameter_solution_.topRows(nf) = -dF_dtheta_;
    *dw_dtheta = lu_.Solve(parameter_solution_);
  }
  return dw_dtheta->allFinite();
}

void InteriorPointSolver::SetStart(const VecX& y, const VecX& z, const VecX& s) {
  y_ = y;
  z_ = z;
  s_ = s;
}

}  // namespace arena
