#include "models/incremental_potential/plane_friction.h"

#include <cmath>
#include <limits>

#include <Eigen/Cholesky>

namespace arena {

namespace {

// L(u) = sum_k c_k rho_k, rho_k = sqrt(|a_k - u|^2 + eps), c_k = dt w_k, with its u-gradient
// and Hessian (Hessian of rho in s = a - u: (I - s s^T / rho^2) / rho).
struct Objective {
  double value = 0.0;
  Vec3 gradient = Vec3::Zero();
  Mat3 hessian = Mat3::Zero();
};

template <int N>
void Resize(PerVertex<N, Vec3>* v, int n) {
  if constexpr (N == Eigen::Dynamic) v->resize(n);
}

template <int N>
void EvaluateAt(const PerVertex<N, double>& c, const PerVertex<N, Vec3>& a, double eps, const Vec3& u, Objective* o) {
  // Local sums (registers, not stores through `o`), one division per vertex: this is the
  // innermost loop of the friction, run millions of times per step.
  double value = 0.0, diagonal = 0.0;
  Vec3 gradient = Vec3::Zero();
  double xx = 0.0, xy = 0.0, xz = 0.0, yy = 0.0, yz = 0.0, zz = 0.0;  // sum f s s^T / rho^2
  const int n = static_cast<int>(a.size());
  for (int k = 0; k < n; ++k) {
    const Vec3 s = a[k] - u;
    const double rho = std::sqrt(s.squaredNorm() + eps);
    const double inv = 1.0 / rho;
    const double f = c[k] * inv;
    const double f3 = f * inv * inv;
    value += c[k] * rho;
    gradient -= f * s;
    diagonal += f;
    xx += f3 * s.x() * s.x();
    xy += f3 * s.x() * s.y();
    xz += f3 * s.x() * s.z();
    yy += f3 * s.y() * s.y();
    yz += f3 * s.y() * s.z();
    zz += f3 * s.z() * s.z();
  }
  o->value = value;
  o->gradient = gradient;
  o->hessian << diagonal - xx, -xy, -xz, -xy, diagonal - yy, -yz, -xz, -yz, diagonal - zz;
}

// Newton with backtracking on the strictly convex L(u) (3 unknowns) from u; returns the
// minimiser and leaves L there in *o. L is a sum of positive terms, so its decrease sinks below
// its round-off (~eps L) while |grad L| is still far above its own (~eps dt sum w): there a trial
// within L's round-off is judged by |grad L| instead (as the triangle-pair solve does), else the
// search stalls at a 1e-8 error for 100 x 60 evaluations. No acceptable step at all means u is
// at round-off level: stop. `value_only`: see below.
template <int N>
Vec3 Minimize(const PerVertex<N, double>& c, const PerVertex<N, Vec3>& a, double eps, double scale, bool value_only,
              Vec3 u, Objective* o, bool* converged) {
  EvaluateAt<N>(c, a, eps, u, o);
  *converged = false;
  Objective trial;
  for (int it = 0; it < 100; ++it) {
    const Vec3 step = -o->hessian.llt().solve(o->gradient);
    if (step.norm() <= 1e-12 * (1.0 + u.norm()) || o->gradient.norm() <= 1e-14 * scale) {
      // Take that last (full) step too: the derivatives go through u with weights
      // ~ 1 / sqrt(eps), so u's remaining error would show in them as noise.
      u += step;
      EvaluateAt<N>(c, a, eps, u, o);
      *converged = true;
      return u;
    }
    // The value alone needs u only until the remaining decrease, -g.step / 2 near the minimiser
    // (the Newton decrement), is below L's round-off: D is a minimum over u, so u's error enters
    // it squared (the line searches' trial energies, which are most of the solves).
    const double decrease = -o->gradient.dot(step);
    if (value_only && decrease <= std::numeric_limits<double>::epsilon() * o->value) {
      *converged = true;
      return u;
    }
    const double noise = 16.0 * std::numeric_limits<double>::epsilon() * o->value;
    double t = 1.0;
    bool accepted = false;
    for (int ls = 0; ls < 60; ++ls, t *= 0.5) {
      EvaluateAt<N>(c, a, eps, u + t * step, &trial);
      if (trial.value <= o->value - 1e-4 * t * decrease || trial.value < o->value - noise) {
        accepted = true;
      } else if (trial.value <= o->value + noise) {
        accepted = trial.gradient.norm() < o->gradient.norm();
      }
      if (accepted) break;
    }
    if (!accepted) {
      *converged = true;  // no step lowers L or |grad L|: u is at round-off level
      return u;
    }
    u += t * step;
    *o = trial;
  }
  return u;
}

// Per vertex at the minimiser: s = a - u, rho, shat = s / rho, M = (I - shat shat^T) / rho.
struct Slip {
  Vec3 s, shat;
  double rho = 0.0;
  Mat3 M;
};

template <int N>
PerVertex<N, Slip> SlipsAt(const PerVertex<N, Vec3>& a, double eps, const Vec3& u) {
  PerVertex<N, Slip> slips;
  if constexpr (N == Eigen::Dynamic) slips.resize(a.size());
  for (size_t k = 0; k < a.size(); ++k) {
    Slip& p = slips[k];
    p.s = a[k] - u;
    p.rho = std::sqrt(p.s.squaredNorm() + eps);
    p.shat = p.s / p.rho;
    p.M = (Mat3::Identity() - p.shat * p.shat.transpose()) / p.rho;
  }
  return slips;
}

}  // namespace

template <int N>
void PlaneFriction(const PlaneFrictionInput<N>& in, PlaneFrictionResult<N>* out) {
  const int n = static_cast<int>(in.weight.size());
  // Only the requested outputs are cleared (and written): the result is ~4 kB for 6 vertices,
  // and most calls (the line searches' energies) want the value alone.
  if (in.outputs != FrictionOutputs::kValue) out->gradient.setZero(3 * n);
  if (in.outputs == FrictionOutputs::kHessian || in.outputs == FrictionOutputs::kAll) out->hessian.setZero(3 * n, 3 * n);
  if (in.outputs == FrictionOutputs::kAll) {
    out->dgradient_dweight.setZero(3 * n, n);
    out->dgradient_dnormal.setZero(3 * n, 3);
  }
  out->plane_velocity.setZero();
  out->value = 0.0;
  out->converged = true;
  double total_weight = 0.0;
  for (double w : in.weight) total_weight += w;
  if (!(total_weight > 0.0)) return;  // no normal force: no damping

  const Mat3 P = Mat3::Identity() - in.normal * in.normal.transpose();
  PerVertex<N, Vec3> delta, a;
  Resize<N>(&delta, n);
  Resize<N>(&a, n);
  Vec3 u = Vec3::Zero();
  for (int k = 0; k < n; ++k) {
    delta[k] = in.x_next[k] - in.x_start[k];
    a[k] = P * delta[k] / in.dt;
    u += in.weight[k] * a[k];
  }
  u /= total_weight;  // start at the weighted mean slip: the exact minimiser when eps -> inf
  if (in.start_velocity != nullptr && in.start_velocity->allFinite()) u = *in.start_velocity;

  PerVertex<N, double> c;
  if constexpr (N == Eigen::Dynamic) c.resize(n);
  for (int k = 0; k < n; ++k) c[k] = in.dt * in.weight[k];
  Objective o;
  u = Minimize<N>(c, a, in.eps, in.dt * total_weight, in.outputs == FrictionOutputs::kValue, u, &o, &out->converged);
  const Mat3& H = o.hessian;
  out->plane_velocity = u;
  out->value = o.value;
  if (in.outputs == FrictionOutputs::kValue) return;
  const PerVertex<N, Slip> slips = SlipsAt<N>(a, in.eps, u);

  // Envelope theorem and the Schur complement through u.
  const bool all = in.derivatives.empty();
  auto want = [&](int k) -> bool { return all || in.derivatives[k]; };
  for (int k = 0; k < n; ++k) {
    if (want(k)) out->gradient.template segment<3>(3 * k) = in.weight[k] * P * slips[k].shat;
  }
  if (in.outputs == FrictionOutputs::kGradient) return;
  const Mat3 Hinv = H.inverse();
  PerVertex<N, Mat3> PM, Duk, DukHinv;  // P M_k; dD_xk / du = -w_k P M_k; that times H^-1
  if constexpr (N == Eigen::Dynamic) {
    PM.resize(n);
    Duk.resize(n);
    DukHinv.resize(n);
  }
  for (int k = 0; k < n; ++k) {
    if (!want(k)) continue;
    PM[k] = P * slips[k].M;
    Duk[k] = -in.weight[k] * PM[k];
    DukHinv[k] = Duk[k] * Hinv;
    out->hessian.template block<3, 3>(3 * k, 3 * k) += in.weight[k] / in.dt * PM[k] * P;
  }
  // The Schur complement is symmetric (H is): each off-diagonal block is formed once.
  for (int k = 0; k < n; ++k) {
    if (!want(k)) continue;
    for (int l = k; l < n; ++l) {
      if (!want(l)) continue;
      const Mat3 b = DukHinv[k] * Duk[l].transpose();
      out->hessian.template block<3, 3>(3 * k, 3 * l) -= b;
      if (l != k) out->hessian.template block<3, 3>(3 * l, 3 * k) -= b.transpose();
    }
  }
  if (in.outputs == FrictionOutputs::kHessian) return;
  // Weights: dg_k/dw_m = [k = m] P shat_k + Duk du/dw_m, du/dw_m = dt H^-1 shat_m.
  for (int m = 0; m < n; ++m) {
    const Vec3 du = in.dt * (Hinv * slips[m].shat);
    for (int k = 0; k < n; ++k) {
      if (!want(k)) continue;
      Vec3 col = Duk[k] * du;
      if (k == m) col += P * slips[k].shat;
      out->dgradient_dweight.template block<3, 1>(3 * k, m) = col;
    }
  }
  // Normal: dP/dn_j = -(e_j n^T + n e_j^T); products taken matrix-vector, right to left.
  PerVertex<N, Vec3> dPd;  // dP delta_m
  Resize<N>(&dPd, n);
  for (int j = 0; j < 3; ++j) {
    const Mat3 dP = -(Vec3::Unit(j) * in.normal.transpose() + in.normal * Vec3::Unit(j).transpose());
    Vec3 dLu = Vec3::Zero();  // d(grad_u L)/dn_j at fixed u
    for (int m = 0; m < n; ++m) {
      dPd[m] = dP * delta[m];
      dLu -= in.weight[m] * (slips[m].M * dPd[m]);
    }
    const Vec3 du = -(Hinv * dLu);
    for (int k = 0; k < n; ++k) {
      if (!want(k)) continue;
      out->dgradient_dnormal.template block<3, 1>(3 * k, j) =
          in.weight[k] * (dP * slips[k].shat + PM[k] * dPd[k] / in.dt) + Duk[k] * du;
    }
  }
}

template void PlaneFriction<6>(const PlaneFrictionInput<6>&, PlaneFrictionResult<6>*);
template void PlaneFriction<Eigen::Dynamic>(const PlaneFrictionInput<Eigen::Dynamic>&,
                                            PlaneFrictionResult<Eigen::Dynamic>*);

}  // namespace arena
