// Analytical Jacobians of a nimble step (seed 002 Secs. III-V, App. A and F).
//
// With the LCP's active set held (clamping rows C; sliding rows UB, whose impulses are E f_C,
// +-mu times their normal's; separating rows at 0), a step solves
//   M(q) (v+ - v) = dt (tau(q, v, u) - c(q, v)) + A_cE(q) f_C,    A_cE = J_C^T + J_UB^T E,
//   J_C(q) v+ = 0.
// The implicit function theorem gives, for x in {q, v, u},
//   dv+/dx = dw/dx - M^-1 A_cE Q^+ (J_C dw/dx + K dq/dx),       Q = J_C M^-1 A_cE,
// where dw/dx moves v+ with every impulse held (the paper's "z" terms, Sec. III eqs. 6-10):
//   dw/dq = -M^-1 [dt d(RNEA(q, v, a; f/dt) - tau)/dq - sum_r f_r (J_B - J_A)^T dW_r/dq],
//           a = (v+ - v)/dt: d(M a)/dq is Nimble's d(M^-1 z)/dq (App. F, eq. 39 with the code's
//           sign), RNEA's fixed world wrenches give the screw-axis part of d(J^T f)/dq (eq. 25) and
//           dW_r/dq the moving contact point and directions (models/nimble/row_wrenches.h);
//   dw/dv = I - dt M^-1 d(c - tau)/dv,      dw/du = dt M^-1 dtau/du,
// and K = d(J_C v+)/dq at fixed v+: how the clamped rows' relative velocities change as the
// bodies move (eq. 20's dA_CC/dx terms, applied to f_C).
// Q^+ is the minimum-norm least-squares inverse (a complete orthogonal decomposition), as in the
// stabilized forward solve. When Q is invertible this is Nimble's formula. When redundant contacts
// make it singular, v+ is still unique if no row slides (any f_C with Q f_C = b_C gives the same
// J_C^T f_C), and this is its derivative; Nimble's pseudo-inverse terms (Sec. IV-C eq. 22, which
// its code evaluates in Golub-Pereyra form) only change f_C within the null space there. With
// sliding rows and a singular Q they are left out (docs/deviations.md).
//
// Link masses m (design parameters): dw/dm = -dt M^-1 d RNEA / dm at the same a (RNEA is linear
// in the inertias), K = 0; Nimble's code finite-differenced these at paper time; here exact.
//
// Bounces (restitution e): a bouncing clamped row must leave at -e times its pre-impulse speed,
// J_r v+ = -e J_r v*, so its row of the system gains e (J_r dv*/dx + K*_r dq/dx), with v* the
// velocity before the impulses and K* = d(J_C v*)/dq at fixed v*.
//
// Positions: q+ = q (+) dt v (parallel update) gives dq+/dq and dq+/dv from the integration
// Jacobians alone; with `parallel_position_update` off, q+ = q (+) dt v+ chains through dv+.
// The bounce approximation (Sec. VI, App. E) replaces the identity in dq+/dq = Jq X,
// dq+/dv = dt Jv X by the X closest to I (Frobenius) with a_i^T X a_i / |a_i|^2 = -e_i for every
// bouncing row's generalized force a_i = J_r^T: the continuous-time map of a bounce,
// dp+/dp = -e, which the discrete step (positions move with the pre-step velocity) misses. With
// one bounce X = I - (1 + e) a a^T / |a|^2. This is the paper's normalized form; Nimble's code
// drops the 1 / |a|^2 (docs/deviations.md).
//
// Complementarity-aware gradients (Sec. IV-D, VII-C): Backprop also differentiates with the
// classes the loss asks for (a normal row clamps iff g = J l_v+ >= 0, i.e. descent pushes into
// contact; friction rows released) and keeps whichever gives the larger |l_v| + |l_u| / dt
// (the code's plain norms, which produced Fig. 8; the paper squares them). The impulses the
// step applied stay as fixed wrenches in both.
#include <vector>

#include <Eigen/QR>

#include "core/common/error.h"
#include "core/math/solve_columns.h"
#include "core/multibody/configuration.h"
#include "core/multibody/dynamics.h"
#include "core/multibody/kinematics.h"
#include "core/scene/actuation.h"
#include "models/nimble/nimble.h"
#include "models/nimble/row_wrenches.h"

