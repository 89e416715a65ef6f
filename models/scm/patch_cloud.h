// SCM's oriented point clouds (seed 001 Sec. III-B, "AOPC"): near-isotropic plane patches laid on
// a shape's surface, each a centre and an outward unit normal in the shape's frame. The patches
// of a face tile it exactly, so their boundaries fall on the shape's real edges and corners, the
// placement seed 001 Fig. 4 asks for (a patch straddling a corner bends the SSDF there). A
// capsule is a cube sphere split at its equator over a cylinder side; a cylinder a side grid
// and two discs of rings of sectors (its rims are edges, as a box's).
//
// The paper quadrangulates meshes with Instant Meshes; here a box face is split into a grid of
// near-square rectangles, a sphere into the six grids of a warped cube (equal-angle), and a hull
// or mesh triangle into k^2 similar sub-triangles (k from the triangle's longest edge), so every
// patch is at most `spacing` across. A half-space is a single patch, its plane: its SSDF is the
// exact signed distance everywhere (a softmax over one patch is 1).
#pragma once

#include <memory>

#include "core/geometry/point_cloud.h"
#include "core/geometry/shape.h"
#include "models/scm/point_tree.h"

namespace arena::scm {

struct PatchCloud {
  OrientedPointCloud patches;  // centres and outward unit normals, shape frame
  bool plane = false;          // a half-space: one patch, no points of its own (see above)
  std::shared_ptr<const PointTree> tree;  // over the centres (none for a half-space)
};

/// Throws InvalidArgument for spacing <= 0 or non-finite, and Unsupported for a shape other than
/// sphere, box, capsule, cylinder, half-space, convex hull or triangle mesh.
PatchCloud MakePatchCloud(const Shape& shape, double spacing);

}  // namespace arena::scm
