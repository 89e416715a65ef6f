// The contact kernels' one instantiation for double (contact_kernels.h declares it extern). Each
// scalar type has a unit of its own, compiled outside the unity batch: in one unit with the
// others GCC runs out of its inlining budget and leaves Eigen's small products as calls
// (docs/build.md).
#include "models/point_contact/contact_kernels.h"

namespace arena::contact {

template bool Contacts<double>(const ColliderGeometry&, const PoseT<double>&, const ColliderGeometry&,
                               const PoseT<double>&, std::vector<ContactPointT<double>>*);

}  // namespace arena::contact
