#include "scenes/weld_joints.h"

#include <string>

#include "core/common/error.h"
#include "core/multibody/data.h"
#include "core/multibody/kinematics.h"

namespace arena {

Scene WeldJoints(const Scene& scene, const VecX& q) {
  if (q.size() != scene.nq()) {
    throw InvalidArgument("WeldJoints: scene '" + scene.name + "' has nq = " + std::to_string(scene.nq()) +
                          ", got q of size " + std::to_string(q.size()));
  }
  MultibodyData data(scene.model);
  ForwardKinematics(scene.model, data, q);

  Scene welded = scene;
  welded.model = MultibodyModel();
  welded.model.set_gravity(scene.model.gravity());
  for (int b = 0; b < scene.model.num_bodies(); ++b) {
    const BodyModel& body = scene.model.body(b);
    // The fixed joint sits where the moving one has carried the body at q: X_PB = X_PJ X_J(q).
    JointModel weld;
    weld.type = JointType::kFixed;
    weld.name = body.joint.name;
    weld.placement = data.X_PB[b];
    welded.model.AddBody(body.name, body.parent, weld, body.inertia);
  }
  for (int a = 0; a < scene.model.num_bodies(); ++a) {
    welded.excluded_body_pairs.emplace_back(a, kWorldBody);
    for (int b = a + 1; b < scene.model.num_bodies(); ++b) welded.excluded_body_pairs.emplace_back(a, b);
  }
  welded.actuators.clear();
  welded.default_q = VecX();
  return welded;
}

}  // namespace arena
