// Energies and momenta, for conservation tests and experiment metrics.
#pragma once

#include "core/multibody/data.h"

namespace arena {

/// 1/2 v^T M v (armature excluded: it is a rotor, not part of the bodies).
double KineticEnergy(const MultibodyModel& model, MultibodyData& data, const VecX& q,
                     const VecX& v);
/// -sum_i m_i g . c_i (zero at the world origin).
double PotentialEnergy(const MultibodyModel& model, MultibodyData& data, const VecX& q);
/// Total spatial momentum [angular about the world origin; linear], world frame.
Force SpatialMomentum(const MultibodyModel& model, MultibodyData& data, const VecX& q,
                      const VecX& v);
/// Centre of mass of the whole tree in the world.
Vec3 CenterOfMass(const MultibodyModel& model, MultibodyData& data, const VecX& q);

}  // namespace arena
