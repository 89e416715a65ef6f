// Analytical Jacobians of a nimble step (seed 002 Sec. IV-V, App. A and F; digest 5).
//
// With the LCP's active set held (clamping rows C; sliding rows UB, whose impulses are E f_C,
// +-mu times their normal's; separating rows at 0), a step solves
//   M(q) (v+ - v) = dt (tau(q, v, u) - c(q, v)) + A_cE(q) f_C,    A_cE = J_C^T + J_UB^T E,
//   J_C(q) v+ = 0.
// The implicit function theorem gives, for x in {q, v, u},
//   dv+/dx = dw/dx - M^-1 A_cE Q^+ (J_C dw/dx + K dq/dx),       Q = J_C M^-1 A_cE,
// where dw/dx moves v+ with every impulse held (the paper's "z" terms, digest 5.4):
//   dw/dq = -M^-1 [dt d(RNEA(q, v, a; f/dt) - tau)/dq - sum_r f_r (J_B - J_A)^T dW_r/dq],
//           a = (v+ - v)/dt: d(M a)/dq is Nimble's d(M^-1 z)/dq (App. F, eq. 39 with the code's
//           sign), RNEA's fixed world wrenches give the screw-axis part of d(J^T f)/dq (eq. 25) and
//           dW_r/dq the moving contact point and directions (models/nimble/row_wrenches.h);
//   dw/dv = I - dt M^-1 d(c - tau)/dv,      dw/du = dt M^-1 dtau/du,
// and K = d(J_C v+)/dq at fixed v+: how the clamped rows' relative velocities change as the
// bodies move (the dQ terms of digest 5.3 applied to f_C).
// Q^+ is the minimum-norm least-squares inverse (a complete orthogonal decomposition), as in the
// stabilized forward solve. When Q is invertible this is Nimble's formula. When redundant contacts
// make it singular, v+ is still unique if no row slides (any f_C with Q f_C = b_C gives the same
// J_C^T f_C), and this is its derivative; Nimble's Golub-Pereyra terms (digest 4.2) only change
// f_C within the null space there. With sliding rows and a singular Q they are left out
// (docs/deviations.md).
//
// Positions: q+ = q (+) dt v (parallel update) gives dq+/dq and dq+/dv from the integration
// Jacobians alone; with `parallel_position_update` off, q+ = q (+) dt v+ chains through dv+.
#include <vector>

#include <Eigen/QR>

#include "core/common/error.h"
#include "core/multibody/configuration.h"
#include "core/multibody/dynamics.h"
#include "core/multibody/kinematics.h"
#include "core/scene/actuation.h"
#include "models/nimble/nimble.h"
#include "models/nimble/row_wrenches.h"

namespace arena {

void NimbleSimulator::Derivatives(const State& state, const Control& control, StepDerivatives* out) {
  ValidateState(*scene_, state);
  if (std::string bad = FirstNonFiniteEntry(state); !bad.empty()) {
    throw InvalidArgument("nimble: derivatives asked at a non-finite state: " + bad);
  }
  const MultibodyModel& model = scene_->model;
  const int nv = model.nv();
  const int nb = model.num_bodies();
  const double dt = options_.timestep;
  if (!SnapshotIs(state, control)) {
    StepReport report;
    SolveVelocity(state, control, derivatives_lcp_, &report);
  }
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
  if (!contacts_.empty()) {
    nimble::RowWrenches(*scene_, data_, geometry_, pairs_, contacts_, &rows);
    for (size_t k = 0; k < contacts_.size(); ++k) {
      const nimble::Contact& c = contacts_[k];
      const int first = first_row_[k];
      const int end = k + 1 < contacts_.size() ? first_row_[k + 1] : static_cast<int>(rows.size());
      Vec6 W = Vec6::Zero();
      Eigen::Matrix<double, 6, 12> dW = Eigen::Matrix<double, 6, 12>::Zero();
      for (int r = first; r < end; ++r) {
        W += f[r] * rows[r].W;
        dW += f[r] * rows[r].dW;
      }
      if (W.isZero(0.0) && dW.isZero(0.0)) continue;
      if (c.body_b != kWorldBody) f_ext[c.body_b] += W / dt;
      if (c.body_a != kWorldBody) f_ext[c.body_a] -= W / dt;
      geometric += (world_jacobian(c.body_b) - world_jacobian(c.body_a)).transpose() * pose_jacobian(dW, c);
    }
  }

  // Clamped rows and K = d(J_C v+)/dq at fixed v+ (kinematics at v+ for the twist derivatives).
  const std::vector<int> C = contacts_.empty() ? std::vector<int>{} : impulses_.active_set.Indices(LcpRowClass::kClamping);
  const int nc = static_cast<int>(C.size());
  MatX K(nc, nv);
  if (nc > 0) {
    std::vector<int> contact_of_row(rows.size());
    for (size_t k = 0; k < contacts_.size(); ++k) {
      const int end = k + 1 < contacts_.size() ? first_row_[k + 1] : static_cast<int>(rows.size());
      for (int r = first_row_[k]; r < end; ++r) contact_of_row[r] = static_cast<int>(k);
    }
    ForwardKinematics(model, data_, state.q, v_next);
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
  }

  // The update with impulses held: dw/dq, dw/dv, dw/du.
  RneaDerivatives(model, data_, state.q, state.v, (v_next - state.v) / dt, &f_ext);
  FactorizeMassMatrix(model, data_);
  out->dv_dq = -dt * (data_.dtau_dq - act.dtau_dq) + geometric;
  SolveMassMatrix(model, data_, out->dv_dq);
  out->dv_dv = -dt * (data_.dtau_dv - act.dtau_dv);
  SolveMassMatrix(model, data_, out->dv_dv);
  out->dv_dv.diagonal().array() += 1.0;
  out->dv_du = dt * act.dtau_du;
  SolveMassMatrix(model, data_, out->dv_du);

  if (nc > 0) {
    const LcpActiveSet& set = impulses_.active_set;
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
    out->dv_dq -= MinvAcE * Q.solve(J_C * out->dv_dq + K);
    out->dv_dv -= MinvAcE * Q.solve(J_C * out->dv_dv);
    out->dv_du -= MinvAcE * Q.solve(J_C * out->dv_du);
  }

  if (options_.parallel_position_update) {
    MatX Jv;
    IntegrateJacobians(model, state.q, dt * state.v, &out->dq_dq, &Jv);
    out->dq_dv = dt * Jv;
    out->dq_du = MatX::Zero(nv, out->dv_du.cols());
  } else {
    ChainSemiImplicitPositions(model, state.q, v_next, dt, out);
  }
  out->dq_dp.resize(0, 0);
  out->dv_dp.resize(0, 0);
}

bool NimbleSimulator::Backprop(const State& state, const Control& control, const VecX& loss_q_next,
                               const VecX& loss_v_next, VecX* loss_q, VecX* loss_v, VecX* loss_u) {
  StepDerivatives d;
  Derivatives(state, control, &d);
  *loss_q = d.dq_dq.transpose() * loss_q_next + d.dv_dq.transpose() * loss_v_next;
  *loss_v = d.dq_dv.transpose() * loss_q_next + d.dv_dv.transpose() * loss_v_next;
  *loss_u = d.dq_du.transpose() * loss_q_next + d.dv_du.transpose() * loss_v_next;
  return false;
}

}  // namespace arena
