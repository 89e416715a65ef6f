// Nimble's LCP rows as world wrenches, and how they move with the bodies (seed 002 Sec. V,
// eqs. 23-25, App. C). Row r of the contact Jacobian is
//   J_r = W_r^T (J_W,B - J_W,A),   W_r = [p x d; d],
// with p the contact point, d the row's direction (normal or ODE tangent) and J_W a body's world
// twist Jacobian (spatial, about the origin). When the bodies move by world twists dA and dB,
// W_r moves by dW_r [dA; dB]. The paper writes this per screw axis and per contact type
// (vertex-face, edge-edge, sphere, pipe); here the same derivatives come from forward-mode AD
// of the contact kernel that produced the point, so every pair the kernels support is covered
// and the point and normal conventions are exactly the forward model's.
#pragma once

#include <vector>

#include "core/multibody/data.h"
#include "core/scene/scene.h"
#include "models/point_contact/contact_kernels.h"
#include "models/nimble/contact_rows.h"

namespace arena::nimble {

struct RowWrench {
  Vec6 W;
  Eigen::Matrix<double, 6, 12> dW;  // d W / d[world pose twist of body A; of body B]
};

/// One entry per LCP row, in BuildContactRows' order, after ForwardKinematics(q). Contact k must
/// be point `contacts[k].point` of the kernel run on `pairs[contacts[k].pair]`.
void RowWrenches(const Scene& scene, const MultibodyData& data,
                 const std::vector<contact::ColliderGeometry>& geometry,
                 const std::vector<ColliderPair>& pairs, const std::vector<Contact>& contacts,
                 std::vector<RowWrench>* rows);

}  // namespace arena::nimble
