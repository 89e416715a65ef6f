// Helpers shared by the scene loader tests.
#pragma once

#include <gtest/gtest.h>

#include <stdlib.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/common/error.h"
#include "core/multibody/model.h"
#include "tests/scratch_dir.h"

namespace arena::test {

// Body poses at q, written independently of core/multibody from the joint table in joint.h.
inline std::vector<SE3> BodyPoses(const MultibodyModel& model, const VecX& q) {
  std::vector<SE3> X_WB(model.num_bodies());
  for (int i = 0; i < model.num_bodies(); ++i) {
    const BodyModel& b = model.body(i);
    const JointModel& j = b.joint;
    const auto qj = q.segment(b.idx_q, j.nq());
    SE3 X_J;
    switch (j.type) {
      case JointType::kFixed: break;
      case JointType::kRevolute:
        X_J = SE3::FromRotation(Eigen::AngleAxisd(qj[0], j.axis).toRotationMatrix());
        break;
      case JointType::kPrismatic: X_J = SE3::FromTranslation(qj[0] * j.axis); break;
      case JointType::kBall:
        X_J = SE3::FromRotation(Quat(qj[0], qj[1], qj[2], qj[3]).normalized().toRotationMatrix());
        break;
      case JointType::kPlanar:
        X_J = SE3(Eigen::AngleAxisd(qj[2], Vec3::UnitZ()).toRotationMatrix(), Vec3(qj[0], qj[1], 0));
        break;
      case JointType::kFree:
        X_J = SE3(Quat(qj[3], qj[4], qj[5], qj[6]).normalized().toRotationMatrix(), qj.head<3>());
        break;
    }
    const SE3 X_WP = b.parent == kWorldBody ? SE3() : X_WB[b.parent];
    X_WB[i] = X_WP * j.placement * X_J;
  }
  return X_WB;
}

using ::arena::testing::ScratchDir;

// Runs `load` and returns the ParseError message (fails the test if nothing is thrown).
template <class F>
std::string ParseErrorMessage(F&& load) {
  try {
    load();
  } catch (const ParseError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a ParseError";
  return "";
}

}  // namespace arena::test