namespace arena {

namespace {

// Column i of dq+/d(q, v) under the bounce approximation: X = I - sum_i l_i a_i a_i^T / |a_i|^2
// with l = G^+ (e + 1), G_ij = (a_i . a_j)^2 / (|a_i|^2 |a_j|^2): the minimum-norm change of
// vec(X) from vec(I) that meets every bounce's constraint (App. E, vec(X) = c - (W^T)^+ (r + W^T c)).
MatX BounceMap(const MatX& A, const VecX& e) {
  const int nv = static_cast<int>(A.rows());
  const int n = static_cast<int>(A.cols());
  MatX G(n, n);
  const VecX norm2 = A.colwise().squaredNorm().transpose();
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const double d = A.col(i).dot(A.col(j));
      G(i, j) = d * d / (norm2[i] * norm2[j]);
    }
  }
  const VecX l = G.completeOrthogonalDecomposition().solve((e.array() + 1.0).matrix());
  MatX X = MatX::Identity(nv, nv);
  for (int i = 0; i < n; ++i) X -= (l[i] / norm2[i]) * A.col(i) * A.col(i).transpose();
  return X;
}

}  // namespace

void NimbleSimulator::PrepareDerivatives(const State& state, const Control& control) {
  ValidateState(*scene_, state);
  if (std::string bad = FirstNonFiniteEntry(state); !bad.empty()) {
    throw InvalidArgument("nimble: derivatives asked at a non-finite state: " + bad);
  }
  if (!SnapshotIs(state, control)) {
    StepReport report;
    SolveVelocity(state, control, derivatives_lcp_, &report);
  }
}

void NimbleSimulator::DoDerivatives(const State& state, const Control& control, StepDerivatives* out) {
  PrepareDerivatives(state, control);
  Jacobians(state, control, impulses_.active_set, out);
}

