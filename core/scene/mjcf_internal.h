// Internals of the MJCF loader (LoadMjcf in loader.h), one concept per file:
//   mjcf_loader.cc      reading the file, the order of its sections, <compiler> and <option>,
//                       and assembling the Scene (the file comment there covers frames,
//                       contact parameters and the collision filter)
//   mjcf_attributes.cc  which elements and attributes are accepted, parsing attribute values,
//                       default classes
//   mjcf_geometry.cc    poses, geoms as solids, and the inertias of bodies
//   mjcf_bodies.cc      the body tree: bodies, joints, colliders, actuators, contact excludes
// Not part of the public API. The classes keep references to the file's path, its settings and
// its default classes: all of them live within one LoadMjcf call.
#pragma once

#include <tinyxml2.h>

#include <map>
#include <numbers>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/scene/scene.h"

namespace arena::mjcf_internal {

using tinyxml2::XMLElement;
using AttrMap = std::map<std::string, std::string>;

// ---------------------------------------------------------------- mjcf_attributes.cc

// How errors name an element: "<geom> 'foot' (line 12)".
std::string Where(const XMLElement* e);

[[noreturn]] void Unsupported(const std::string& path, const XMLElement* e);

// Rejects an element without an attribute table (Unsupported) and any attribute its table
// neither uses nor ignores.
void CheckAttributes(const std::string& path, const XMLElement* e);

// Elements skipped entirely (no rigid-body physics).
bool IsIgnoredElement(std::string_view name);

// An element's attributes with its default class behind them.
class Attrs {
 public:
  Attrs(const std::string& path, const XMLElement* e, const AttrMap* defaults)
      : path_(path), e_(e), defaults_(defaults) {}

  std::string where() const { return Where(e_); }
  const std::string& path() const { return path_; }

  const char* Raw(const char* name) const;
  bool Has(const char* name) const { return Raw(name) != nullptr; }
  std::string Str(const char* name, const std::string& fallback = "") const;
  std::vector<double> Nums(const char* name) const;
  // Exactly `count` numbers (or at least `count` when at_least), or the fallback if absent.
  std::vector<double> NumsN(const char* name, size_t count, bool at_least = false) const;
  double Num(const char* name, double fallback) const;
  Vec3 Vec(const char* name, const Vec3& fallback) const;
  // "true" / "false" / "auto" (returned as nullopt); fallback when absent.
  std::optional<bool> Tristate(const char* name, std::optional<bool> fallback) const;
  bool Bool(const char* name, bool fallback) const;

 private:
  const std::string& path_;
  const XMLElement* e_;
  const AttrMap* defaults_;
};

// Default classes: class -> element kind (joint, geom, actuator) -> attributes.
class DefaultClasses {
 public:
  // Starts with the empty class "main", the one elements use when nothing names another.
  explicit DefaultClasses(const std::string& path);

  // Reads a <default> (top level when parent_class is empty) and the classes nested in it.
  void Parse(const XMLElement* e, const std::string& parent_class);

  bool Has(const std::string& cls) const { return classes_.count(cls) > 0; }

  // e's attributes over the `kind` defaults of its class, or of inherited_class when it names
  // none.
  Attrs AttrsFor(const XMLElement* e, const std::string& inherited_class,
                 const std::string& kind) const;

