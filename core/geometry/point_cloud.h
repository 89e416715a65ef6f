// Oriented point clouds sampled on shape surfaces (for point-based contact models and tests).
//
// Samples are area-uniform on the surface (length-uniform on the boundary curve of a 2D shape)
// and deterministic given the seed on every standard library: std::mt19937_64 is specified
// bit-exactly and the mapping to [0, 1) is done here (53 random bits), not by
// std::uniform_real_distribution.
#pragma once

#include <cstdint>

#include "core/geometry/primitives.h"
#include "core/geometry/shape.h"

namespace arena {

struct OrientedPointCloud {
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> points;   // on the surface, frame S
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> normals;  // unit, outward
};

/// `count` points on the surface of a bounded shape with outward unit normals. 2D shapes: on
/// the boundary curve in the xy-plane (z = 0, normals in-plane). Meshes use their face normals
/// (outward if the mesh is consistently oriented). Throws InvalidArgument for HalfSpace,
/// HalfPlane2, count < 0, or a hull or mesh of zero surface area.
OrientedPointCloud SamplePointCloud(const Shape& shape, int count, std::uint64_t seed);

}  // namespace arena