void NimbleSimulator::Jacobians(const State& state, const Control& control, const LcpActiveSet& set,
                                StepDerivatives* out) {
  const MultibodyModel& model = scene_->model;
  const int nv = model.nv();
  const int nb = model.num_bodies();
  const double dt = options_.timestep;
  const VecX v_next = v_next_;  // (data_ is reused below; the snapshot's poses at q stay valid)
  const GeneralizedForceJacobians act = ActuationJacobians(*scene_, state, control);

  // World twist Jacobians of the bodies in contact (data_ holds the kinematics at q).
  std::vector<MatX> J_world(nb);
  const MatX no_body = MatX::Zero(6, nv);
  auto world_jacobian = [&](int body) -> const MatX& {
    if (body == kWorldBody) return no_body;
    if (J_world[body].size() == 0) BodyJacobian(model, data_, body, ReferenceFrame::kWorld, &J_world[body]);
    return J_world[body];
  };
  auto pose_jacobian = [&](const Eigen::Matrix<double, 6, 12>& d, const nimble::Contact& c) -> MatX {
    return d.leftCols<6>() * world_jacobian(c.body_a) + d.rightCols<6>() * world_jacobian(c.body_b);
  };

  std::vector<nimble::RowWrench> rows;
  const VecX& f = impulses_.x;
  MatX geometric = MatX::Zero(nv, nv);  // sum_r f_r (J_B - J_A)^T dW_r/dq
  std::vector<Force> f_ext(nb, Force::Zero());
  std::vector<int> contact_of_row;
  if (!contacts_.empty()) {
    nimble::RowWrenches(*scene_, data_, geometry_, pairs_, contacts_, &rows);
    contact_of_row.resize(rows.size());
    for (size_t k = 0; k < contacts_.size(); ++k) {
      const nimble::Contact& c = contacts_[k];
      const int first = first_row_[k];
      const int end = k + 1 < contacts_.size() ? first_row_[k + 1] : static_cast<int>(rows.size());
      Vec6 W = Vec6::Zero();
      Eigen::Matrix<double, 6, 12> dW = Eigen::Matrix<double, 6, 12>::Zero();
      for (int r = first; r < end; ++r) {
        contact_of_row[r] = static_cast<int>(k);
        W += f[r] * rows[r].W;
        dW += f[r] * rows[r].dW;
      }
      if (W.isZero(0.0) && dW.isZero(0.0)) continue;
      if (c.body_b != kWorldBody) f_ext[c.body_b] += W / dt;
      if (c.body_a != kWorldBody) f_ext[c.body_a] -= W / dt;
      geometric += (world_jacobian(c.body_b) - world_jacobian(c.body_a)).transpose() * pose_jacobian(dW, c);
    }
  }

  // Clamped rows; e of the bouncing ones (an uncapped target moves with v*).
  const std::vector<int> C = contacts_.empty() ? std::vector<int>{} : set.Indices(LcpRowClass::kClamping);
  const int nc = static_cast<int>(C.size());
  VecX bounce = VecX::Zero(nc);
  for (int a = 0; a < nc; ++a) {
    const double target = restitution_target_.size() > 0 ? restitution_target_[C[a]] : 0.0;
    if (target > 0.0 && target < nimble::kMaxBounceSpeed) bounce[a] = contacts_[contact_of_row[C[a]]].restitution;
  }
  const bool bouncing = (bounce.array() > 0.0).any();

  // d(J_C vel)/dq at fixed vel: how the clamped rows' relative velocities change as the bodies
  // move (kinematics at (q, vel) for the twist derivatives).
  auto row_velocity_jacobian = [&](const VecX& vel) {
    MatX K(nc, nv);
    if (nc == 0) return K;
    ForwardKinematics(model, data_, state.q, vel);
    std::vector<MatX> dV(nb);
    std::vector<Motion> V(nb);
    auto twist = [&](int body) {
      if (body != kWorldBody && dV[body].size() == 0) {
        WorldTwistDerivative(model, data_, body, &dV[body]);
        V[body] = data_.X_WB[body].ActMotion(data_.V_B[body]);
      }
    };
    for (int a = 0; a < nc; ++a) {
      const int r = C[a];
      const nimble::Contact& c = contacts_[contact_of_row[r]];
      twist(c.body_a);
      twist(c.body_b);
      Motion V_rel = Motion::Zero();
      K.row(a).setZero();
      if (c.body_b != kWorldBody) {
        V_rel += V[c.body_b];
        K.row(a) += rows[r].W.transpose() * dV[c.body_b];
      }
      if (c.body_a != kWorldBody) {
        V_rel -= V[c.body_a];
        K.row(a) -= rows[r].W.transpose() * dV[c.body_a];
      }
      K.row(a) += V_rel.transpose() * pose_jacobian(rows[r].dW, c);
    }
    return K;
  };

  // The velocity update at acceleration a with the wrenches f_ext held: dv/dq, dv/dv, dv/du, dv/dm.
  auto held_update = [&](const VecX& a, const std::vector<Force>* wrenches, const MatX& extra_dq,
                         StepDerivatives* d) {
    RneaDerivatives(model, data_, state.q, state.v, a, wrenches);
    FactorizeMassMatrix(model, data_);
    d->dv_dq = -dt * (data_.dtau_dq - act.dtau_dq) + extra_dq;
    SolveMassMatrix(model, data_, d->dv_dq);
    d->dv_dv = -dt * (data_.dtau_dv - act.dtau_dv);
    SolveMassMatrix(model, data_, d->dv_dv);
    d->dv_dv.diagonal().array() += 1.0;
    d->dv_du = dt * act.dtau_du;
    SolveMassMatrix(model, data_, d->dv_du);
    d->dv_dp.resize(nv, static_cast<int>(mass_bodies_.size()));
    if (!mass_bodies_.empty()) {
      MatX dtau_dm;
      RneaMassDerivatives(model, data_, state.q, state.v, a, &dtau_dm);
      for (size_t i = 0; i < mass_bodies_.size(); ++i) d->dv_dp.col(i) = -dt * dtau_dm.col(mass_bodies_[i]);
      SolveMassMatrix(model, data_, d->dv_dp);
    }
  };

  const MatX K = row_velocity_jacobian(v_next);
  StepDerivatives star;  // v* = v + dt M^-1 (tau - c): no impulses
  MatX K_star;
  if (bouncing) {
    K_star = row_velocity_jacobian(v_star_);
    held_update((v_star_ - state.v) / dt, nullptr, MatX::Zero(nv, nv), &star);
  }
  held_update((v_next - state.v) / dt, &f_ext, geometric, out);

  if (nc > 0) {
    std::vector<int> position(set.size(), -1);
    MatX J_C(nc, nv);
    for (int a = 0; a < nc; ++a) {
      position[C[a]] = a;
      J_C.row(a) = J_.row(C[a]);
    }
    MatX MinvAcE = J_C.transpose();  // A_cE = J_C^T + J_UB^T E, then M^-1 A_cE
    for (int j : set.Indices(LcpRowClass::kUpperBound)) {
      const int normal = position[lcp_problem_.findex[j]];
      if (normal < 0) continue;
      const double coefficient = set.bound_sign[j] > 0 ? lcp_problem_.hi[j] : lcp_problem_.lo[j];
      MinvAcE.col(normal) += coefficient * J_.row(j).transpose();
    }
    SolveMassMatrix(model, data_, MinvAcE);
    const Eigen::CompleteOrthogonalDecomposition<MatX> Q(J_C * MinvAcE);
    MatX rhs_q = J_C * out->dv_dq + K;
    MatX rhs_v = J_C * out->dv_dv;
    MatX rhs_u = J_C * out->dv_du;
    MatX rhs_p = J_C * out->dv_dp;
    if (bouncing) {
      const auto e = bounce.asDiagonal();
      rhs_q += e * (J_C * star.dv_dq + K_star);
      rhs_v += e * (J_C * star.dv_dv);
      rhs_u += e * (J_C * star.dv_du);
      rhs_p += e * (J_C * star.dv_dp);
    }
    out->dv_dq -= MinvAcE * Q.solve(rhs_q);
    out->dv_dv -= MinvAcE * Q.solve(rhs_v);
    out->dv_du -= MinvAcE * SolveColumns(Q, rhs_u);  // no columns without actuators
    if (out->dv_dp.cols() > 0) out->dv_dp -= MinvAcE * Q.solve(rhs_p);
  }

  if (options_.parallel_position_update) {
    MatX Jv;
    IntegrateJacobians(model, state.q, dt * state.v, &out->dq_dq, &Jv);
    out->dq_dv = dt * Jv;
    if (bouncing && options_.bounce_approximation) {
      std::vector<int> bouncing_rows;
      for (int a = 0; a < nc; ++a) {
        if (bounce[a] > 0.0) bouncing_rows.push_back(a);
      }
      MatX A(nv, bouncing_rows.size());
      VecX e(bouncing_rows.size());
      for (size_t i = 0; i < bouncing_rows.size(); ++i) {
        A.col(i) = J_.row(C[bouncing_rows[i]]).transpose();
        e[i] = bounce[bouncing_rows[i]];
      }
      const MatX X = BounceMap(A, e);
      out->dq_dq = out->dq_dq * X;
      out->dq_dv = out->dq_dv * X;
    }
    out->dq_du = MatX::Zero(nv, out->dv_du.cols());
    out->dq_dp = MatX::Zero(nv, out->dv_dp.cols());
  } else {
    ChainSemiImplicitPositions(model, state.q, v_next, dt, out);
  }
  if (mass_bodies_.empty()) {
    out->dq_dp.resize(0, 0);
    out->dv_dp.resize(0, 0);
  }
}

