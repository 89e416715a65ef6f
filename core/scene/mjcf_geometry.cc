// Geometry of MJCF elements: poses (pos with quat, axisangle, euler, xyaxes or zaxis), geoms as
// solids (shape, volume, inertia; fromto), and the inertias of bodies (<inertial>, geoms, and the
// compiler's boundmass, boundinertia and settotalmass).
#include <Eigen/Eigenvalues>

#include <cctype>
#include <cmath>
#include <numbers>

#include "core/common/error.h"
#include "core/math/so3.h"
#include "core/scene/mjcf_internal.h"

namespace arena::mjcf_internal {

namespace {

Mat3 EulerToRotation(const Vec3& angles, const std::string& eulerseq) {
  Quat q = Quat::Identity();
  for (int i = 0; i < 3; ++i) {
    const char c = eulerseq[i];
    const int axis = std::tolower(static_cast<unsigned char>(c)) - 'x';
    const Quat r(Eigen::AngleAxisd(angles[i], Vec3::Unit(axis)));
    // Lower case: axes that move with the frame (post-multiply); upper case: fixed axes.
    q = std::islower(static_cast<unsigned char>(c)) ? q * r : r * q;
  }
  return q.normalized().toRotationMatrix();
}

}  // namespace

SE3 ParsePose(const std::string& path, const Attrs& a, const CompilerSettings& compiler) {
  const Vec3 p = a.Vec("pos", Vec3::Zero());
  int count = 0;
  for (const char* n : {"quat", "axisangle", "euler", "xyaxes", "zaxis"}) count += a.Has(n);
  if (count > 1) {
    throw ParseError(path, a.where(),
                     "more than one of quat, axisangle, euler, xyaxes, zaxis given");
  }
  Mat3 R = Mat3::Identity();
  if (a.Has("quat")) {
    const auto q = a.NumsN("quat", 4);
    const Quat quat(q[0], q[1], q[2], q[3]);
    if (!(quat.norm() > 1e-12)) throw ParseError(path, a.where() + " / quat", "zero quaternion");
    R = quat.normalized().toRotationMatrix();
  } else if (a.Has("axisangle")) {
    const auto x = a.NumsN("axisangle", 4);
    const Vec3 axis(x[0], x[1], x[2]);
    if (!(axis.norm() > 1e-12)) {
      throw ParseError(path, a.where() + " / axisangle", "zero rotation axis");
    }
    R = Eigen::AngleAxisd(x[3] * compiler.angle_scale, axis.normalized()).toRotationMatrix();
  } else if (a.Has("euler")) {
    R = EulerToRotation(a.Vec("euler", Vec3::Zero()) * compiler.angle_scale,
                        compiler.eulerseq);
  } else if (a.Has("xyaxes")) {
    const auto x = a.NumsN("xyaxes", 6);
    Vec3 ex(x[0], x[1], x[2]), ey(x[3], x[4], x[5]);
    if (!(ex.norm() > 1e-12)) throw ParseError(path, a.where() + " / xyaxes", "zero x axis");
    ex.normalize();
    ey -= ex.dot(ey) * ex;
    if (!(ey.norm() > 1e-12)) {
      throw ParseError(path, a.where() + " / xyaxes", "y axis is parallel to x axis");
    }
    ey.normalize();
    R.col(0) = ex;
    R.col(1) = ey;
    R.col(2) = ex.cross(ey);
  } else if (a.Has("zaxis")) {
    const Vec3 z = a.Vec("zaxis", Vec3::UnitZ());
    if (!(z.norm() > 1e-12)) throw ParseError(path, a.where() + " / zaxis", "zero z axis");
    R = Quat::FromTwoVectors(Vec3::UnitZ(), z.normalized()).toRotationMatrix();
  }
  return SE3(R, p);
}

GeomSolid ParseGeomSolid(const std::string& path, const Attrs& a,
                         const CompilerSettings& compiler) {
  const std::string type = a.Str("type", "sphere");
  const std::vector<double> size = a.Nums("size");
  auto need = [&](size_t n) {
    if (size.size() < n) {
      throw ParseError(path, a.where() + " / size",
                       type + " needs " + std::to_string(n) + " size values, got " +
                           std::to_string(size.size()));
    }
    for (size_t i = 0; i < n; ++i) {
      if (!(size[i] > 0.0)) {
        throw ParseError(path, a.where() + " / size", "sizes must be > 0");
      }
    }
  };
  SE3 X_BG = ParsePose(path, a, compiler);
  double half_length = 0.0;
  if (a.Has("fromto")) {
    if (type != "capsule" && type != "cylinder") {
      throw ParseError(path, a.where() + " / fromto",
                       "fromto is supported for capsule and cylinder only");
    }
    const auto f = a.NumsN("fromto", 6);
    const Vec3 p0(f[0], f[1], f[2]), p1(f[3], f[4], f[5]);
    const Vec3 d = p1 - p0;
    if (!(d.norm() > 1e-12)) {
      throw ParseError(path, a.where() + " / fromto", "the two end points coincide");
    }
    X_BG = SE3(Quat::FromTwoVectors(Vec3::UnitZ(), d.normalized()).toRotationMatrix(),
               0.5 * (p0 + p1));
    half_length = 0.5 * d.norm();
  }
  Shape shape;
  double volume = 0.0;
  std::optional<SpatialInertia> unit_inertia;  // inertia of the solid at unit mass
  if (type == "plane") {
    shape = HalfSpace{};
  } else if (type == "sphere") {
    need(1);
    shape = Sphere{size[0]};
    volume = 4.0 / 3.0 * std::numbers::pi * std::pow(size[0], 3);
    unit_inertia = SpatialInertia::SolidSphere(1.0, size[0]);
  } else if (type == "capsule" || type == "cylinder") {
    need(a.Has("fromto") ? 1 : 2);
    if (!a.Has("fromto")) half_length = size[1];
    const double r = size[0];
    if (type == "capsule") {
      shape = Capsule{r, half_length};
      volume = std::numbers::pi * r * r * (2.0 * half_length + 4.0 / 3.0 * r);
      unit_inertia = SpatialInertia::SolidCapsule(1.0, r, half_length);
    } else {
      shape = Cylinder{r, half_length};
      volume = std::numbers::pi * r * r * 2.0 * half_length;
      unit_inertia = SpatialInertia::SolidCylinder(1.0, r, half_length);
    }
  } else if (type == "box") {
    need(3);
    const Vec3 h(size[0], size[1], size[2]);
    shape = Box{h};
    volume = 8.0 * h.prod();
    unit_inertia = SpatialInertia::SolidBox(1.0, h);
  } else if (type == "ellipsoid") {
    need(3);
    const Vec3 r(size[0], size[1], size[2]);
    shape = Ellipsoid{r};
    volume = 4.0 / 3.0 * std::numbers::pi * r.prod();
    const Vec3 r2 = r.cwiseProduct(r);
    const Vec3 moments = Vec3(r2.y() + r2.z(), r2.x() + r2.z(), r2.x() + r2.y()) / 5.0;
    unit_inertia = SpatialInertia(1.0, Vec3::Zero(), moments.asDiagonal());
  } else {
    throw ParseError(path, a.where() + " / type",
                     "geom type '" + type +
                         "' is not supported (plane, sphere, capsule, cylinder, box, ellipsoid)");
  }
  return GeomSolid{std::move(shape), X_BG, volume, unit_inertia};
}

SpatialInertia GeomInertia(const std::string& path, const Attrs& a, const GeomSolid& solid) {
  double mass = 0.0;
  if (a.Has("mass")) {
    mass = a.Num("mass", 0.0);
    if (mass < 0.0) throw ParseError(path, a.where() + " / mass", "mass must be >= 0");
  } else {
    const double density = a.Num("density", 1000.0);
    if (density < 0.0) throw ParseError(path, a.where() + " / density", "density must be >= 0");
    mass = density * solid.volume;
    if (!std::isfinite(mass)) {
      throw ParseError(path, a.where() + " / density",
                       "density times volume overflows (mass is not finite)");
    }
  }
  const SpatialInertia unit = *solid.unit_inertia;
  return SpatialInertia(mass, unit.com(), unit.inertia_com() * mass);
}

SpatialInertia ParseInertial(const std::string& path, const XMLElement* e,
                             const CompilerSettings& compiler, const SE3& X_BW) {
  CheckAttributes(path, e);
  const Attrs a(path, e, nullptr);
  const SE3 X_BI = X_BW * ParsePose(path, a, compiler);
  if (!a.Has("mass")) throw ParseError(path, a.where(), "<inertial> needs a mass");
  const double m = a.Num("mass", 0.0);
  if (m < 0.0) throw ParseError(path, a.where() + " / mass", "mass must be >= 0");
  Mat3 I = Mat3::Zero();
  if (a.Has("diaginertia") == a.Has("fullinertia")) {
    throw ParseError(path, a.where(), "give exactly one of diaginertia, fullinertia");
  }
  const char* given = a.Has("diaginertia") ? "diaginertia" : "fullinertia";
  if (a.Has("diaginertia")) {
    I = a.Vec("diaginertia", Vec3::Zero()).asDiagonal();
  } else {
    const auto f = a.NumsN("fullinertia", 6);  // Ixx Iyy Izz Ixy Ixz Iyz
    I << f[0], f[3], f[4], f[3], f[1], f[5], f[4], f[5], f[2];
  }
  // The physical rules (Scene::Check's) on the file's own numbers, to name the attribute.
  if (std::string problem = ValidateInertia(SpatialInertia(m, Vec3::Zero(), I)); !problem.empty()) {
    throw ParseError(path, a.where() + " / " + given, problem);
  }
  return SpatialInertia(m, Vec3::Zero(), I).Transformed(X_BI);
}

void ResolveInertias(const std::string& path, const CompilerSettings& compiler,
                     std::vector<PendingBody>* bodies) {
  double total = 0.0;
  for (PendingBody& b : *bodies) {
    if (!b.real) continue;
    const bool from_geom = compiler.inertia_from_geom == 1 ||
                           (compiler.inertia_from_geom == -1 && !b.inertial);
    if (from_geom) {
      b.inertia = b.geom_inertia;
    } else if (b.inertial) {
      // <inertial> is in the MJCF body frame; ours differs by the last joint's anchor.
      b.inertia = b.inertial->Transformed(b.X_BpB);
    }
    if (compiler.boundmass > 0.0 && b.inertia.mass() < compiler.boundmass) {
      b.inertia = SpatialInertia(compiler.boundmass, b.inertia.com(), b.inertia.inertia_com());
    }
    if (compiler.boundinertia > 0.0) {
      Eigen::SelfAdjointEigenSolver<Mat3> eig(b.inertia.inertia_com());
      const Vec3 d = eig.eigenvalues().cwiseMax(compiler.boundinertia);
      const Mat3 V = eig.eigenvectors();
      b.inertia = SpatialInertia(b.inertia.mass(), b.inertia.com(),
                                 V * d.asDiagonal() * V.transpose());
    }
    total += b.inertia.mass();
  }
  if (compiler.settotalmass > 0.0) {
    if (!(total > 0.0)) {
      throw ParseError(path, "<compiler> / settotalmass", "the bodies have no mass to scale");
    }
    const double scale = compiler.settotalmass / total;
    for (PendingBody& b : *bodies) {
      b.inertia = SpatialInertia(b.inertia.mass() * scale, b.inertia.com(),
                                 b.inertia.inertia_com() * scale);
    }
  }
}

}  // namespace arena::mjcf_internal
