// Whether a step's result is physical: the check every model gets from Simulator::Step, so that no
// model reports a blown-up, tunnelled or energy-creating step as a success. MuJoCo reports the
// same class of trouble as data (mjData.warning); here a step that fails a check is taken and
// reported with StepStatus::kInvalid and a message naming the check and the body.
//
// The checks compare the step's end with the start of the trajectory it continues (a Step whose
// input is the previous Step's output continues it; any other input starts a new one), because a
// contact law may store energy for a few steps (a spring's compression) and give it back:
//   energy       the scene's kinetic + gravitational + joint-spring energy exceeds its value at the
//                trajectory's start plus the actuators' work by more than max_energy_gain times
//                the energy scale (start kinetic energy + M |g| L + the actuators' work in
//                absolute value; M the moving mass, L the diagonal of the bounded colliders' box);
//                a trajectory that starts overlapped (a state set by hand) may also get back what
//                the overlap stores: the check allows 2 m (d / dt)^2 per pair of depth d (m the
//                pair's moving mass), the energy of a push-out at 2 d / dt, the fastest a stable
//                spring (dt sqrt(k / m) < 2) or a projection within a step releases it;
//                A model whose contact acts at a distance (Simulator::contact_reach: a barrier's
//                activation distance) stores energy in a start that close too: d is then the
//                depth inside that reach. A gain below 1/2 M (1e-3 L / dt)^2, the energy of
//                moving a thousandth of the scene per step, is noise (the energy scale of a scene
//                at rest in zero gravity is 0: a relaxed contact's push of a probe is not a blow-up);
//   speed        a point of a body's colliders moves faster than max_speed_factor times the
//                scene's speed scale (the fastest point at the start + sqrt(2 |g| L)) and what
//                gravity and the actuators can add since (|g| t, sqrt(2 W+ / m)), plus what a
//                contact may push: 2 d / dt out of the start's overlaps, and 2 a / dt out of an
//                overlap the model allows (a, the penetration bound of the smallest collider);
//   displacement a body's origin moves farther in one step than that speed bound allows (a
//                teleport: a projection or a solve that jumped);
//   penetration  two colliders overlap deeper than the model's allowance times the smaller one's
//                bounding radius (beyond their overlap at the trajectory's start), measured with the project's own geometry (core/geometry/
//                signed_distance.h) on the pairs where it is exact: a half-space against anything,
//                and pairs of convex shapes (a mesh counts when it is its own convex hull).
// Every bound is an option of every model (StepValidityOptions, `--set <model>.<key>=...`).
#pragma once

#include <string>
#include <vector>

#include "models/step_validity_options.h"
#include "core/multibody/data.h"
#include "core/scene/scene.h"

namespace arena {

/// The check of one simulator (its scene and timestep). Not thread-safe: one per Simulator.
class StepValidity {
 public:
  /// `penetration_allowance`: the model's own bound (used when options.max_penetration is 0);
  /// `contact_reach` (m): how far its contact acts between colliders that do not touch.
  StepValidity(const Scene& scene, const StepValidityOptions& options, double penetration_allowance,
               double contact_reach = 0.0);

  /// "" when the step from `before` to `after` under `control` over `dt` is physical, else
  /// "<check>: <what>, <bound>". Records `after` as the end of the trajectory it continues.
  std::string Check(const State& before, const Control& control, const State& after, double dt);

  const Scene& scene() const { return scene_; }
  /// Leaves the colliders named here out of the penetration check: a model whose design moves
  /// their mesh vertices (DesignVertices) steps shapes the scene's no longer describe. Call
  /// before the first Check.
  void SkipPenetrationOf(const std::vector<std::string>& collider_names);

 private:
  // A trajectory's start and what it has done since.
  struct Trajectory {
    State last;                 // the last step's end: the next step continues it from there
    double start_time = 0.0;
    double start_energy = 0.0;
    double start_kinetic = 0.0;
    double start_speed = 0.0;   // fastest collider point at the start (m/s)
    double extent = 0.0;        // m, diagonal of the bounded colliders' box at the start
    double work = 0.0;          // the actuators' net work since the start (J)
    double positive_work = 0.0;
    double absolute_work = 0.0;
    std::vector<double> start_body_energy;  // to name the body that gained most
    std::vector<double> start_overlap;      // per checked pair: its depth at the start (m, >= 0)
    std::vector<Vec3> last_origin;          // the bodies' origins at `last`: the next step's start
    double stored_energy = 0.0;  // J, what the start's overlaps may give back (Start)
    double stored_speed = 0.0;   // m/s, likewise
    double push_speed = 0.0;     // m/s, a push out of the allowed overlap within one step
    double energy_floor = 0.0;   // J, below which a gain is round-off (a scene at rest in zero g)
    bool active = false;
  };
  Trajectory Start(const State& state, double dt);
  Trajectory& Continue(const State& before, double dt);
  double ActuatorWork(const State& before, const Control& control, const State& after, double dt);
  std::string CheckEnergy(const Trajectory& trajectory, const State& after);
  std::string CheckSpeed(const Trajectory& trajectory, const State& after, double dt);
  std::string CheckPenetration(const Trajectory& trajectory);
  // Per checked pair at data_'s pose: its signed distance where it is within `reach` of
  // touching (+inf where the bounding spheres say it is farther).
  void PairDistances(double reach, std::vector<double>* distance);
  double OverlapBound(int pair) const;
  double BodyEnergy(int body) const;  // after ForwardKinematics(q, v) on data_
  double PointSpeed(int body) const;  // likewise

  const Scene& scene_;
  StepValidityOptions options_;
  double penetration_fraction_ = 0.0;
  double contact_reach_ = 0.0;  // m
  double smallest_radius_ = 0.0;  // m, of the bounded colliders on moving bodies (0 if none)
  double gravity_ = 0.0;        // |g|
  double moving_mass_ = 0.0;    // kg, the bodies with a DOF between them and the world
  std::vector<bool> moving_;    // per body
  std::vector<double> gyration_;  // per body: sqrt(trace(I_com) / 2m), its size without colliders
  std::vector<double> body_radius_;      // per body: its colliders' reach from the body origin
  std::vector<double> collider_radius_;  // per collider: bounding radius about collider_center_
  std::vector<Vec3> collider_center_;    // in the body frame (world for world colliders)
  std::vector<std::pair<int, int>> checked_pairs_;  // where the signed distance is exact
  MultibodyData data_;
  std::vector<double> distance_;  // PairDistances' output (scratch)
  // The trajectory the steps continue, and a one-step probe beside it (finite differences step
  // from perturbed states between a trajectory's steps; a probe that goes on becomes the
  // trajectory).
  Trajectory main_, probe_;
};

}  // namespace arena
