#include "models/incremental_potential/tangent_chain.h"

#include "core/multibody/joint.h"
#include "core/multibody/kinematics.h"

namespace arena {

void BodyHessian::Reset(int bodies) {
  self.assign(bodies, Mat6::Zero());
  cross.clear();
}

void BodyHessian::Add(int k, int l, const Mat6& block) {
  if (k == l) {
    self[k] += block;
  } else if (k < l) {
    auto [it, inserted] = cross.try_emplace({k, l}, block);
    if (!inserted) it->second += block;
  } else {
    Add(l, k, block.transpose());
  }
}

Mat6& BodyHessian::Block(int k, int l) {
  if (k == l) return self[k];
  return cross.try_emplace({k, l}, Mat6::Zero()).first->second;
}

TangentChain::TangentChain(const MultibodyModel& model)
    : model_(model), data_(model), twists_(model.nv(), Motion::Zero()), joint_of_(model.nv(), -1),
      paths_(model.num_bodies()) {
  for (int k = 0; k < model.num_bodies(); ++k) {
    const BodyModel& b = model.body(k);
    if (b.parent != kWorldBody) paths_[k] = paths_[b.parent];
    for (int i = 0; i < JointNv(b.joint.type); ++i) {
      paths_[k].push_back(b.idx_v + i);
      joint_of_[b.idx_v + i] = k;
    }
  }
}

void TangentChain::Update(const VecX& q) {
  ForwardKinematics(model_, data_, q);
  for (int k = 0; k < model_.num_bodies(); ++k) {
    const BodyModel& b = model_.body(k);
    for (int i = 0; i < JointNv(b.joint.type); ++i) {
      twists_[b.idx_v + i] = data_.X_WB[k].ActMotion(data_.S[k].col(i));
    }
  }
}

void TangentChain::Gradient(const std::vector<Vec6>& G, VecX* g) const {
  g->setZero(model_.nv());
  for (int k = 0; k < model_.num_bodies(); ++k) {
    for (int i : paths_[k]) (*g)[i] += twists_[i].dot(G[k]);
  }
}

void TangentChain::AddHessian(const BodyHessian& blocks, const std::vector<Vec6>& G, MatX* H) const {
  const int nb = model_.num_bodies();
  Eigen::Matrix<double, 6, Eigen::Dynamic> J;
  auto path_jacobian = [&](int k, Eigen::Matrix<double, 6, Eigen::Dynamic>* out) {
    out->resize(6, static_cast<Eigen::Index>(paths_[k].size()));
    for (size_t c = 0; c < paths_[k].size(); ++c) out->col(c) = twists_[paths_[k][c]];
  };
  // First-order terms: J_k^T H_kl J_l over each body's path DOFs.
  for (int k = 0; k < nb; ++k) {
    if (paths_[k].empty() || blocks.self[k].isZero(0.0)) continue;
    path_jacobian(k, &J);
    const MatX h = J.transpose() * blocks.self[k] * J;
    for (size_t a = 0; a < paths_[k].size(); ++a) {
      for (size_t b = 0; b < paths_[k].size(); ++b) (*H)(paths_[k][a], paths_[k][b]) += h(a, b);
    }
  }
  Eigen::Matrix<double, 6, Eigen::Dynamic> Jl;
  for (const auto& [kl, block] : blocks.cross) {
    const auto [k, l] = kl;
    if (paths_[k].empty() || paths_[l].empty()) continue;
    path_jacobian(k, &J);
    path_jacobian(l, &Jl);
    const MatX h = J.transpose() * block * Jl;
    for (size_t a = 0; a < paths_[k].size(); ++a) {
      for (size_t b = 0; b < paths_[l].size(); ++b) {
        (*H)(paths_[k][a], paths_[l][b]) += h(a, b);
        (*H)(paths_[l][b], paths_[k][a]) += h(a, b);
      }
    }
  }
  // Second-order terms of the product of exponentials: G_k . [s_i, s_j] / 2 for i before j on
  // body k's path, the two DOFs on different joints.
  for (int k = 0; k < nb; ++k) {
    const std::vector<int>& p = paths_[k];
    if (G[k].isZero(0.0)) continue;
    for (size_t a = 0; a < p.size(); ++a) {
      for (size_t b = a + 1; b < p.size(); ++b) {
        if (joint_of_[p[a]] == joint_of_[p[b]]) continue;
        const double t = 0.5 * G[k].dot(CrossMotion(twists_[p[a]], twists_[p[b]]));
        (*H)(p[a], p[b]) += t;
        (*H)(p[b], p[a]) += t;
      }
    }
  }
}

void TangentChain::AddSubtreeColumn(const BodyHessian& blocks, const std::vector<Vec6>& G, int body, const Motion& s,
                                    VecX* column) const {
  const int nb = model_.num_bodies();
  std::vector<char> moved(nb);
  for (int l = 0; l < nb; ++l) moved[l] = model_.IsInSubtree(l, body);
  // h_k = sum over the moved bodies l of H_kl s.
  std::vector<Vec6> h(nb, Vec6::Zero());
  for (int l = 0; l < nb; ++l) {
    if (moved[l]) h[l] += blocks.self[l] * s;
  }
  for (const auto& [kl, block] : blocks.cross) {
    const auto [k, l] = kl;
    if (moved[l]) h[k] += block * s;
    if (moved[k]) h[l] += block.transpose() * s;
  }
  for (int k = 0; k < nb; ++k) {
    if (h[k].isZero(0.0)) continue;
    for (int i : paths_[k]) (*column)[i] += twists_[i].dot(h[k]);
  }
  // G_k . [first, second] / 2 over the moved bodies: a DOF of a strict ancestor of `body` comes
  // before z, `body`'s own and its descendants' after.
  for (int k = 0; k < nb; ++k) {
    if (!moved[k] || G[k].isZero(0.0)) continue;
    for (int i : paths_[k]) {
      const int j = joint_of_[i];
      const bool before = j != body && model_.IsInSubtree(body, j);
      (*column)[i] += 0.5 * G[k].dot(before ? CrossMotion(twists_[i], s) : CrossMotion(s, twists_[i]));
    }
  }
}

}  // namespace arena
