// The kinematic tree: bodies in topological order, each attached to its parent by one joint.
// Immutable once built (Model/Data split as in Pinocchio and MuJoCo): algorithms are free
// functions algorithm(model, data, ...) that write only into MultibodyData.
#pragma once

#include <string>
#include <vector>

#include "core/math/inertia.h"
#include "core/multibody/joint.h"

namespace arena {

inline constexpr int kWorldBody = -1;

struct BodyModel {
  std::string name;
  int parent = kWorldBody;      // index of the parent body; always smaller than this body's index
  JointModel joint;             // the joint from the parent to this body
  SpatialInertia inertia;       // in the body frame
  int idx_q = 0;                // first entry of this joint in q
  int idx_v = 0;                // first entry of this joint in v
};

class MultibodyModel {
 public:
  /// Appends a body; `parent` must be kWorldBody or an existing body. Returns the new index.
  /// Throws InvalidArgument for a negative mass, a non-unit axis or a bad parent.
  int AddBody(const std::string& name, int parent, const JointModel& joint,
              const SpatialInertia& inertia);

  /// Replaces a body's inertia (a copy of a model with other link masses: design parameters).
  /// Throws InvalidArgument as AddBody does.
  void set_inertia(int body, const SpatialInertia& inertia);
  /// Moves a body's joint frame in its parent (X_PJ; design parameters: attachment points).
  /// Throws InvalidArgument for a bad index or a non-finite transform.
  void set_joint_placement(int body, const SE3& placement);

  int num_bodies() const { return static_cast<int>(bodies_.size()); }
  int nq() const { return nq_; }
  int nv() const { return nv_; }
  const BodyModel& body(int i) const { return bodies_[i]; }
  const std::vector<BodyModel>& bodies() const { return bodies_; }
  /// Index of the body with this name, or -1.
  int FindBody(const std::string& name) const;
  /// Index of the body whose joint has this name, or -1.
  int FindJoint(const std::string& joint_name) const;

  /// Gravity in world coordinates (m/s^2).
  const Vec3& gravity() const { return gravity_; }
  void set_gravity(const Vec3& g) { gravity_ = g; }

  /// Total mass of all bodies (kg).
  double TotalMass() const;
  /// Neutral configuration: zero angles and offsets, identity quaternions.
  VecX Neutral() const;

  /// True when `b` is `ancestor` or lies in its subtree.
  bool IsInSubtree(int b, int ancestor) const;

 private:
  std::vector<BodyModel> bodies_;
  int nq_ = 0;
  int nv_ = 0;
  Vec3 gravity_ = Vec3(0.0, 0.0, -9.81);
};

}  // namespace arena
