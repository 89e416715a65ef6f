// URDF -> Scene through urdfdom. tinyxml2 checks well-formedness first (urdfdom gives no line
// numbers), and urdfdom's own complaints (console_bridge log) are captured into the ParseError:
// an error it logs rejects the file even when urdfdom still returns a model (it does for a
// value it cannot read, e.g. ixx="nan", and silently drops the rest of that link).
// Physical validity (inertias, shapes, joints) is Scene::Check's, with the link, joint or
// collision element named in the message.
#include <console_bridge/console.h>
#include <fmt/format.h>
#include <tinyxml2.h>
#include <urdf_parser/urdf_parser.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <tuple>

#include "core/common/error.h"
#include "core/common/input_file.h"
#include "core/geometry/mesh.h"
#include "core/scene/loader.h"
#include "core/scene/package_paths.h"
#include "core/scene/source_elements.h"

namespace arena {

namespace {

namespace fs = std::filesystem;

std::string ReadTextFile(const std::string& path) {
  CheckInputFile(path, "URDF file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParseError(path, "", "cannot open the file for reading");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Collects urdfdom's log messages while it parses. console_bridge's handler is process-global,
// so parses are serialised.
class CapturingHandler : public console_bridge::OutputHandler {
 public:
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_WARN) {
      messages_ += (messages_.empty() ? "" : "; ") + text;
    }
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR) has_error_ = true;
  }
  const std::string& messages() const { return messages_; }
  bool has_error() const { return has_error_; }

 private:
  std::string messages_;
  bool has_error_ = false;
};

urdf::ModelInterfaceSharedPtr ParseWithUrdfdom(const std::string& path, const std::string& xml) {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  CapturingHandler handler;
  console_bridge::useOutputHandler(&handler);
  urdf::ModelInterfaceSharedPtr model;
  std::string exception;
  try {
    model = urdf::parseURDF(xml);
  } catch (const std::exception& e) {
    exception = e.what();
  }
  console_bridge::restorePreviousOutputHandler();
  if (!model || handler.has_error()) {
    std::string detail = handler.messages();
    if (!exception.empty()) detail += (detail.empty() ? "" : "; ") + exception;
    throw ParseError(path, "", "urdfdom rejected the robot description" +
                                   (detail.empty() ? std::string(" (no detail given)")
                                                   : ": " + detail));
  }
  return model;
}

SE3 ToSE3(const urdf::Pose& pose) {
  const Quat quat(pose.rotation.w, pose.rotation.x, pose.rotation.y, pose.rotation.z);
  const Vec3 p(pose.position.x, pose.position.y, pose.position.z);
  // urdfdom normalises rpy-built quaternions; guard against a degenerate explicit one.
  const Mat3 R = quat.norm() > 0.0 ? quat.normalized().toRotationMatrix() : Mat3::Identity();
  return SE3(R, p);
}

Vec3 ToVec3(const urdf::Vector3& v) { return Vec3(v.x, v.y, v.z); }

// Shortest text that reads back as x ("0.1", "-1", "nan").
std::string FormatNumber(double x) { return fmt::format("{}", x); }

// A mesh filename: package://NAME/rel through the PackageResolver (package_paths.h); file://
// URIs; paths relative to the URDF folder.
PackageResolver::Result ResolveMeshPath(const std::string& filename, const fs::path& urdf_dir,
                                        PackageResolver* packages) {
  const std::string kPackage = "package://", kFile = "file://";
  if (filename.rfind(kPackage, 0) == 0) return packages->Resolve(filename);
  if (filename.rfind(kFile, 0) == 0) return {filename.substr(kFile.size()), ""};
  const fs::path p(filename);
  return {p.is_absolute() ? p.string() : (urdf_dir / p).string(), ""};
}

class UrdfBuilder {
 public:
  UrdfBuilder(std::string path, const UrdfOptions& options, const tinyxml2::XMLDocument& doc)
      : path_(std::move(path)),
        options_(options),
        urdf_dir_(fs::path(path_).parent_path()),
        packages_(options.packages, urdf_dir_) {
    // Children are visited in the order their joints appear in the file (urdfdom keeps joints
    // in a name-sorted map), so body indices follow the author's order.
    int order = 0;
    if (const tinyxml2::XMLElement* robot = doc.FirstChildElement("robot")) {
      for (auto* j = robot->FirstChildElement("joint"); j; j = j->NextSiblingElement("joint")) {
        if (const char* name = j->Attribute("name")) joint_order_.emplace(name, order++);
      }
    }
  }