 private:
  const std::string& path_;
  std::map<std::string, std::map<std::string, AttrMap>> classes_;
};

// ---------------------------------------------------------------- mjcf_loader.cc

// <compiler>: how every later element is read.
struct CompilerSettings {
  double angle_scale = std::numbers::pi / 180.0;  // MuJoCo's default unit is degrees
  int inertia_from_geom = -1;                     // 1 true, 0 false, -1 auto
  double settotalmass = -1.0;
  double boundmass = 0.0;
  double boundinertia = 0.0;
  bool autolimits = true;
  bool global = false;  // coordinate="global": poses, joint anchors and axes in the world frame
  std::string eulerseq = "xyz";
};

// A body waiting to be added: its inertia is final only after ResolveInertias.
struct PendingBody {
  std::string name;
  int parent = kWorldBody;
  JointModel joint;
  SpatialInertia inertia;
  VecX q0;
  bool real = true;  // false for the massless intermediates of multi-joint bodies
  // The file elements behind this body, for messages: its <body>, its <joint> (the <body> for a
  // weld), and where its inertia came from (<inertial>, or the <body> for geom inertia).
  std::string where;
  std::string joint_where;
  std::string inertia_where;
  // Where a real body's inertia may come from, chosen by inertiafromgeom. <inertial> stays in
  // the MJCF body frame B until then; X_BpB (B in our body frame B': T(-p_last) for a jointed
  // body) re-expresses it.
  std::optional<SpatialInertia> inertial;
  SpatialInertia geom_inertia;  // sum over the body's geoms, in B'
  SE3 X_BpB;
};

struct PendingCollider {
  Collider collider;
  std::string where;  // the <geom> element
  int contype = 1;
  int conaffinity = 1;
};

// ---------------------------------------------------------------- mjcf_geometry.cc

// The pose given by pos and one of quat / axisangle / euler / xyaxes / zaxis.
SE3 ParsePose(const std::string& path, const Attrs& a, const CompilerSettings& compiler);

// A <geom> as a solid.
struct GeomSolid {
  Shape shape;
  SE3 X_BG;  // in the frame the geom's pose attributes (or fromto) are written in
  double volume = 0.0;
  std::optional<SpatialInertia> unit_inertia;  // at unit mass in the geom frame; none for planes
};
GeomSolid ParseGeomSolid(const std::string& path, const Attrs& a,
                         const CompilerSettings& compiler);

// Inertia of a geom with a unit_inertia, in the geom frame, from its mass or density.
SpatialInertia GeomInertia(const std::string& path, const Attrs& a, const GeomSolid& solid);

// An <inertial> in the MJCF body frame; X_BW maps the file's coordinates into that frame.
SpatialInertia ParseInertial(const std::string& path, const XMLElement* e,
                             const CompilerSettings& compiler, const SE3& X_BW);

// Sets the inertia of every real body from its <inertial> or its geoms, as inertiafromgeom
// says, then applies boundmass, boundinertia and settotalmass.
void ResolveInertias(const std::string& path, const CompilerSettings& compiler,
                     std::vector<PendingBody>* bodies);

// ---------------------------------------------------------------- mjcf_bodies.cc

// Reads <worldbody> into pending bodies and colliders, then <actuator> and <contact>, which
// refer to them by name. Actuators and excluded body pairs go straight into the scene.
class BodyTreeBuilder {
 public:
  BodyTreeBuilder(const std::string& path, const CompilerSettings& compiler,
                  const DefaultClasses& defaults, Scene* scene)
      : path_(path), compiler_(compiler), defaults_(defaults), scene_(scene) {}

  void ParseWorldBody(const XMLElement* e);
  void ParseActuators(const XMLElement* e);
  void ParseContact(const XMLElement* e);

  std::vector<PendingBody>& bodies() { return pending_; }
  std::vector<PendingCollider>& colliders() { return colliders_; }
  // The element of each actuator added to the scene, in order.
  const std::vector<std::string>& actuator_elements() const { return actuator_where_; }

 private:
  // What one MJCF <body> (or the world) became.
  struct BodyInfo {
    int index = kWorldBody;  // our body carrying its inertia and geoms
    SE3 X_BpB;               // MJCF body frame B in our body frame B'
    std::string childclass = "main";
  };
  struct JointSpec {
    JointModel model;
    Vec3 pos = Vec3::Zero();
    double ref = 0.0;
    const XMLElement* element = nullptr;
  };

  void ParseBodyChildren(const XMLElement* e, const BodyInfo& owner, const SE3& X_BF,
                         bool is_world);
  void ParseBody(const XMLElement* e, const BodyInfo& parent, const SE3& X_PF,
                 bool parent_is_world);
  JointSpec ParseJoint(const XMLElement* e, const std::string& childclass,
                       const std::string& body_name, int index, const SE3& X_BW);
  void ParseGeom(const XMLElement* e, const BodyInfo& owner, const SE3& X_BF, bool is_world);
  int AddPending(PendingBody b);

  const std::string& path_;
  const CompilerSettings& compiler_;
  const DefaultClasses& defaults_;
  Scene* scene_;
  std::vector<PendingBody> pending_;
  std::vector<PendingCollider> colliders_;
  std::vector<std::string> actuator_where_;
  std::map<std::string, int> body_index_;
  std::map<int, int> geom_count_;  // per body, for default names
  int num_mjcf_bodies_ = 0;
};

}  // namespace arena::mjcf_internal
