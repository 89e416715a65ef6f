#include "models/step_validity.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "models/message_number.h"
#include "core/geometry/convex_hull.h"
#include "core/geometry/mass_properties.h"
#include "core/geometry/mesh.h"
#include "core/geometry/signed_distance.h"
#include "core/geometry/support.h"
#include "core/multibody/kinematics.h"
#include "core/scene/actuation.h"

namespace arena {

namespace {

std::string BodyName(const Scene& scene, int body) {
  if (body == kWorldBody) return "world";
  const std::string& name = scene.model.body(body).name;
  return "body '" + (name.empty() ? std::to_string(body) : name) + "'";
}

std::string ColliderName(const Scene& scene, int c) {
  const std::string& name = scene.colliders[c].name;
  return "'" + (name.empty() ? std::to_string(c) : name) + "'";
}

bool IsHalfSpace(ShapeType t) { return t == ShapeType::kHalfSpace || t == ShapeType::kHalfPlane2; }

// A mesh is measured as the convex hull of its vertices (signed_distance.h): exact only for a
// closed mesh that is its own hull.
bool MeasuredExactly(const Shape& shape) {
  if (TypeOf(shape) != ShapeType::kMesh) return true;
  const TriangleMesh& mesh = std::get<TriangleMesh>(shape);
  if (!IsClosed(*mesh.data)) return false;
  const double hull = Volume(Shape{ConvexHullOfMesh(mesh)});
  return hull > 0.0 && Volume(shape) >= (1.0 - 1e-6) * hull;
}

// The collider's box in its body's frame (the world's for world colliders); empty for half-spaces.
Aabb BodyFrameBox(const Collider& c) {
  if (IsHalfSpace(TypeOf(c.shape))) return Aabb{};
  return ComputeAabb(c.shape, c.placement);
}

}  // namespace

StepValidity::StepValidity(const Scene& scene, const StepValidityOptions& options, double penetration_allowance,
                           double contact_reach)
    : scene_(scene), options_(options), contact_reach_(std::max(contact_reach, 0.0)), data_(scene.model) {
  penetration_fraction_ = options.max_penetration > 0.0 ? options.max_penetration : penetration_allowance;
  gravity_ = scene.model.gravity().norm();
  const int nb = scene.model.num_bodies();
  moving_.assign(nb, false);
  for (int i = 0; i < nb; ++i) {
    const BodyModel& b = scene.model.body(i);
    moving_[i] = b.joint.nv() > 0 || (b.parent != kWorldBody && moving_[b.parent]);
    if (moving_[i]) moving_mass_ += b.inertia.mass();
  }
  body_radius_.assign(nb, 0.0);
  gyration_.assign(nb, 0.0);
  for (int i = 0; i < nb; ++i) {
    const SpatialInertia& I = scene.model.body(i).inertia;
    gyration_[i] = I.mass() > 0.0 ? std::sqrt(std::max(0.0, I.inertia_com().trace()) / (2.0 * I.mass())) : 0.0;
    body_radius_[i] = I.com().norm() + gyration_[i];
  }
  const int nc = static_cast<int>(scene.colliders.size());
  collider_radius_.assign(nc, std::numeric_limits<double>::infinity());
  collider_center_.assign(nc, Vec3::Zero());
  for (int k = 0; k < nc; ++k) {
    const Collider& c = scene.colliders[k];
    const Aabb box = BodyFrameBox(c);
    if (!box.IsBounded()) continue;
    collider_center_[k] = 0.5 * (box.lower + box.upper);
    collider_radius_[k] = 0.5 * (box.upper - box.lower).norm();
    if (c.body != kWorldBody) {
      body_radius_[c.body] = std::max(body_radius_[c.body], collider_center_[k].norm() + collider_radius_[k]);
      if (moving_[c.body] && (smallest_radius_ == 0.0 || collider_radius_[k] < smallest_radius_)) {
        smallest_radius_ = collider_radius_[k];
      }
    }
  }
  std::vector<bool> exact(nc);
  for (int k = 0; k < nc; ++k) exact[k] = MeasuredExactly(scene.colliders[k].shape);
  for (const auto& [a, b] : scene.CollisionPairs()) {
    const Collider& A = scene.colliders[a];
    const Collider& B = scene.colliders[b];
    if (A.body == kWorldBody && B.body == kWorldBody) continue;
    const ShapeType ta = TypeOf(A.shape), tb = TypeOf(B.shape);
    if (!SupportsSignedDistance(ta, tb)) continue;
    const bool plane = IsHalfSpace(ta) || IsHalfSpace(tb);
    if (plane || (exact[a] && exact[b])) checked_pairs_.emplace_back(a, b);
  }
}

// --- Energy -----------------------------------------------------------------------------------

double StepValidity::BodyEnergy(int body) const {
  const SpatialInertia& I = scene_.model.body(body).inertia;
  const Motion& V = data_.V_B[body];
  return 0.5 * V.dot(I * V) - I.mass() * scene_.model.gravity().dot(data_.X_WB[body].Act(I.com()));
}

double StepValidity::PointSpeed(int body) const {
  const Motion& V = data_.V_B[body];
  return Linear(V).norm() + Angular(V).norm() * body_radius_[body];
}

namespace {
// 1/2 k (q - q_ref)^2 of the 1-DOF joints' springs (PassiveForces' stiffness).
double SpringEnergy(const Scene& scene, const VecX& q) {
  double e = 0.0;
  for (const BodyModel& b : scene.model.bodies()) {
    if (b.joint.stiffness > 0.0 && b.joint.nq() == 1) {
      const double x = q[b.idx_q] - b.joint.spring_reference;
      e += 0.5 * b.joint.stiffness * x * x;
    }
  }
  return e;
}
}  // namespace

// The actuators' work over the step, tau . v dt at the step's mean velocity. An explicit model
// applies the start's forces, an implicit one (a stiff velocity servo) nearer the end's: the
// larger estimate is taken, so the check gives the model the benefit of the doubt.
double StepValidity::ActuatorWork(const State& before, const Control& control, const State& after, double dt) {
  if (scene_.actuators.empty()) return 0.0;
  const VecX v_mid = 0.5 * (before.v + after.v);
  const double w0 = ActuatorForces(scene_, before, control).dot(v_mid) * dt;
  const double w1 = ActuatorForces(scene_, after, control).dot(v_mid) * dt;
  return std::max(w0, w1);
}

StepValidity::Trajectory StepValidity::Start(const State& state, double dt) {
  Trajectory t;
  t.active = true;
  t.last = state;
  t.start_time = state.t;
  ForwardKinematics(scene_.model, data_, state.q, state.v);
  const int nb = scene_.model.num_bodies();
  t.start_body_energy.resize(nb);
  Aabb box;
  for (int i = 0; i < nb; ++i) {
    t.start_body_energy[i] = BodyEnergy(i);
    t.start_energy += t.start_body_energy[i];
    const Motion& V = data_.V_B[i];
    t.start_kinetic += 0.5 * V.dot(scene_.model.body(i).inertia * V);
    if (moving_[i]) t.start_speed = std::max(t.start_speed, PointSpeed(i));
    if (moving_[i]) {  // a body without colliders (a pendulum's link) still has a size
      const Vec3 com = data_.X_WB[i].Act(scene_.model.body(i).inertia.com());
      box.Extend(com.array() - gyration_[i]);
      box.Extend(com.array() + gyration_[i]);
    }
  }
  t.start_energy += SpringEnergy(scene_, state.q);
  t.last_origin.resize(nb);
  for (int i = 0; i < nb; ++i) t.last_origin[i] = data_.X_WB[i].translation();
  for (size_t k = 0; k < scene_.colliders.size(); ++k) {
    const Collider& c = scene_.colliders[k];
    if (!std::isfinite(collider_radius_[k])) continue;
    const SE3 pose = c.body == kWorldBody ? c.placement : data_.X_WB[c.body] * c.placement;
    const Aabb b = ComputeAabb(c.shape, pose);
    box.Extend(b.lower);
    box.Extend(b.upper);
  }
  t.extent = box.IsBounded() ? (box.upper - box.lower).norm() : 0.0;
  t.push_speed = 2.0 * penetration_fraction_ * smallest_radius_ / dt;
  const double creep = 1e-3 * t.extent / dt;
  t.energy_floor = 0.5 * moving_mass_ * creep * creep;
  // One pass over the pairs gives both the start's overlaps and how deep each pair is inside the
  // model's reach (the same for a model without one).
  PairDistances(contact_reach_, &distance_);
  t.start_overlap.assign(checked_pairs_.size(), 0.0);
  for (size_t p = 0; p < checked_pairs_.size(); ++p) {
    t.start_overlap[p] = std::max(0.0, -distance_[p]);
    const double d = std::max(0.0, contact_reach_ - distance_[p]);
    if (d == 0.0) continue;
    const auto [a, b] = checked_pairs_[p];
    double m = 0.0;
    for (int body : {scene_.colliders[a].body, scene_.colliders[b].body}) {
      if (body != kWorldBody && moving_[body]) m += scene_.model.body(body).inertia.mass();
    }
    t.stored_energy += 2.0 * m * (d / dt) * (d / dt);
    t.stored_speed = std::max(t.stored_speed, 2.0 * d / dt);
  }
  return t;
}

StepValidity::Trajectory& StepValidity::Continue(const State& before, double dt) {
  auto same = [&](const State& s) { return s.t == before.t && s.q == before.q && s.v == before.v; };
  if (!main_.active) {
    main_ = Start(before, dt);
    return main_;
  }
  if (same(main_.last)) return main_;
  if (probe_.active && same(probe_.last)) {
    std::swap(main_, probe_);  // the probe went on: it is the trajectory now
    return main_;
  }
  probe_ = Start(before, dt);
  return probe_;
}

std::string StepValidity::CheckEnergy(const Trajectory& t, const State& after) {
  const int nb = scene_.model.num_bodies();
  double energy = SpringEnergy(scene_, after.q);
  for (int i = 0; i < nb; ++i) energy += BodyEnergy(i);
  const double scale = t.start_kinetic + moving_mass_ * gravity_ * t.extent + t.absolute_work;
  const double gain = energy - t.start_energy - t.work;
  const double bound = options_.max_energy_gain * scale + t.stored_energy + t.energy_floor;
  if (gain <= bound) return "";
  int worst = 0;
  double worst_gain = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < nb; ++i) {
    const double g = BodyEnergy(i) - t.start_body_energy[i];
    if (g > worst_gain) worst_gain = g, worst = i;
  }
  return "energy: the scene gained " + MessageNumber(gain) + " J beyond the actuators' work since t = " + MessageNumber(t.start_time) +
         " s (most: " + BodyName(scene_, worst) + ", " + MessageNumber(worst_gain) + " J); bound " + MessageNumber(bound) + " J = " +
         MessageNumber(options_.max_energy_gain) + " x the energy scale " + MessageNumber(scale) + " J" +
         (t.stored_energy > 0.0 ? " + " + MessageNumber(t.stored_energy) + " J the start's overlaps may store" : "");
}