  Scene Build(const urdf::ModelInterface& urdf) {
    scene_.name = urdf.getName();
    scene_.source = path_;
    urdf::LinkConstSharedPtr root = urdf.getRoot();
    if (!root) throw ParseError(path_, "", "the robot has no root link");
    // A massless root named "world" stands for the world itself (a common URDF idiom).
    if (root->name == "world" && !root->inertial) {
      if (!root->collision_array.empty()) AddColliders(*root, kWorldBody, SE3::Identity());
      for (const auto& joint : SortedChildJoints(*root)) {
        VisitLink(urdf, *urdf.getLink(joint->child_link_name), joint.get(), kWorldBody,
                  SE3::Identity());
      }
    } else {
      VisitLink(urdf, *root, nullptr, kWorldBody, SE3::Identity());
    }
    ValidateLoadedScene(scene_, path_, elements_);
    return std::move(scene_);
  }

 private:
  std::vector<urdf::JointSharedPtr> SortedChildJoints(const urdf::Link& link) const {
    std::vector<urdf::JointSharedPtr> joints = link.child_joints;
    auto rank = [this](const urdf::JointSharedPtr& j) {
      const auto it = joint_order_.find(j->name);
      return it == joint_order_.end() ? static_cast<int>(joint_order_.size()) : it->second;
    };
    std::stable_sort(joints.begin(), joints.end(),
                     [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
    return joints;
  }

  // Adds `link` as a body under `parent` (joint == nullptr for the root link). X_PcPl maps the
  // parent's URDF link frame into the parent body's frame (they differ only below planar
  // joints whose normal is not z).
  void VisitLink(const urdf::ModelInterface& urdf, const urdf::Link& link,
                 const urdf::Joint* joint, int parent, const SE3& X_PcPl) {
    const std::string where = "link '" + link.name + "'";
    JointModel jm;
    SE3 X_BL;  // URDF link frame in our body frame
    if (joint == nullptr) {
      jm.type = options_.floating_base ? JointType::kFree : JointType::kFixed;
      jm.name = link.name + "_root";
    } else {
      jm = ConvertJoint(*joint, X_PcPl, &X_BL);
    }
    SpatialInertia inertia;
    if (link.inertial) {
      const urdf::Inertial& in = *link.inertial;
      Mat3 I;
      I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
      // The file's own numbers first, so that the message quotes them.
      if (std::string problem = ValidateInertia(SpatialInertia(in.mass, Vec3::Zero(), I));
          !problem.empty()) {
        throw ParseError(path_, where + " / inertial", problem);
      }
      const SE3 X_LI = ToSE3(in.origin);  // inertial frame in the link frame
      inertia = SpatialInertia(in.mass, Vec3::Zero(), I).Transformed(X_BL * X_LI);
    }
    int body = 0;
    try {
      body = scene_.model.AddBody(link.name, parent, jm, inertia);
    } catch (const InvalidArgument& e) {
      throw ParseError(path_, where, e.what());
    }
    elements_.body.push_back(where);
    elements_.inertia.push_back(where + " / inertial");
    elements_.joint.push_back(joint == nullptr ? where + " (the root link's " +
                                                     std::string(ToString(jm.type)) + " joint)"
                                               : "joint '" + joint->name + "'");
    AddColliders(link, body, X_BL);
    for (const auto& child_joint : SortedChildJoints(link)) {
      urdf::LinkConstSharedPtr child = urdf.getLink(child_joint->child_link_name);
      if (!child) {
        throw ParseError(path_, "joint '" + child_joint->name + "'",
                         "child link '" + child_joint->child_link_name + "' does not exist");
      }
      VisitLink(urdf, *child, child_joint.get(), body, X_BL);
    }
  }

  JointModel ConvertJoint(const urdf::Joint& joint, const SE3& X_PcPl, SE3* X_BL) const {
    const std::string where = "joint '" + joint.name + "'";
    JointModel jm;
    jm.name = joint.name;
    jm.placement = X_PcPl * ToSE3(joint.parent_to_joint_origin_transform);
    *X_BL = SE3::Identity();
    const Vec3 axis = ToVec3(joint.axis);
    auto unit_axis = [&]() -> Vec3 {
      if (!(axis.norm() > 1e-12) || !axis.allFinite()) {
        throw ParseError(path_, where + " / axis",
                         "axis (" + FormatNumber(axis.x()) + ", " + FormatNumber(axis.y()) + ", " +
                             FormatNumber(axis.z()) + ") must be a finite non-zero vector");
      }
      return axis.normalized();
    };
    switch (joint.type) {
      case urdf::Joint::REVOLUTE:
      case urdf::Joint::CONTINUOUS:
        jm.type = JointType::kRevolute;
        jm.axis = unit_axis();
        break;
      case urdf::Joint::PRISMATIC:
        jm.type = JointType::kPrismatic;
        jm.axis = unit_axis();
        break;
      case urdf::Joint::FIXED:
        jm.type = JointType::kFixed;
        break;
      case urdf::Joint::FLOATING:
        jm.type = JointType::kFree;
        break;
      case urdf::Joint::PLANAR: {
        // Our planar joint moves in J's xy-plane; rotate J so that its z is the URDF normal.
        // The child body frame then differs from the URDF link frame by that rotation.
        jm.type = JointType::kPlanar;
        const Mat3 R_JJz = Quat::FromTwoVectors(Vec3::UnitZ(), unit_axis()).toRotationMatrix();
        jm.placement = jm.placement * SE3::FromRotation(R_JJz);
        *X_BL = SE3::FromRotation(R_JJz.transpose());
        break;
      }
      default:
        throw ParseError(path_, where, "unknown joint type");
    }
    if (joint.mimic) {
      throw ParseError(path_, where + " / mimic",
                       "mimic joints (a coupling constraint) are not supported");
    }
    if (jm.nv() == 1) {
      if (joint.limits) {
        if (joint.type != urdf::Joint::CONTINUOUS) {
          jm.lower = joint.limits->lower;
          jm.upper = joint.limits->upper;
          if (jm.lower > jm.upper) {
            throw ParseError(path_, where + " / limit", "lower limit " + FormatNumber(jm.lower) +
                                                            " exceeds upper limit " +
                                                            FormatNumber(jm.upper));
          }
        }
        // URDF requires effort and velocity; zero (or absent) means "not given" here.
        for (const auto& [value, what] : {std::pair{joint.limits->effort, "effort"},
                                          std::pair{joint.limits->velocity, "velocity"}}) {
          if (!(value >= 0.0) || !std::isfinite(value)) {
            throw ParseError(path_, where + " / limit / " + what,
                             std::string(what) + " limit " + FormatNumber(value) +
                                 " must be finite and >= 0 (0: no limit)");
          }
        }
        if (joint.limits->effort > 0.0) jm.effort_limit = joint.limits->effort;
        if (joint.limits->velocity > 0.0) jm.velocity_limit = joint.limits->velocity;
      }
      if (joint.dynamics) {
        // friction is read (and must be valid) but not modelled (loader.h).
        for (const auto& [value, what] : {std::pair{joint.dynamics->damping, "damping"},
                                          std::pair{joint.dynamics->friction, "friction"}}) {
          if (!(value >= 0.0) || !std::isfinite(value)) {
            throw ParseError(path_, where + " / dynamics / " + what,
                             std::string(what) + " " + FormatNumber(value) +
                                 " must be finite and >= 0");
          }
        }
        jm.damping = joint.dynamics->damping;
      }
    }
    return jm;
  }

  void AddColliders(const urdf::Link& link, int body, const SE3& X_BL) {
    int k = 0;
    for (const auto& collision : link.collision_array) {
      const std::string where = "link '" + link.name + "' / collision " + std::to_string(k);
      if (!collision->geometry) throw ParseError(path_, where, "collision without geometry");
      Collider c;
      c.name = !collision->name.empty() ? collision->name
               : link.collision_array.size() == 1 ? link.name
                                                  : link.name + "/" + std::to_string(k);
      ++k;
      c.body = body;
      c.placement = X_BL * ToSE3(collision->origin);
      c.friction = options_.friction;
      const urdf::Geometry& g = *collision->geometry;
      static const char* kGeometry[] = {"sphere", "box", "cylinder", "mesh"};
      const std::string element =
          where + (g.type >= 0 && g.type <= 3 ? std::string(" / ") + kGeometry[g.type] : "");
      switch (g.type) {
        case urdf::Geometry::SPHERE:
          c.shape = Sphere{static_cast<const urdf::Sphere&>(g).radius};
          break;
        case urdf::Geometry::BOX:
          c.shape = Box{0.5 * ToVec3(static_cast<const urdf::Box&>(g).dim)};
          break;
        case urdf::Geometry::CYLINDER: {
          const auto& cyl = static_cast<const urdf::Cylinder&>(g);
          c.shape = Cylinder{cyl.radius, 0.5 * cyl.length};
          break;
        }
        case urdf::Geometry::MESH: {
          if (!options_.load_meshes) continue;
          const auto& mesh = static_cast<const urdf::Mesh&>(g);
          c.shape = LoadMeshCached(mesh.filename, ToVec3(mesh.scale), where);
          break;
        }
        default:
          throw ParseError(path_, where, "unsupported geometry type");
      }
      scene_.colliders.push_back(std::move(c));
      elements_.collider.push_back(element);
    }
  }

  TriangleMesh LoadMeshCached(const std::string& filename, const Vec3& scale,
                              const std::string& where) {
    const PackageResolver::Result found = ResolveMeshPath(filename, urdf_dir_, &packages_);
    const std::string element = where + " / mesh '" + filename + "'";
    if (found.path.empty()) throw ParseError(path_, element, found.problem);
    const std::string& resolved = found.path;
    const auto key = std::make_tuple(resolved, scale.x(), scale.y(), scale.z());
    if (auto it = meshes_.find(key); it != meshes_.end()) return it->second;
    try {
      TriangleMesh mesh = LoadMesh(resolved, scale);
      meshes_.emplace(key, mesh);
      return mesh;
    } catch (const ParseError& e) {
      // e names the mesh file; relative paths are resolved from the URDF's folder.
      throw ParseError(path_, element, e.what());
    } catch (const Error& e) {
      throw ParseError(path_, element, e.what());
    }
  }

  std::string path_;
  UrdfOptions options_;
  fs::path urdf_dir_;
  PackageResolver packages_;
  std::map<std::string, int> joint_order_;
  std::map<std::tuple<std::string, double, double, double>, TriangleMesh> meshes_;
  Scene scene_;
  SourceElements elements_;
};

}  // namespace

std::string UrdfOptions::Validate() const {
  if (!(friction >= 0.0) || !std::isfinite(friction)) return "friction must be finite and >= 0";
  return packages.Validate();
}

Scene LoadUrdf(const std::string& path, const UrdfOptions& options) {
  const std::string xml = ReadTextFile(path);
  if (xml.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw ParseError(path, "", "the file contains only white space; expected a URDF <robot>");
  }
  tinyxml2::XMLDocument doc;
  if (doc.Parse(xml.c_str(), xml.size()) != tinyxml2::XML_SUCCESS) {
    throw ParseError(path, "line " + std::to_string(doc.ErrorLineNum()),
                     std::string("malformed XML: ") + doc.ErrorStr());
  }
  if (!doc.FirstChildElement("robot")) {
    throw ParseError(path, "", "no <robot> root element (not a URDF file)");
  }
  if (const std::string error = options.Validate(); !error.empty()) {
    throw InvalidArgument("UrdfOptions: " + error);
  }
  urdf::ModelInterfaceSharedPtr urdf = ParseWithUrdfdom(path, xml);
  return UrdfBuilder(path, options, doc).Build(*urdf);
}

}  // namespace arena
