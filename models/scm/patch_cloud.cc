#include "models/scm/patch_cloud.h"

#include <cmath>
#include <string>
#include <vector>

#include "core/common/error.h"
#include "core/geometry/mesh.h"

namespace arena::scm {

namespace patch_cloud {

struct Builder {
  std::vector<Vec3> points, normals;
  void Add(const Vec3& p, const Vec3& n) {
    points.push_back(p);
    normals.push_back(n.normalized());
  }
  OrientedPointCloud Finish() const {
    OrientedPointCloud c;
    c.points.resize(static_cast<Eigen::Index>(points.size()), 3);
    c.normals.resize(static_cast<Eigen::Index>(points.size()), 3);
    for (std::size_t i = 0; i < points.size(); ++i) {
      c.points.row(static_cast<Eigen::Index>(i)) = points[i].transpose();
      c.normals.row(static_cast<Eigen::Index>(i)) = normals[i].transpose();
    }
    return c;
  }
};

int Divisions(double length, double spacing) { return std::max(1, static_cast<int>(std::ceil(length / spacing - 1e-9))); }

// Face +-e_axis of the box: a grid of rectangles at most `spacing` on a side.
void BoxFaces(const Vec3& h, double spacing, Builder* out) {
  for (int axis = 0; axis < 3; ++axis) {
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    const int nu = Divisions(2 * h[u], spacing), nv = Divisions(2 * h[v], spacing);
    for (int sign : {1, -1}) {
      for (int i = 0; i < nu; ++i) {
        for (int j = 0; j < nv; ++j) {
          Vec3 p = Vec3::Zero();
          p[axis] = sign * h[axis];
          p[u] = -h[u] + (i + 0.5) * 2 * h[u] / nu;
          p[v] = -h[v] + (j + 0.5) * 2 * h[v] / nv;
          out->Add(p, sign * Vec3::Unit(axis));
        }
      }
    }
  }
}

// The equal-angle cube sphere: each cube face's grid warped by tan, then projected; `place` maps
// a unit direction to its patch centre (a sphere's r d, a capsule's cap). `even` makes the grids
// even so that no patch straddles the equator (a capsule's caps meet its side there).
template <class Place>
void CubeSphere(double r, double spacing, bool even, Place place, Builder* out) {
  int n = Divisions(0.5 * M_PI * r, spacing);  // a face spans a quarter great circle
  if (even && n % 2 == 1) ++n;
  for (int axis = 0; axis < 3; ++axis) {
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    for (int sign : {1, -1}) {
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
          Vec3 d = Vec3::Zero();
          d[axis] = sign;
          d[u] = std::tan(M_PI / 4 * (-1.0 + (2.0 * i + 1.0) / n));
          d[v] = std::tan(M_PI / 4 * (-1.0 + (2.0 * j + 1.0) / n));
          d.normalize();
          out->Add(place(d), d);
        }
      }
    }
  }
}

// The side of a cylinder of radius r about z from -h to h: a grid in angle and height.
void CylinderSide(double r, double h, double spacing, Builder* out) {
  const int around = std::max(3, Divisions(2.0 * M_PI * r, spacing)), along = Divisions(2.0 * h, spacing);
  for (int i = 0; i < around; ++i) {
    const double phi = 2.0 * M_PI * (i + 0.5) / around;
    const Vec3 radial(std::cos(phi), std::sin(phi), 0.0);
    for (int j = 0; j < along; ++j) out->Add(r * radial + Vec3(0.0, 0.0, -h + (j + 0.5) * 2.0 * h / along), radial);
  }
}

// A flat disc cap of radius r at height z with normal (0, 0, sign): rings of sectors, each at
// most `spacing` across; the innermost ring is one patch when a single sector fits.
void DiscCap(double r, double z, double sign, double spacing, Builder* out) {
  const int rings = Divisions(r, spacing);
  const double w = r / rings;
  for (int k = 0; k < rings; ++k) {
    const double mid = (k + 0.5) * w;
    const int sectors = Divisions(2.0 * M_PI * mid, spacing);
    for (int i = 0; i < sectors; ++i) {
      const double phi = 2.0 * M_PI * (i + 0.5) / sectors;
      const double rho = sectors == 1 ? 0.0 : mid;
      out->Add(Vec3(rho * std::cos(phi), rho * std::sin(phi), z), sign * Vec3::UnitZ());
    }
  }
}

