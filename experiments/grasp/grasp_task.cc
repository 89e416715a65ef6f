#include "experiments/grasp/grasp_task.h"

#include <cmath>
#include <numbers>
#include <string>

#include "core/common/error.h"

namespace arena {
namespace {

constexpr double kRegraspOffset = 0.15;  // m from the star's centre (the authors' sample_method)

// The first coordinate of a planar body's (x, y, theta) in q.
int PlanarCoordinates(const Scene& scene, const std::string& body) {
  const int b = scene.model.FindBody(body);
  if (b < 0 || scene.model.body(b).joint.type != JointType::kPlanar) {
    throw InvalidArgument("grasp: scene '" + scene.name + "' has no planar body '" + body + "'");
  }
  return scene.model.body(b).idx_q;
}

}  // namespace

Vec3 GraspGoal() { return Vec3(1.5, 1.0, -0.6 * std::numbers::pi); }

ContactRrtProblem GraspProblem(const Scene& scene) {
  const int star = PlanarCoordinates(scene, "star");
  const int left = PlanarCoordinates(scene, "finger_left");
  const int right = PlanarCoordinates(scene, "finger_right");
  ContactRrtProblem p;
  p.object = {star, star + 1, star + 2};
  p.actuated = {left, left + 1, left + 2, right, right + 1, right + 2};
  p.sample_lower = Vec3(0.0, 0.4, -std::numbers::pi);
  p.sample_upper = Vec3(2.0, 2.0, std::numbers::pi);
  p.goal = GraspGoal();
  p.contact_sample = [=](const VecX& q) {
    Vec2 across = q.segment<2>(right) - q.segment<2>(left);
    across *= kRegraspOffset / (1e-5 + across.norm());
    const Vec2 centre = q.segment<2>(star);
    VecX u(6);
    u << centre - across, 0.0, centre + across, 0.0;
    return u;
  };
  return p;
}

double GraspPositionError(const ContactRrtProblem& problem, const VecX& q) {
  return Vec2(q[problem.object[0]] - problem.goal[0], q[problem.object[1]] - problem.goal[1]).norm();
}

double GraspAngleError(const ContactRrtProblem& problem, const VecX& q) {
  return std::abs(q[problem.object[2]] - problem.goal[2]);
}

}  // namespace arena
