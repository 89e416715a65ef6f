// Mass properties of uniform-density shapes, in the shape frame S.
//
// Closed forms for the primitives; convex hulls and closed meshes by the divergence theorem,
// summing signed tetrahedra (origin, a, b, c) over the triangles: for a tetrahedron with
// vertices 0, a, b, c and volume V, int x x^T dV = V/20 (a a^T + b b^T + c c^T + s s^T) with
// s = a + b + c (e.g. Tonon, "Explicit exact formulas for the 3-D tetrahedron inertia tensor",
// J. Math. Stat. 2004; Eberly, "Polyhedral mass properties", 2002).
#pragma once

#include "core/geometry/shape.h"
#include "core/math/inertia.h"

namespace arena {

/// Mass, centre of mass and rotational inertia about the COM (axes of S) of a uniform shape.
/// 3D shapes: density in kg/m^3. 2D shapes (Polygon2, padded or not, Disk2, Capsule2): area
/// density in kg/m^2; the result is planar: mass, COM at z = 0, and only I_zz on the diagonal
/// (I_xx = I_yy = 0).
/// Throws InvalidArgument for density <= 0, half-spaces/half-planes, and meshes that are not
/// closed (IsClosed) or enclose no volume.
SpatialInertia MassProperties(const Shape& shape, double density);

/// Volume of a 3D shape (m^3) or area of a 2D shape (m^2). Same errors as MassProperties.
double Volume(const Shape& shape);

}  // namespace arena