// Triangle (a, b, c) with outward normal n, split into k^2 similar sub-triangles.
void TrianglePatches(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& n, double spacing,
                     Builder* out) {
  const double longest = std::max({(b - a).norm(), (c - b).norm(), (a - c).norm()});
  const int k = Divisions(longest, spacing);
  const Vec3 eu = (b - a) / k, ev = (c - a) / k;
  for (int i = 0; i < k; ++i) {
    for (int j = 0; i + j < k; ++j) {
      const Vec3 o = a + i * eu + j * ev;
      out->Add(o + (eu + ev) / 3.0, n);  // the upright sub-triangle
      if (i + j + 1 < k) out->Add(o + 2.0 * (eu + ev) / 3.0, n);  // the inverted one beside it
    }
  }
}

template <class Vertices, class Triangles, class NormalOf>
void MeshPatches(const Vertices& vertices, const Triangles& triangles, int count, NormalOf normal_of,
                 double spacing, Builder* out) {
  for (int t = 0; t < count; ++t) {
    const Vec3 n = normal_of(t);
    if (n.squaredNorm() == 0.0) continue;  // a zero-area triangle has no surface
    const auto& tri = triangles(t);
    TrianglePatches(vertices.row(tri[0]).transpose(), vertices.row(tri[1]).transpose(),
                    vertices.row(tri[2]).transpose(), n, spacing, out);
  }
}

}  // namespace patch_cloud

PatchCloud MakePatchCloud(const Shape& shape, double spacing) {
  using namespace patch_cloud;
  if (!(spacing > 0.0) || !std::isfinite(spacing)) {
    throw InvalidArgument("scm: patch spacing must be finite and > 0, got " + std::to_string(spacing));
  }
  PatchCloud cloud;
  Builder b;
  if (const auto* box = std::get_if<Box>(&shape)) {
    BoxFaces(box->half_extents, spacing, &b);
  } else if (const auto* sphere = std::get_if<Sphere>(&shape)) {
    const double r = sphere->radius;
    CubeSphere(r, spacing, false, [r](const Vec3& d) { return Vec3(r * d); }, &b);
  } else if (const auto* capsule = std::get_if<Capsule>(&shape)) {
    // Two hemispherical caps (the cube sphere split at its equator, each half moved to its end)
    // and the cylinder between them.
    const double r = capsule->radius, h = capsule->half_length;
    CubeSphere(r, spacing, true, [r, h](const Vec3& d) { return Vec3(r * d + Vec3(0.0, 0.0, d.z() > 0.0 ? h : -h)); }, &b);
    if (h > 0.0) CylinderSide(r, h, spacing, &b);
  } else if (const auto* cylinder = std::get_if<Cylinder>(&shape)) {
    const double r = cylinder->radius, h = cylinder->half_length;
    CylinderSide(r, h, spacing, &b);
    DiscCap(r, h, 1.0, spacing, &b);
    DiscCap(r, -h, -1.0, spacing, &b);
  } else if (std::holds_alternative<HalfSpace>(shape)) {
    b.Add(Vec3::Zero(), Vec3::UnitZ());
    cloud.plane = true;
  } else if (const auto* hull = std::get_if<ConvexHull>(&shape)) {
    const ConvexHullData& h = *hull->data;
    if (hull->radius > 0.0) throw Unsupported("scm: padded convex hulls have no patch cloud");
    MeshPatches(h.vertices, [&](int t) { return h.triangles[static_cast<std::size_t>(t)]; },
                static_cast<int>(h.triangles.size()),
                [&](int t) { return Vec3(h.face_normals.row(h.triangle_faces[static_cast<std::size_t>(t)]).transpose()); },
                spacing, &b);
  } else if (const auto* mesh = std::get_if<TriangleMesh>(&shape)) {
    const TriangleMeshData& m = *mesh->data;
    MeshPatches(m.vertices, [&](int t) { return m.triangles.row(t); }, static_cast<int>(m.triangles.rows()),
                [&](int t) { return Vec3(m.face_normals.row(t).transpose()); }, spacing, &b);
  } else {
    throw Unsupported("scm: no patch cloud for shape '" + std::string(ToString(TypeOf(shape))) + "'");
  }
  cloud.patches = b.Finish();
  if (!cloud.plane) cloud.tree = std::make_shared<const PointTree>(cloud.patches.points);
  return cloud;
}

}  // namespace arena::scm
