// `penalty`: the sanity baseline. Spring-damper normal force with regularised Coulomb friction
// at every penetrating contact point, semi-implicit (symplectic) Euler on the multibody tree:
//   v+ = v + dt * ABA(q, v, tau_act + tau_passive, contact wrenches(q, v)),  q+ = q (+) dt v+.
// It runs every simple scene (spheres, boxes, capsules, hulls and meshes against half-spaces;
// sphere-sphere, sphere-box, box-box; the 2D polygon (plain or padded) / disk / capsule pairs
// of planar scenes) on free bodies and articulated trees. Step derivatives are exact: contact
// wrenches are differentiated by forward-mode AD of the kernels (models/point_contact/contact_kernels.h), the dynamics
// by the analytical ABA derivatives of core/multibody.
//
// Not a paper model: explicit penalty contact is what the papers' models improve on (stiffness
// vs timestep: a stiff spring is unstable at low frequency, a soft one penetrates).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/common/options.h"
#include "core/multibody/data.h"
#include "models/point_contact/contact_kernels.h"
#include "models/option_ranges.h"
#include "models/penalty/force_law.h"
#include "models/simulator.h"

namespace arena {

struct PenaltyOptions {
  double timestep = 0.01;           // s
  double stiffness = 1e4;           // N/m, per contact point
  double damping_ratio = 0.5;       // of critical damping 2 sqrt(k m) per contact point
  double friction_velocity = 1e-2;  // m/s, Coulomb regularisation speed

  // Ranges: a spring below 1 N/m lets even a 1 g body sink 1 cm per contact point, and 1e12 N/m
  // is stiffer than steel contacts; damping up to 100 x critical; the friction speed must stay
  // small against sliding speeds (above 1 m/s Coulomb friction turns into weak viscous drag, and
  // infinity switches it off), and 1 um/s is far below what a step resolves.
  template <class V>
  void VisitFields(V&& v) {
    v("timestep", timestep, "step length", "s", kTimestepRange);
    v("stiffness", stiffness, "normal spring stiffness per contact point", "N/m", Closed(1.0, 1e12));
    v("damping_ratio", damping_ratio,
      "normal damping as a fraction of critical, 2 sqrt(k m) with m the lighter body's mass", "", Closed(0.0, 100.0));
    v("friction_velocity", friction_velocity,
      "regularisation speed of Coulomb friction: f_t = -mu f_n v_t / sqrt(|v_t|^2 + v_s^2)", "m/s",
      Closed(1e-6, 1.0));
  }
  std::string Validate() const;
};

class PenaltySimulator final : public SimulatorBase<PenaltySimulator, PenaltyOptions> {
 public:
  /// Throws Unsupported for a collider pair without a kernel, InvalidArgument for bad options.
  PenaltySimulator(std::shared_ptr<const Scene> scene, const PenaltyOptions& options);

  static constexpr std::string_view kName = "penalty";
  static Capabilities CapabilitiesFor(const PenaltyOptions& options);

  bool ReportsContactPoints() const override { return true; }
  /// A spring contact sinks F / k for the stiffness the user chose (scm's quick tpush spring
  /// lets the finger 8.7 mm into the T's stem, 0.5 of its radius): only a body sunk past its
  /// whole bounding radius has gone through.
  double penetration_allowance() const override { return 1.0; }
  /// A face resting on its four corner springs (models/spring_contact_warnings.h).
  std::vector<std::string> OptionWarnings() const override;

 protected:
  StepReport DoStep(State& state, const Control& control) override;
  void DoDerivatives(const State& state, const Control& control, StepDerivatives* out) override;
  std::vector<ContactPoint> DoContactPoints() override { return points_; }

 private:
  struct Pair {
    int a = 0, b = 0;          // collider indices
    penalty::ForceLaw law;
  };
  // Contact wrenches (world frame, about the origin) on every body, after ForwardKinematics.
  // Returns the number of penetrating contact points; *min_phi the smallest signed distance;
  // with `points`, each contact point and its force.
  int ContactWrenches(std::vector<Force>* f_ext, double* min_phi, std::vector<ContactPoint>* points = nullptr);

  // Immutable after construction.
  std::vector<contact::ColliderGeometry> geometry_;
  std::vector<Pair> pairs_;

  // Workspace.
  MultibodyData data_;
  std::vector<Force> f_ext_;
  std::vector<contact::ContactPointT<double>> contacts_;
  std::vector<ContactPoint> points_;  // the last DoStep's
};

}  // namespace arena