// After ForwardKinematics(q+, v+) on data_; t.last_origin still holds the step's start.
std::string StepValidity::CheckSpeed(const Trajectory& t, const State& after, double dt) {
  const double scale = t.start_speed + std::sqrt(2.0 * gravity_ * t.extent);
  const double fall = gravity_ * (after.t - t.start_time);
  const int nb = scene_.model.num_bodies();
  for (int i = 0; i < nb; ++i) {
    if (!moving_[i]) continue;
    const double m = scene_.model.body(i).inertia.mass();
    const double driven = t.positive_work > 0.0 ? (m > 0.0 ? std::sqrt(2.0 * t.positive_work / m)
                                                           : std::numeric_limits<double>::infinity())
                                                : 0.0;
    const double bound = options_.max_speed_factor * (scale + fall + driven) + t.stored_speed + t.push_speed;
    const double speed = PointSpeed(i);
    if (speed > bound) {
      return "speed: " + BodyName(scene_, i) + " moves at " + MessageNumber(speed) + " m/s; bound " + MessageNumber(bound) +
             " m/s = " + MessageNumber(options_.max_speed_factor) + " x (the scene's speed scale " + MessageNumber(scale) +
             " m/s + gravity's " + MessageNumber(fall) + " + the actuators' " + MessageNumber(driven) +
             ") + a contact's push " + MessageNumber(t.stored_speed + t.push_speed);
    }
    // The origin may not move farther than the speed bound allows over the step, plus the
    // reach of a rotation (a body spinning about its centre of mass moves its origin too).
    const double moved = (data_.X_WB[i].translation() - t.last_origin[i]).norm();
    const double reach = bound * dt + 2.0 * body_radius_[i];
    if (moved > reach) {
      return "displacement: " + BodyName(scene_, i) + " moved " + MessageNumber(moved) + " m in one step of " + MessageNumber(dt) +
             " s; bound " + MessageNumber(reach) + " m (the speed bound times the step + its diameter)";
    }
  }
  return "";
}

