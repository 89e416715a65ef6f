// A Simulator that forwards to another and counts its Step calls: how many steps a
// finite-difference Jacobian costs (the jacobians experiment, the engine benchmarks), and how
// many of them found a different number of contacts or another contact mode than a reference
// step (the perturbations that changed the contact set or the LCP's active set, where
// differences of a rigid model jump).
#pragma once

#include <cstdint>
#include <string_view>

#include "models/simulator.h"

namespace arena {

class CountingSimulator final : public Simulator {
 public:
  // The inner simulator checks its steps' validity; the wrapper does not check them again.
  explicit CountingSimulator(Simulator& inner) : inner_(inner) { set_step_validity({.check_steps = false}); }
  std::string_view name() const override { return inner_.name(); }
  Capabilities capabilities() const override { return inner_.capabilities(); }
  const Scene& scene() const override { return inner_.scene(); }
  double timestep() const override { return inner_.timestep(); }
  std::vector<std::string> DesignParameterNames() const override { return inner_.DesignParameterNames(); }
  VecX DesignParameters() const override { return inner_.DesignParameters(); }
  void SetDesignParameters(const VecX& p) override { inner_.SetDesignParameters(p); }
  std::vector<ModelCounter> Counters() const override { return inner_.Counters(); }
  bool ReportsContactForces() const override { return inner_.ReportsContactForces(); }
  bool ReportsContactPoints() const override { return inner_.ReportsContactPoints(); }
  MeshPotential* mesh_potential() override { return inner_.mesh_potential(); }
  const SolveBreakdown* last_solve_breakdown() const override { return inner_.last_solve_breakdown(); }
  const DesignVertices* design_vertices() const override { return inner_.design_vertices(); }
  const ColliderPoints* collider_points() const override { return inner_.collider_points(); }
  const ColliderHulls* collider_hulls() const override { return inner_.collider_hulls(); }

  long steps() const { return steps_; }
  /// Steps since Reset whose contact count or contact mode differed from the reference's
  /// (0 if none set).
  long contact_changes() const { return contact_changes_; }
  /// Zeroes the counters; a negative `reference_contacts` compares nothing.
  void Reset(int reference_contacts = -1, std::uint64_t reference_mode = 0) {
    steps_ = 0;
    contact_changes_ = 0;
    reference_contacts_ = reference_contacts;
    reference_mode_ = reference_mode;
  }

 protected:
  StepReport DoStep(State& state, const Control& control) override {
    ++steps_;
    const StepReport report = inner_.Step(state, control);
    if (reference_contacts_ >= 0 &&
        (report.contacts != reference_contacts_ || report.contact_mode != reference_mode_)) {
      ++contact_changes_;
    }
    return report;
  }
  std::vector<ContactPoint> DoContactPoints() override { return inner_.ContactPoints(); }
  void DoDerivatives(const State& state, const Control& control, StepDerivatives* out) override {
    inner_.Derivatives(state, control, out);
  }
  void DoVjp(const State& state, const Control& control, const VecX& dl_dq_next, const VecX& dl_dv_next,
             StepGradient* out) override {
    inner_.Vjp(state, control, dl_dq_next, dl_dv_next, out);
  }

 private:
  Simulator& inner_;
  long steps_ = 0;
  long contact_changes_ = 0;
  int reference_contacts_ = -1;
  std::uint64_t reference_mode_ = 0;
};

}  // namespace arena
