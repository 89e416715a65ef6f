#include "models/engines/dart/dart_simulator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <unordered_map>
#include <vector>

#include <dart/collision/CollisionFilter.hpp>
#include <dart/collision/CollisionObject.hpp>
#include <dart/collision/CollisionResult.hpp>
#include <dart/collision/dart/DARTCollisionDetector.hpp>
#include <dart/collision/fcl/FCLCollisionDetector.hpp>
#include <dart/constraint/BoxedLcpConstraintSolver.hpp>
#include <dart/constraint/PgsBoxedLcpSolver.hpp>
#include <dart/simulation/World.hpp>

#include "core/common/enum_names.h"
#include "core/common/error.h"
#include "core/scene/actuation.h"
#include "models/engines/dart/scene_to_skeleton.h"
#include "models/finite_difference_derivatives.h"

namespace arena {

namespace {

constexpr EnumNameTable<DartCollisionDetector, 2> kDetectors = {{
    {DartCollisionDetector::kFcl, "fcl"},
    {DartCollisionDetector::kDart, "dart"},
}};
constexpr EnumNameTable<DartFclShapes, 2> kFclShapes = {{
    {DartFclShapes::kMesh, "mesh"},
    {DartFclShapes::kPrimitive, "primitive"},
}};
constexpr EnumNameTable<DartLcpSolver, 2> kLcpSolvers = {{
    {DartLcpSolver::kDantzig, "dantzig"},
    {DartLcpSolver::kPgs, "pgs"},
}};

}  // namespace

std::string_view ToString(DartCollisionDetector v) { return EnumName(v, kDetectors); }
bool FromString(std::string_view text, DartCollisionDetector* v) { return ParseEnum(text, kDetectors, v); }
std::string EnumValues(DartCollisionDetector) { return EnumList(kDetectors); }
std::string_view ToString(DartFclShapes v) { return EnumName(v, kFclShapes); }
bool FromString(std::string_view text, DartFclShapes* v) { return ParseEnum(text, kFclShapes, v); }
std::string EnumValues(DartFclShapes) { return EnumList(kFclShapes); }
std::string_view ToString(DartLcpSolver v) { return EnumName(v, kLcpSolvers); }
bool FromString(std::string_view text, DartLcpSolver* v) { return ParseEnum(text, kLcpSolvers, v); }
std::string EnumValues(DartLcpSolver) { return EnumList(kLcpSolvers); }

// Every field, fd's too (VisitFields visits them), has its range.
std::string DartOptions::Validate() const { return CheckRanges(*this); }

namespace {

// Scene::CollisionPairs() decides which ShapeNodes DART tests (it replaces DART's
// BodyNodeCollisionFilter, so self-collision and adjacency follow our scene, not DART's flags).
class ColliderPairFilter final : public dart::collision::CollisionFilter {
 public:
  ColliderPairFilter(const Scene& scene,
                     const std::unordered_map<const dart::dynamics::ShapeFrame*, int>& collider_of)
      : collider_of_(collider_of), n_(static_cast<int>(scene.colliders.size())),
        allowed_(static_cast<size_t>(n_) * n_, false) {
    for (const auto& [a, b] : scene.CollisionPairs()) {
      allowed_[static_cast<size_t>(a) * n_ + b] = true;
      allowed_[static_cast<size_t>(b) * n_ + a] = true;
    }
  }

  bool ignoresCollision(const dart::collision::CollisionObject* object1,
                        const dart::collision::CollisionObject* object2) const override {
    const auto a = collider_of_.find(object1->getShapeFrame());
    const auto b = collider_of_.find(object2->getShapeFrame());
    if (a == collider_of_.end() || b == collider_of_.end()) return true;
    return !allowed_[static_cast<size_t>(a->second) * n_ + b->second];
  }

