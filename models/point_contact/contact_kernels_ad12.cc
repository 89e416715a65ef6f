// The contact kernels' one instantiation for forward-mode AD with 12 derivatives
// (pose_twist_ad.h declares it extern); a unit of its own, as contact_kernels_double.cc says why.
#include "models/point_contact/pose_twist_ad.h"

namespace arena::contact {

template bool Contacts<AdScalar<12>>(const ColliderGeometry&, const PoseT<AdScalar<12>>&,
                                     const ColliderGeometry&, const PoseT<AdScalar<12>>&,
                                     std::vector<ContactPointT<AdScalar<12>>>*);

}  // namespace arena::contact
