#include "models/nimble/row_wrenches.h"

#include "core/common/error.h"
#include "models/point_contact/pose_twist_ad.h"

namespace arena::nimble {

namespace {

using Ad = contact::AdScalar<12>;
using AdV3 = contact::V3<Ad>;

RowWrench MakeRow(const AdV3& p, const AdV3& d) {
  const AdV3 moment = p.cross(d);
  RowWrench row;
  for (int i = 0; i < 3; ++i) {
    row.W[i] = moment[i].value();
    row.W[3 + i] = d[i].value();
    row.dW.row(i) = contact::Gradient(moment[i]);
    row.dW.row(3 + i) = contact::Gradient(d[i]);
  }
  return row;
}

}  // namespace

void RowWrenches(const Scene& scene, const MultibodyData& data,
                 const std::vector<contact::ColliderGeometry>& geometry,
                 const std::vector<ColliderPair>& pairs, const std::vector<Contact>& contacts,
                 std::vector<RowWrench>* rows) {
  rows->clear();
  std::vector<contact::ContactPointT<Ad>> points;
  int points_pair = -1;
  for (const Contact& c : contacts) {
    if (c.pair != points_pair) {  // contacts of one pair are contiguous: one AD kernel run each
      const ColliderPair& pair = pairs[c.pair];
      const Collider& A = scene.colliders[pair.a];
      const Collider& B = scene.colliders[pair.b];
      points.clear();
      contact::Contacts<Ad>(geometry[pair.a],
                            contact::SeedPose<12>(contact::ColliderPose(data, A), A.body == kWorldBody ? -1 : 0),
                            geometry[pair.b],
                            contact::SeedPose<12>(contact::ColliderPose(data, B), B.body == kWorldBody ? -1 : 6),
                            &points);
      points_pair = c.pair;
    }
    if (c.point < 0 || c.point >= static_cast<int>(points.size())) {
      throw Error("nimble: contact point " + std::to_string(c.point) + " of pair " + std::to_string(c.pair) +
                  " is missing from the AD kernel run (" + std::to_string(points.size()) + " points)");
    }
    const auto& point = points[c.point];
    const Vec3 p(point.p_W[0].value(), point.p_W[1].value(), point.p_W[2].value());
    if ((p - c.point_W).norm() > 1e-9) {
      throw Error("nimble: the AD kernel run gave pair " + std::to_string(c.pair) + " another point " +
                  std::to_string(c.point) + " than the forward run");
    }
    rows->push_back(MakeRow(point.p_W, point.n_W));
    if (c.friction < kMinFriction) continue;
    AdV3 t1, t2;
    TangentBasisOde(point.n_W, &t1, &t2);
    rows->push_back(MakeRow(point.p_W, t1));
    rows->push_back(MakeRow(point.p_W, t2));
  }
}

}  // namespace arena::nimble
