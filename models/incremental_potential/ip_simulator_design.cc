// The design parameters of the incremental-potential models (seed 003 Sec. III-B): mesh
// vertices' body-frame positions, and the joint attachment points that follow them.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/common/error.h"
#include "core/multibody/kinematics.h"
#include "models/incremental_potential/attachment_weights.h"
#include "models/incremental_potential/ip_simulator.h"

namespace arena {

void IncrementalPotentialSimulator::SetDesignVertices(std::vector<StepEnergy::DesignVertex> design) {
  design_.clear();
  for (const StepEnergy::DesignVertex& d : design) {
    const int body = energy_->meshes().at(d.mesh).body;
    if (body != kWorldBody && energy_->Moves(body)) design_.push_back(d);
  }
  snapshot_valid_ = false;
}

std::vector<DesignVertexId> IncrementalPotentialSimulator::DesignVertexIds() const {
  std::vector<DesignVertexId> ids;
  for (const StepEnergy::DesignVertex& d : design_) {
    const int collider = energy_->meshes()[d.mesh].collider;
    const std::string& name = scene_->colliders[collider].name;
    ids.push_back({name.empty() ? std::to_string(collider) : name, d.vertex});
  }
  return ids;
}

std::vector<std::string> IncrementalPotentialSimulator::DesignParameterNames() const {
  std::vector<std::string> names;
  for (const DesignVertexId& id : DesignVertexIds()) {
    const std::string prefix = "vertex:" + id.collider + ":" + std::to_string(id.vertex) + ":";
    for (const char* axis : {"x", "y", "z"}) names.push_back(prefix + axis);
  }
  return names;
}

VecX IncrementalPotentialSimulator::DesignParameters() const {
  VecX p(3 * static_cast<int>(design_.size()));
  for (size_t i = 0; i < design_.size(); ++i) {
    p.segment<3>(3 * static_cast<int>(i)) = energy_->meshes()[design_[i].mesh].vertices.row(design_[i].vertex).transpose();
  }
  return p;
}

void IncrementalPotentialSimulator::SetDesignParameters(const VecX& p) {
  if (design_.empty()) Simulator::SetDesignParameters(p);  // throws Unsupported
  if (p.size() != 3 * static_cast<int>(design_.size())) {
    throw InvalidArgument(std::string(name()) + ": " + std::to_string(p.size()) + " design parameters given, " +
                          std::to_string(3 * design_.size()) + " expected (DesignParameterNames)");
  }
  for (int i = 0; i < p.size(); ++i) {
    if (!std::isfinite(p[i])) {
      throw InvalidArgument(std::string(name()) + ": design parameter " + DesignParameterNames()[i] + " is not finite");
    }
  }
  std::vector<Vec3> local(design_.size());
  for (size_t i = 0; i < design_.size(); ++i) local[i] = p.segment<3>(3 * static_cast<int>(i));
  energy_->SetVertices(design_, local);
  for (const Attachment& a : attachments_) {
    SE3 placement = own_scene_->model.body(a.body).joint.placement;
    Vec3 at = Vec3::Zero();
    for (const auto& [d, w] : a.weights) at += w * p.segment<3>(3 * d);
    placement.translation() = at;
    own_scene_->model.set_joint_placement(a.body, placement);
  }
  snapshot_valid_ = false;
}

std::vector<std::pair<int, double>> IncrementalPotentialSimulator::AttachmentIn(
    int c, const std::map<std::pair<int, int>, int>& design_index) const {
  const BodyModel& body = scene_->model.body(c);
  for (int m = 0; m < static_cast<int>(energy_->meshes().size()); ++m) {
    if (energy_->meshes()[m].body != body.parent) continue;
    std::vector<std::pair<int, double>> weights;
    for (const auto& [row, w] : AttachmentWeights(energy_->meshes()[m], body.joint.placement.translation())) {
      const auto it = design_index.find({m, row});
      if (it == design_index.end()) {
        weights.clear();
        break;
      }
      weights.emplace_back(it->second, w);
    }
    if (!weights.empty()) return weights;
  }
  return {};
}

void IncrementalPotentialSimulator::FollowAttachments() {
  attachments_.clear();
  std::map<std::pair<int, int>, int> design_index;  // (mesh, vertex) -> index into design_
  for (size_t d = 0; d < design_.size(); ++d) design_index[{design_[d].mesh, design_[d].vertex}] = static_cast<int>(d);
  for (int c = 0; c < scene_->model.num_bodies(); ++c) {
    if (scene_->model.body(c).parent == kWorldBody || !energy_->Moves(c)) continue;
    // A joint outside every designed hull of its parent stays where it is.
    std::vector<std::pair<int, double>> weights = AttachmentIn(c, design_index);
    if (!weights.empty()) attachments_.push_back({c, std::move(weights)});
  }
  if (attachments_.empty()) return;
  // The design moves joints: the model and its energy work on their own copy of the scene.
  own_scene_ = std::make_shared<Scene>(*scene_);
  scene_ = own_scene_;
  energy_ = std::make_unique<StepEnergy>(scene_, energy_->meshes(), contact_.get(), options_.Energy());
  snapshot_valid_ = false;
}

MatX IncrementalPotentialSimulator::BodyPointDesignJacobian(const VecX& q, int body) const {
  const MultibodyModel& model = scene_->model;
  MatX J = MatX::Zero(3, 3 * static_cast<int>(design_.size()));
  if (attachments_.empty()) return J;
  MultibodyData data(model);
  ForwardKinematics(model, data, q);
  // Moving joint c's attachment by da in its parent's frame translates c's subtree by R_p da.
  for (const Attachment& a : attachments_) {
    if (!model.IsInSubtree(body, a.body)) continue;
    const Mat3 R = data.X_WB[model.body(a.body).parent].rotation();
    for (const auto& [d, w] : a.weights) J.middleCols<3>(3 * d) += w * R;
  }
  return J;
}

}  // namespace arena
