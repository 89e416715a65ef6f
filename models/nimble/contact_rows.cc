#include "models/nimble/contact_rows.h"

#include <limits>

#include "core/multibody/kinematics.h"

namespace arena::nimble {

std::vector<int> BuildContactRows(const MultibodyModel& model, const MultibodyData& data,
                                  const std::vector<Contact>& contacts, MatX* J, BoxedLcp* lcp) {
  const int nv = model.nv();
  std::vector<int> first(contacts.size());
  int rows = 0;
  for (size_t k = 0; k < contacts.size(); ++k) {
    first[k] = rows;
    rows += contacts[k].friction >= kMinFriction ? 3 : 1;
  }
  J->setZero(rows, nv);
  lcp->lo.resize(rows);
  lcp->hi.resize(rows);
  lcp->findex.assign(rows, -1);
  MatX Jp(3, nv), rel(3, nv);
  for (size_t k = 0; k < contacts.size(); ++k) {
    const Contact& c = contacts[k];
    // Relative point velocity v_B(p) - v_A(p).
    rel.setZero();
    if (c.body_b != kWorldBody) {
      PointJacobian(model, data, c.body_b, c.point_W, &Jp);
      rel += Jp;
    }
    if (c.body_a != kWorldBody) {
      PointJacobian(model, data, c.body_a, c.point_W, &Jp);
      rel -= Jp;
    }
    const int r = first[k];
    J->row(r) = c.normal_W.transpose() * rel;
    lcp->lo[r] = 0.0;
    lcp->hi[r] = std::numeric_limits<double>::infinity();
    if (c.friction < kMinFriction) continue;
    Vec3 t1, t2;
    TangentBasisOde(c.normal_W, &t1, &t2);
    J->row(r + 1) = t1.transpose() * rel;
    J->row(r + 2) = t2.transpose() * rel;
    for (int i = 1; i <= 2; ++i) {
      lcp->lo[r + i] = -c.friction;
      lcp->hi[r + i] = c.friction;
      lcp->findex[r + i] = r;
    }
  }
  return first;
}

}  // namespace arena::nimble
