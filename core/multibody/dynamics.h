// Rigid-body dynamics of the tree (Featherstone, "Rigid Body Dynamics Algorithms", 2008):
// M(q) a + c(q, v) = tau + sum_i J_i^T f_i, with joint armature on the mass-matrix diagonal.
//
// External forces f_ext (optional, may be null) are one wrench per body, expressed in the world
// frame about the world origin ([n_W; f_W]), held fixed in the world when q changes.
#pragma once

#include <vector>

#include "core/multibody/data.h"

namespace arena {

/// Composite rigid body algorithm: data.M (full symmetric, armature included).
void Crba(const MultibodyModel& model, MultibodyData& data, const VecX& q);

/// Factorises data.M (after Crba or RneaDerivatives) as L^T D L with the sparsity of the tree
/// (Featherstone 2008, Table 6.3) into data.M_ltdl: O(nv d^2) for depth d, no allocation.
void FactorizeMassMatrix(const MultibodyModel& model, MultibodyData& data);

/// B <- M^-1 B (B is nv x k, e.g. a VecX) with the factor of FactorizeMassMatrix.
void SolveMassMatrix(const MultibodyModel& model, const MultibodyData& data, Eigen::Ref<MatX> B);

/// Recursive Newton-Euler: data.tau = M a + c - J^T f_ext (gravity from the model).
const VecX& Rnea(const MultibodyModel& model, MultibodyData& data, const VecX& q, const VecX& v,
                 const VecX& a, const std::vector<Force>* f_ext = nullptr);

/// c(q, v) = Rnea(q, v, 0): Coriolis, centrifugal and gravity terms.
VecX NonlinearEffects(const MultibodyModel& model, MultibodyData& data, const VecX& q,
                      const VecX& v);

/// Articulated body algorithm: data.ddq = M^-1 (tau + J^T f_ext - c).
const VecX& Aba(const MultibodyModel& model, MultibodyData& data, const VecX& q, const VecX& v,
                const VecX& tau, const std::vector<Force>* f_ext = nullptr);

/// Partial derivatives of Rnea (tangent-space in q): data.dtau_dq, data.dtau_dv (nv x nv);
/// d tau / d a is M. With f_ext, includes d(-J^T f_ext)/dq at fixed world wrenches.
/// Also sets data.tau (= Rnea), data.M (= Crba) and the kinematics (X_WB, V_B, A_B).
void RneaDerivatives(const MultibodyModel& model, MultibodyData& data, const VecX& q,
                     const VecX& v, const VecX& a, const std::vector<Force>* f_ext = nullptr);

/// d Rnea(q, v, a) / d m_b for every body b (nv x num_bodies), with each body's centre of mass
/// and rotational inertia about it held (DART's setMass). RNEA is linear in the inertias, so
/// column b is RNEA with body b's inertia replaced by d I_b / d m_b = (1, c_b, 0) and no other.
/// Overwrites data.tau and the kinematics as Rnea does.
void RneaMassDerivatives(const MultibodyModel& model, MultibodyData& data, const VecX& q, const VecX& v,
                         const VecX& a, MatX* dtau_dm);

/// Partial derivatives of Aba: data.dddq_dq, data.dddq_dv, data.dddq_dtau (= M^-1); also
/// leaves data.ddq and data.M set (and data.M_ltdl factorised): d ddq / dx = -M^-1 d tau / dx
/// evaluated at a = ddq (Carpentier & Mansard 2018, Sec. IV).
void AbaDerivatives(const MultibodyModel& model, MultibodyData& data, const VecX& q,
                    const VecX& v, const VecX& tau, const std::vector<Force>* f_ext = nullptr);

}  // namespace arena
