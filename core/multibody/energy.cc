#include "core/multibody/energy.h"

#include "core/multibody/kinematics.h"

namespace arena {

double KineticEnergy(const MultibodyModel& model, MultibodyData& data, const VecX& q,
                     const VecX& v) {
  ForwardKinematics(model, data, q, v);
  double T = 0.0;
  for (int i = 0; i < model.num_bodies(); ++i) {
    T += 0.5 * data.V_B[i].dot(model.body(i).inertia * data.V_B[i]);
  }
  return T;
}

double PotentialEnergy(const MultibodyModel& model, MultibodyData& data, const VecX& q) {
  ForwardKinematics(model, data, q);
  double U = 0.0;
  for (int i = 0; i < model.num_bodies(); ++i) {
    const SpatialInertia& I = model.body(i).inertia;
    U -= I.mass() * model.gravity().dot(data.X_WB[i].Act(I.com()));
  }
  return U;
}

Force SpatialMomentum(const MultibodyModel& model, MultibodyData& data, const VecX& q,
                      const VecX& v) {
  ForwardKinematics(model, data, q, v);
  Force h = Force::Zero();
  for (int i = 0; i < model.num_bodies(); ++i) {
    h += data.X_WB[i].ActForce(model.body(i).inertia * data.V_B[i]);
  }
  return h;
}

Vec3 CenterOfMass(const MultibodyModel& model, MultibodyData& data, const VecX& q) {
  ForwardKinematics(model, data, q);
  Vec3 c = Vec3::Zero();
  double m = 0.0;
  for (int i = 0; i < model.num_bodies(); ++i) {
    const SpatialInertia& I = model.body(i).inertia;
    c += I.mass() * data.X_WB[i].Act(I.com());
    m += I.mass();
  }
  return m > 0.0 ? Vec3(c / m) : Vec3::Zero();
}

}  // namespace arena