 private:
  const std::unordered_map<const dart::dynamics::ShapeFrame*, int>& collider_of_;
  int n_ = 0;
  std::vector<bool> allowed_;
};

// DART's own detector collides spheres and boxes (and the box standing in for a half-space).
bool DartDetectorSupports(ShapeType type) {
  return type == ShapeType::kSphere || type == ShapeType::kBox || type == ShapeType::kHalfSpace;
}

}  // namespace

struct DartSimulator::Engine {
  dart_engine::SceneSkeletons skeletons;
  std::shared_ptr<dart::simulation::World> world;
};

Capabilities DartSimulator::CapabilitiesFor(const DartOptions& options) {
  Capabilities c;
  c.spatial = true;
  c.articulated = true;
  for (ShapeType t : {ShapeType::kSphere, ShapeType::kBox, ShapeType::kCapsule, ShapeType::kCylinder,
                      ShapeType::kEllipsoid, ShapeType::kCone, ShapeType::kHalfSpace,
                      ShapeType::kConvexHull, ShapeType::kMesh}) {
    c.shapes.set(static_cast<size_t>(t));
  }
  (void)options;
  c.derivatives = DerivativeSource::kFiniteDifferences;  // of Step
  c.smooth = false;            // LCP contact switches on and off
  c.engine = true;
  return c;
}

DartSimulator::DartSimulator(std::shared_ptr<const Scene> scene, const DartOptions& options)
    : SimulatorBase(std::move(scene), options), engine_(std::make_unique<Engine>()) {
  if (std::string error = options_.Validate(); !error.empty()) {
    throw InvalidArgument("dart: " + error);
  }
  scene_->Validate();
  if (options_.collision_detector == DartCollisionDetector::kDart) {
    for (const Collider& c : scene_->colliders) {
      if (!DartDetectorSupports(TypeOf(c.shape))) {
        throw Unsupported("dart: collision_detector 'dart' cannot collide shape '" +
                          std::string(ToString(TypeOf(c.shape))) + "' (collider '" + c.name +
                          "'); it handles sphere, box and half_space: use collision_detector=fcl");
      }
    }
  }
  dart_engine::SkeletonOptions skeleton_options;
  skeleton_options.enforce_joint_limits = options_.joint_limits;
  engine_->skeletons = dart_engine::BuildSkeletons(*scene_, skeleton_options);

  auto world = dart::simulation::World::create(scene_->name);
  if (options_.lcp_solver == DartLcpSolver::kPgs) {
    world->setConstraintSolver(std::make_unique<dart::constraint::BoxedLcpConstraintSolver>(
        std::make_shared<dart::constraint::PgsBoxedLcpSolver>(), nullptr));
  } else {  // Dantzig with DART's PGS fallback: the default solver, made explicit
    world->setConstraintSolver(std::make_unique<dart::constraint::BoxedLcpConstraintSolver>());
  }
  // After setConstraintSolver, which copies the previous solver's detector and options.
  dart::constraint::ConstraintSolver* solver = world->getConstraintSolver();
  if (options_.collision_detector == DartCollisionDetector::kDart) {
    solver->setCollisionDetector(dart::collision::DARTCollisionDetector::create());
  } else {
    auto fcl = dart::collision::FCLCollisionDetector::create();
    fcl->setPrimitiveShapeType(options_.fcl_shapes == DartFclShapes::kMesh
                                   ? dart::collision::FCLCollisionDetector::MESH
                                   : dart::collision::FCLCollisionDetector::PRIMITIVE);
    solver->setCollisionDetector(fcl);
  }
  world->setGravity(scene_->model.gravity());
  world->setTimeStep(options_.timestep);
  for (const auto& skeleton : engine_->skeletons.skeletons) world->addSkeleton(skeleton);
  solver->getCollisionOption().collisionFilter =
      std::make_shared<ColliderPairFilter>(*scene_, engine_->skeletons.collider_of);
  engine_->world = std::move(world);
}

DartSimulator::~DartSimulator() = default;

StepReport DartSimulator::DoStep(State& state, const Control& control) {
  StepReport report;
  report.iterations = 1;  // DART reports no LCP iteration counts
  try {
    const dart_engine::SceneSkeletons& skeletons = engine_->skeletons;
    dart::simulation::World& world = *engine_->world;
    dart_engine::SetJointState(*scene_, skeletons, state);
    dart_engine::SetJointForces(*scene_, skeletons, state, ActuatorForces(*scene_, state, control));
    world.setTime(state.t);
    world.step();  // clears the joint forces afterwards

    State next = state;  // its quaternions give the signs of the ones read back
    dart_engine::GetJointState(*scene_, skeletons, &next);
    next.t = state.t + options_.timestep;

    const dart::collision::CollisionResult& contacts = world.getLastCollisionResult();
    report.contacts = static_cast<int>(contacts.getNumContacts());
    for (const auto& contact : contacts.getContacts()) {
      report.min_signed_distance = std::min(report.min_signed_distance, -contact.penetrationDepth);
    }
    if (std::string bad = FirstNonFiniteEntry(next); !bad.empty()) {
      report.status = StepStatus::kNonFinite;
      report.message = "DART's step produced a non-finite state: " + bad;
    } else {
      state = std::move(next);
      RecordContactPoints(contacts);
    }
  } catch (const std::exception& e) {
    report.status = StepStatus::kError;
    report.message = std::string("DART threw: ") + e.what();
  }
  return report;
}

// DART's contacts of the step (found at its start) with the force its contact constraint stored
// on each (impulse / dt, ContactConstraint::applyImpulse): acting on collision object 1's body,
// along a normal from object 2 to object 1.
void DartSimulator::RecordContactPoints(const dart::collision::CollisionResult& contacts) {
  step_points_.clear();
  for (const dart::collision::Contact& c : contacts.getContacts()) {
    const auto a = engine_->skeletons.collider_of.find(c.collisionObject1->getShapeFrame());
    const auto b = engine_->skeletons.collider_of.find(c.collisionObject2->getShapeFrame());
    if (a == engine_->skeletons.collider_of.end() || b == engine_->skeletons.collider_of.end()) continue;
    const Collider& A = scene_->colliders[a->second];
    const Collider& B = scene_->colliders[b->second];
    step_points_.push_back({A.body, B.body, c.point, c.normal.normalized(), -c.penetrationDepth, true, c.force,
                            std::min(A.friction, B.friction)});
  }
}

void DartSimulator::DoDerivatives(const State& state, const Control& control, StepDerivatives* out) {
  *out = FiniteDifferenceStepDerivatives(*this, state, control, options_.fd.Fd());
}

}  // namespace arena
