// Helpers shared by the scene loader tests.
#pragma once

#include <gtest/gtest.h>

#include <stdlib.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/common/error.h"
#include "core/multibody/model.h"

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

// A fresh empty folder under the system's temporary folder, removed with its contents when the
// object dies.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "arena_scene_XXXXXX").string();
    path_ = mkdtemp(pattern.data());
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::add, ec);
    for (const auto& entry : std::filesystem::directory_iterator(path_, ec)) {
      std::filesystem::permissions(entry.path(), std::filesystem::perms::owner_all,
                                   std::filesystem::perm_options::add, ec);
    }
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

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