bool NimbleSimulator::Backprop(const State& state, const Control& control, const VecX& loss_q_next_in,
                               const VecX& loss_v_next_in, VecX* loss_q, VecX* loss_v, VecX* loss_u,
                               VecX* loss_p) {
  const VecX loss_q_next = loss_q_next_in, loss_v_next = loss_v_next_in;  // the outputs may alias them
  const int nv = scene_->nv();
  if (loss_q_next.size() != nv || loss_v_next.size() != nv) {
    throw InvalidArgument("nimble: Backprop needs loss gradients of size nv = " + std::to_string(nv));
  }
  PrepareDerivatives(state, control);
  auto pull_back = [&](const LcpActiveSet& set, VecX* lq, VecX* lv, VecX* lu, VecX* lp) {
    StepDerivatives d;
    Jacobians(state, control, set, &d);
    *lq = d.dq_dq.transpose() * loss_q_next + d.dv_dq.transpose() * loss_v_next;
    *lv = d.dq_dv.transpose() * loss_q_next + d.dv_dv.transpose() * loss_v_next;
    *lu = d.dq_du.transpose() * loss_q_next + d.dv_du.transpose() * loss_v_next;
    if (lp == nullptr) return;
    if (d.dv_dp.size() > 0) {
      *lp = d.dq_dp.transpose() * loss_q_next + d.dv_dp.transpose() * loss_v_next;
    } else {
      lp->resize(0);
    }
  };
  const LcpActiveSet actual = impulses_.active_set;
  pull_back(actual, loss_q, loss_v, loss_u, loss_p);
  if (!options_.complementarity_aware || contacts_.empty()) return false;

  // Sec. IV-D: the classes the loss asks for. g_r = (J l_v+)_r > 0: descent lowers row r's
  // relative velocity, into contact, so it clamps; g_r < 0 releases it; g_r = 0 clamps (as in
  // Nimble's code; the paper leaves the tie open).
  const VecX g = J_ * loss_v_next;
  LcpActiveSet wanted;
  wanted.rows.resize(g.size());
  wanted.bound_sign.assign(g.size(), 0);
  for (int r = 0; r < g.size(); ++r) {
    const bool normal = lcp_problem_.findex[r] < 0;
    wanted.rows[r] = normal && g[r] >= 0.0 ? LcpRowClass::kClamping : LcpRowClass::kSeparating;
  }
  if (wanted == actual) return false;
  VecX lq, lv, lu, lp;
  pull_back(wanted, &lq, &lv, &lu, loss_p == nullptr ? nullptr : &lp);
  const double dt = options_.timestep;
  if (lv.norm() + lu.norm() / dt <= loss_v->norm() + loss_u->norm() / dt) return false;
  *loss_q = std::move(lq);
  *loss_v = std::move(lv);
  *loss_u = std::move(lu);
  if (loss_p != nullptr) *loss_p = std::move(lp);
  return true;
}

void NimbleSimulator::DoVjp(const State& state, const Control& control, const VecX& dl_dq_next,
                            const VecX& dl_dv_next, StepGradient* out) {
  out->alternative = Backprop(state, control, dl_dq_next, dl_dv_next, &out->q, &out->v, &out->u, &out->p);
}

}  // namespace arena
