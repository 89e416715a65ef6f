// Nimble's reduction of a patch of contacts to the corners of its convex hull (seed 002 App. C:
// the witness points mapped into the witness plane, only those on the 2D hull kept):
// a mesh sole flat on the ground gives its 12 strict hull corners instead of all 22 vertices
// (paper Fig. 1: "12 per foot"). Interior points add only redundant LCP rows.
#pragma once

#include <vector>

#include "models/nimble/contact_rows.h"

namespace arena::nimble {

/// Keeps, among the contacts of one collider pair that share a normal (within 1e-6), those at
/// strict corners of the 2D convex hull of their points in the plane normal to it; collinear
/// and interior points are dropped. Patches of one or two points are kept whole.
/// Contacts group by their `pair`.
void ReduceToHullCorners(std::vector<Contact>* contacts);

}  // namespace arena::nimble
