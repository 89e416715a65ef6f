// The contact kernels' one instantiation for forward-mode AD with 24 derivatives
// (pose_twist_ad.h declares it extern); a unit of its own, as contact_kernels_double.cc says why.
#include "models/point_contact/pose_twist_ad.h"

namespace arena::contact {

template bool Contacts<AdScalar<24>>(const ColliderGeometry&, const PoseT<AdScalar<24>>&,
                                     const ColliderGeometry&, const PoseT<AdScalar<24>>&,
                                     std::vector<ContactPointT<AdScalar<24>>>*);

}  // namespace arena::contact
