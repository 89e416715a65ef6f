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
void RneaDerivatives(const MultibodyModel& model, MultibodyData& data, const VecX& q,
                     const VecX& v, const VecX& a, const std::vector<Force>* f_ext = nullptr);

/// Partial derivatives of Aba: data.dddq_dq, data.dddq_dv, data.dddq_dtau (= M^-1); also
/// leaves data.ddq and data.M set.
void AbaDerivatives(const MultibodyModel& model, MultibodyData& data, const VecX& q,
                    const VecX& v, const VecX& tau, const std::vector<Force>* f_ext = nullptr);

}  // namespace arena