void StepValidity::SkipPenetrationOf(const std::vector<std::string>& collider_names) {
  auto named = [&](int k) {
    return std::find(collider_names.begin(), collider_names.end(), scene_.colliders[k].name) != collider_names.end();
  };
  checked_pairs_.erase(std::remove_if(checked_pairs_.begin(), checked_pairs_.end(),
                                      [&](const std::pair<int, int>& p) { return named(p.first) || named(p.second); }),
                       checked_pairs_.end());
}

double StepValidity::OverlapBound(int pair) const {
  const auto [a, b] = checked_pairs_[pair];
  return penetration_fraction_ * std::min(collider_radius_[a], collider_radius_[b]);  // a half-space's is infinite
}

void StepValidity::PairDistances(double reach, std::vector<double>* distance) {
  auto center = [&](int k) {
    const Collider& c = scene_.colliders[k];
    return c.body == kWorldBody ? collider_center_[k] : data_.X_WB[c.body].Act(collider_center_[k]);
  };
  auto pose = [&](int k) {
    const Collider& c = scene_.colliders[k];
    return c.body == kWorldBody ? c.placement : data_.X_WB[c.body] * c.placement;
  };
  distance->assign(checked_pairs_.size(), std::numeric_limits<double>::infinity());
  for (size_t p = 0; p < checked_pairs_.size(); ++p) {
    const auto [a, b] = checked_pairs_[p];
    const double ra = collider_radius_[a], rb = collider_radius_[b];
    if (std::isfinite(ra) && std::isfinite(rb) && (center(a) - center(b)).norm() > ra + rb + reach) continue;
    (*distance)[p] = SignedDistance(scene_.colliders[a].shape, pose(a), scene_.colliders[b].shape, pose(b)).distance;
  }
}

