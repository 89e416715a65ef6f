#include "models/longrange/plane_friction.h"

#include <cmath>
#include <limits>

#include <Eigen/Cholesky>

namespace arena::longrange {

namespace {

// Per vertex at the current u: s = a - u, rho = sqrt(|s|^2 + eps), M = (I - s s^T / rho^2) / rho
// (the Hessian of rho in s).
struct Slip {
  Vec3 s, shat;
  double rho = 0.0;
  Mat3 M;
};

void Evaluate(const PlaneFrictionInput& in, const std::array<Vec3, 6>& a, const Vec3& u, std::array<Slip, 6>* slips,
              double* value, Vec3* grad_u, Mat3* hess_u) {
  *value = 0.0;
  grad_u->setZero();
  hess_u->setZero();
  for (int k = 0; k < 6; ++k) {
    Slip& p = (*slips)[k];
    p.s = a[k] - u;
    p.rho = std::sqrt(p.s.squaredNorm() + in.eps);
    p.shat = p.s / p.rho;
    p.M = (Mat3::Identity() - p.shat * p.shat.transpose()) / p.rho;
    *value += in.dt * in.weight[k] * p.rho;
    *grad_u -= in.dt * in.weight[k] * p.shat;
    *hess_u += in.dt * in.weight[k] * p.M;
  }
}

// L(u) alone, summed as in Evaluate (the line search compares like with like).
double Value(const PlaneFrictionInput& in, const std::array<Vec3, 6>& a, const Vec3& u) {
  double value = 0.0;
  for (int k = 0; k < 6; ++k) value += in.dt * in.weight[k] * std::sqrt((a[k] - u).squaredNorm() + in.eps);
  return value;
}

}  // namespace

void PlaneFriction(const PlaneFrictionInput& in, PlaneFrictionResult* out) {
  // Only the requested outputs are cleared (and written): the result is ~4 kB, and most calls
  // (the line searches' energies) want the value alone.
  if (in.outputs != FrictionOutputs::kValue) out->gradient.setZero();
  if (in.outputs == FrictionOutputs::kHessian || in.outputs == FrictionOutputs::kAll) out->hessian.setZero();
  if (in.outputs == FrictionOutputs::kAll) {
    out->dgradient_dweight.setZero();
    out->dgradient_dnormal.setZero();
  }
  out->plane_velocity.setZero();
  out->value = 0.0;
  out->converged = true;
  double total_weight = 0.0;
  for (double w : in.weight) total_weight += w;
  if (!(total_weight > 0.0)) return;  // no normal force: no damping

  const Mat3 P = Mat3::Identity() - in.normal * in.normal.transpose();
  std::array<Vec3, 6> delta, a;
  Vec3 u = Vec3::Zero();
  for (int k = 0; k < 6; ++k) {
    delta[k] = in.x_next[k] - in.x_start[k];
    a[k] = P * delta[k] / in.dt;
    u += in.weight[k] * a[k];
  }
  u /= total_weight;  // start at the weighted mean slip: the exact minimiser when eps -> inf
  if (in.start_velocity != nullptr && in.start_velocity->allFinite()) u = *in.start_velocity;

  // Newton with backtracking on the strictly convex L(u) (3 unknowns). L is a sum of positive
  // terms, so its decrease sinks below its round-off (~eps L) while |grad L| is still far above
  // its own (~eps dt sum w): there a trial within L's round-off is judged by |grad L| instead
  // (as the triangle-pair solve does), else the search stalls at a 1e-8 error for 100 x 60
  // evaluations. No acceptable step at all means u is at round-off level: stop.
  std::array<Slip, 6> slips;
  double L;
  Vec3 g;
  Mat3 H;
  Evaluate(in, a, u, &slips, &L, &g, &H);
  out->converged = false;
  const double scale = in.dt * total_weight;  // |grad L| is at most this
  std::array<Slip, 6> trial_slips;
  double trial_L;
  Vec3 trial_g;
  Mat3 trial_H;
  for (int it = 0; it < 100; ++it) {
    const Vec3 step = -H.ldlt().solve(g);
    if (step.norm() <= 1e-12 * (1.0 + u.norm()) || g.norm() <= 1e-14 * scale) {
      // Take that last (full) step too: the derivatives below go through u with weights
      // ~ 1 / sqrt(eps), so u's remaining error would show in them as noise.
      u += step;
      Evaluate(in, a, u, &slips, &L, &g, &H);
      out->converged = true;
      break;
    }
    // The value alone needs u only until the remaining decrease, -g.step / 2 near the minimiser
    // (the Newton decrement), is below L's round-off: D is a minimum over u, so u's error enters
    // it squared (the line searches' trial energies, which are most of the solves).
    if (in.outputs == FrictionOutputs::kValue && -g.dot(step) <= std::numeric_limits<double>::epsilon() * L) {
      out->converged = true;
      break;
    }
    const double noise = 16.0 * std::numeric_limits<double>::epsilon() * L;
    double t = 1.0;
    bool accepted = false;
    for (int ls = 0; ls < 60; ++ls, t *= 0.5) {
      const double trial = Value(in, a, u + t * step);
      if (trial <= L + 1e-4 * t * g.dot(step) || trial < L - noise) {
        Evaluate(in, a, u + t * step, &trial_slips, &trial_L, &trial_g, &trial_H);
        accepted = true;
      } else if (trial <= L + noise) {
        Evaluate(in, a, u + t * step, &trial_slips, &trial_L, &trial_g, &trial_H);
        accepted = trial_g.norm() < g.norm();
      }
      if (accepted) break;
    }
    if (!accepted) {
      out->converged = true;  // no step lowers L or |grad L|: u is at round-off level
      break;
    }
    u += t * step;
    slips = trial_slips;
    L = trial_L;
    g = trial_g;
    H = trial_H;
  }
  out->plane_velocity = u;
  out->value = L;
  if (in.outputs == FrictionOutputs::kValue) return;

  // Envelope theorem and the Schur complement through u.
  for (int k = 0; k < 6; ++k) out->gradient.segment<3>(3 * k) = in.weight[k] * P * slips[k].shat;
  if (in.outputs == FrictionOutputs::kGradient) return;
  const Mat3 Hinv = H.inverse();
  std::array<Eigen::Matrix<double, 3, 3>, 6> Duk;  // dD_xk / du = -w_k P M_k
  std::array<Eigen::Matrix<double, 3, 3>, 6> DukHinv;
  for (int k = 0; k < 6; ++k) {
    const Slip& p = slips[k];
    Duk[k] = -in.weight[k] * P * p.M;
    DukHinv[k] = Duk[k] * Hinv;
    out->hessian.block<3, 3>(3 * k, 3 * k) += in.weight[k] / in.dt * P * p.M * P;
  }
  for (int k = 0; k < 6; ++k) {
    for (int l = 0; l < 6; ++l) out->hessian.block<3, 3>(3 * k, 3 * l) -= DukHinv[k] * Duk[l].transpose();
  }
  if (in.outputs == FrictionOutputs::kHessian) return;
  // Weights: dg_k/dw_m = [k = m] P shat_k + Duk du/dw_m, du/dw_m = dt H^-1 shat_m.
  for (int m = 0; m < 6; ++m) {
    const Vec3 du = in.dt * Hinv * slips[m].shat;
    for (int k = 0; k < 6; ++k) {
      Vec3 col = Duk[k] * du;
      if (k == m) col += P * slips[k].shat;
      out->dgradient_dweight.block<3, 1>(3 * k, m) = col;
    }
  }
  // Normal: dP/dn_j = -(e_j n^T + n e_j^T).
  for (int j = 0; j < 3; ++j) {
    const Mat3 dP = -(Vec3::Unit(j) * in.normal.transpose() + in.normal * Vec3::Unit(j).transpose());
    Vec3 dLu = Vec3::Zero();  // d(grad_u L)/dn_j at fixed u
    for (int m = 0; m < 6; ++m) dLu -= in.weight[m] * slips[m].M * dP * delta[m];
    const Vec3 du = -Hinv * dLu;
    for (int k = 0; k < 6; ++k) {
      const Slip& p = slips[k];
      out->dgradient_dnormal.block<3, 1>(3 * k, j) =
          in.weight[k] * (dP * p.shat + P * p.M * dP * delta[k] / in.dt) + Duk[k] * du;
    }
  }
}

}  // namespace arena::longrange
