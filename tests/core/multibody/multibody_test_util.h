// Shared helpers of the multibody tests (header-only, so that only the multibody test binary
// depends on the multibody library): seeded random trees mixing every joint type, random
// states, and finite-difference Jacobians taken on the configuration manifold.
#pragma once

#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/math/so3.h"
#include "core/multibody/configuration.h"
#include "core/multibody/model.h"
#include "solvers/finite_difference.h"

namespace arena::testing {

/// Number of random samples of a test: `base`, times ARENA_SOAK when that variable is a
/// positive integer (soak runs).
inline int NumSamples(int base) {
  const char* soak = std::getenv("ARENA_SOAK");
  if (soak == nullptr) return base;
  const int factor = std::atoi(soak);
  return factor > 1 ? base * factor : base;
}

inline double Uniform(std::mt19937_64& rng, double lo, double hi) {
  return lo + (hi - lo) * (static_cast<double>(rng() >> 11) * 0x1.0p-53);
}

inline Vec3 RandomVec3(std::mt19937_64& rng, double half_width) {
  return Vec3(Uniform(rng, -half_width, half_width), Uniform(rng, -half_width, half_width),
              Uniform(rng, -half_width, half_width));
}

inline VecX RandomVec(std::mt19937_64& rng, int n, double half_width = 1.0) {
  VecX x(n);
  for (int i = 0; i < n; ++i) x[i] = Uniform(rng, -half_width, half_width);
  return x;
}

inline Vec3 RandomUnit(std::mt19937_64& rng) {
  Vec3 a;
  do {
    a = RandomVec3(rng, 1.0);
  } while (a.norm() < 0.1 || a.norm() > 1.0);
  return a.normalized();
}

inline Mat3 RandomRotation(std::mt19937_64& rng) { return ExpSO3(RandomVec3(rng, 3.14)); }

inline SE3 RandomPose(std::mt19937_64& rng, double half_width = 0.5) {
  return SE3(RandomRotation(rng), RandomVec3(rng, half_width));
}

/// A physically valid inertia: I_c = tr(Sigma) 1 - Sigma for a random positive second-moment
/// matrix Sigma (so the triangle inequalities hold), randomly rotated.
inline SpatialInertia RandomInertia(std::mt19937_64& rng, double mass) {
  const Vec3 s(Uniform(rng, 0.005, 0.05), Uniform(rng, 0.005, 0.05), Uniform(rng, 0.005, 0.05));
  const Mat3 Sigma = mass * s.asDiagonal();
  const Mat3 R = RandomRotation(rng);
  const Mat3 I = R * (Sigma.trace() * Mat3::Identity() - Sigma) * R.transpose();
  return SpatialInertia(mass, RandomVec3(rng, 0.2), I);
}

inline JointModel MakeJoint(JointType type, const SE3& placement, const Vec3& axis = Vec3::UnitZ(),
                            double armature = 0.0) {
  JointModel j;
  j.type = type;
  j.name = std::string(ToString(type));
  j.placement = placement;
  j.axis = axis;
  j.armature = armature;
  return j;
}

struct RandomTreeOptions {
  int num_bodies = 10;
  bool free_root = true;     // body 0 on a free joint; otherwise a random non-free joint
  bool allow_forest = true;  // a later body may also hang from the world
  bool armature = true;      // random armature on 1-DOF joints
};

/// Seeded random tree: the first bodies below the root cycle through ball, planar, revolute,
/// prismatic and fixed so that every joint type appears; later types and parents are random.
inline MultibodyModel RandomTree(std::uint64_t seed, const RandomTreeOptions& o = {}) {
  std::mt19937_64 rng(seed);
  const JointType kTypes[] = {JointType::kBall, JointType::kPlanar, JointType::kRevolute,
                              JointType::kPrismatic, JointType::kFixed};
  MultibodyModel model;
  for (int i = 0; i < o.num_bodies; ++i) {
    JointType type;
    if (i == 0) {
      type = o.free_root ? JointType::kFree : kTypes[rng() % 4];
    } else if (i <= 5) {
      type = kTypes[i - 1];
    } else {
      type = kTypes[rng() % 5];
    }
    int parent = i == 0 ? kWorldBody : static_cast<int>(rng() % i);
    if (i > 0 && o.allow_forest && rng() % 10 == 0) parent = kWorldBody;
    const bool one_dof = type == JointType::kRevolute || type == JointType::kPrismatic;
    const double armature_draw = Uniform(rng, 0.0, 0.1);  // drawn always: same tree either way
    const double armature = o.armature && one_dof ? armature_draw : 0.0;
    const JointModel joint = MakeJoint(type, RandomPose(rng), RandomUnit(rng), armature);
    model.AddBody("b" + std::to_string(i), parent, joint,
                  RandomInertia(rng, Uniform(rng, 0.5, 2.0)));
  }
  return model;
}

/// RandomTree with each revolute and prismatic axis turned onto a coordinate axis of its joint
/// frame, +-e_k at random, and half of those joint frames not rotated in their parent (URDF
/// robots mostly look like this; the multibody algorithms have fast paths for revolute joints
/// about +-e_k, and for R_PJ = 1, that RandomTree's random axes and poses never take).
inline MultibodyModel CoordinateAxisTree(std::uint64_t seed, const RandomTreeOptions& o = {}) {
  const MultibodyModel random = RandomTree(seed, o);
  std::mt19937_64 rng(seed + 1);
  MultibodyModel model;
  for (const BodyModel& b : random.bodies()) {
    JointModel joint = b.joint;
    if (joint.type == JointType::kRevolute || joint.type == JointType::kPrismatic) {
      joint.axis = Vec3::Unit(static_cast<int>(rng() % 3)) * (rng() % 2 == 0 ? 1.0 : -1.0);
      if (rng() % 2 == 0) joint.placement.rotation().setIdentity();
    }
    model.AddBody(b.name, b.parent, joint, b.inertia);
  }
  return model;
}

/// Random wrench per body (world frame, about the world origin).
// A random tree with a random state on it, and the generator for whatever else the test draws:
// auto [model, q, v, rng] = RandomTreeSample(tree_seed, state_seed).
struct TreeSample {
  MultibodyModel model;
  VecX q, v;
  std::mt19937_64 rng;
};
inline TreeSample RandomTreeSample(std::uint64_t tree_seed, std::uint64_t state_seed, const RandomTreeOptions& o = {}) {
  TreeSample t{RandomTree(tree_seed, o), VecX(), VecX(), std::mt19937_64(state_seed)};
  t.q = RandomConfiguration(t.model, t.rng);
  t.v = RandomVec(t.rng, t.model.nv());
  return t;
}

inline std::vector<Force> RandomWrenches(std::mt19937_64& rng, int num_bodies) {
  std::vector<Force> f(num_bodies);
  for (auto& w : f) w = RandomVec(rng, 6, 2.0);
  return f;
}

/// Ridders options for derivative checks: the initial step is small enough for every joint
/// group's chart (angles well below pi).
inline FdOptions RiddersOptions() {
  FdOptions o;
  o.method = FdMethod::kRidders;
  o.ridders_step = 1e-2;
  return o;
}

inline FdOptions CentralOptions(double step = 1e-6) {
  FdOptions o;
  o.method = FdMethod::kCentral;
  o.step = step;
  return o;
}

/// Jacobian of y(q) w.r.t. tangent perturbations q -> Integrate(q, dq) (Pinocchio's convention).
inline MatX FdWrtQ(const MultibodyModel& model, const VecX& q,
                   const std::function<VecX(const VecX&)>& y, const FdOptions& o) {
  const LocalFunction f = [&](const VecX& dq) { return y(Integrate(model, q, dq)); };
  return FiniteDifferenceJacobian(f, model.nv(), o).jacobian;
}

/// Jacobian of y(x) for x in a vector space.
inline MatX FdWrtVector(const VecX& x, const std::function<VecX(const VecX&)>& y,
                        const FdOptions& o) {
  const LocalFunction f = [&](const VecX& dx) { return y(x + dx); };
  return FiniteDifferenceJacobian(f, static_cast<int>(x.size()), o).jacobian;
}

/// A tree with massless intermediate bodies, as MJCF bodies with several joints produce: a
/// universal joint (two hinges at one point) ending in a massive arm, and a prismatic-then-ball
/// slider ending in a massive ball, on a free base.
inline MultibodyModel MasslessChainTree(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  MultibodyModel model;
  const SpatialInertia none(0.0, Vec3::Zero(), Mat3::Zero());
  const int root = model.AddBody("base", kWorldBody, MakeJoint(JointType::kFree, SE3()),
                                 RandomInertia(rng, 2.0));
  const int u1 = model.AddBody(
      "u1", root, MakeJoint(JointType::kRevolute, RandomPose(rng), Vec3::UnitX()), none);
  const int u2 =
      model.AddBody("u2", u1, MakeJoint(JointType::kRevolute, SE3(), Vec3::UnitY()), none);
  model.AddBody("arm", u2, MakeJoint(JointType::kRevolute, SE3(), Vec3::UnitZ()),
                RandomInertia(rng, 1.0));
  const int p = model.AddBody(
      "slider", root, MakeJoint(JointType::kPrismatic, RandomPose(rng), RandomUnit(rng)), none);
  model.AddBody("ball", p, MakeJoint(JointType::kBall, SE3()), RandomInertia(rng, 0.5));
  return model;
}

}  // namespace arena::testing
