// Whether two collider meshes at a configuration intersect: their surfaces cross, or one closed
// mesh lies inside the other. A barrier whose terms are distances between primitives (IPC's
// point-triangle and edge-edge pairs) is finite for crossing surfaces (an edge through a
// triangle's interior is at a positive distance from its vertices and edges), so a step started
// there would run on a meaningless potential; the incremental-potential models refuse it.
#pragma once

#include "models/incremental_potential/contact_potential.h"

namespace arena {

/// True when the surfaces of meshes a and b of x cross (some triangle pair intersects; the pairs
/// whose bounding boxes overlap are tested) or a vertex of one lies inside the other (winding
/// number above 3/4 in magnitude: closed meshes; an open ground face never counts).
bool MeshesIntersect(const ContactConfiguration& x, int a, int b);

}  // namespace arena