// After ForwardKinematics(q+) on data_.
std::string StepValidity::CheckPenetration(const Trajectory& t) {
  PairDistances(0.0, &distance_);
  for (size_t p = 0; p < checked_pairs_.size(); ++p) {
    const double bound = OverlapBound(p) + t.start_overlap[p];
    const double overlap = std::max(0.0, -distance_[p]);
    if (overlap <= bound) continue;
    const auto [a, b] = checked_pairs_[p];
    const Collider& A = scene_.colliders[a];
    const Collider& B = scene_.colliders[b];
    return "penetration: colliders " + ColliderName(scene_, a) + " (" + BodyName(scene_, A.body) + ") and " +
           ColliderName(scene_, b) + " (" + BodyName(scene_, B.body) + ") overlap by " + MessageNumber(overlap) +
           " m; bound " + MessageNumber(bound) + " m = " + MessageNumber(penetration_fraction_) +
           " x the smaller one's bounding radius" +
           (t.start_overlap[p] > 0.0 ? " + its overlap at the start" : "");
  }
  return "";
}

std::string StepValidity::Check(const State& before, const Control& control, const State& after, double dt) {
  if (!options_.check_steps) return "";
  Trajectory& t = Continue(before, dt);
  const double w = ActuatorWork(before, control, after, dt);
  t.work += w;
  t.positive_work += std::max(0.0, w);
  t.absolute_work += std::abs(w);
  t.last = after;
  // One forward kinematics of the step's end serves every check.
  ForwardKinematics(scene_.model, data_, after.q, after.v);
  std::string why = CheckSpeed(t, after, dt);
  if (why.empty()) why = CheckEnergy(t, after);
  if (why.empty()) why = CheckPenetration(t);
  for (size_t i = 0; i < t.last_origin.size(); ++i) t.last_origin[i] = data_.X_WB[i].translation();
  return why;
}

}  // namespace arena
