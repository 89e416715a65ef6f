// An objective over a controller's parameters instead of a rollout's controls: x = [theta;
// rest], the inner objective (single or multiple shooting, any objective whose variables start
// with the stacked controls) evaluated at [u(theta); rest], its control gradient pulled back to
// theta (SineWaveControls). `rest` is whatever the inner objective has after the controls: the
// design parameters of a co-design (ShootingObjective with design variables).
#pragma once

#include <cstdint>

#include "solvers/objective.h"
#include "trajectory/sine_wave_controls.h"

namespace arena {

class ControllerObjective final : public Objective {
 public:
  /// `inner` (not owned) must outlive this objective and start with controller.num_controls()
  /// controls; throws InvalidArgument when it has fewer variables.
  ControllerObjective(Objective& inner, SineWaveControls controller);

  int dimension() const override { return controller_.num_parameters() + rest_; }
  double Evaluate(const VecX& x, VecX* gradient) override;
  /// theta is unbounded; the rest keeps the inner objective's bounds (empty if it has none).
  VecX lower() const override;
  VecX upper() const override;
  std::int64_t evaluations() const override { return inner_.evaluations(); }
  std::int64_t gradient_evaluations() const override { return inner_.gradient_evaluations(); }

  const SineWaveControls& controller() const { return controller_; }
  /// The inner objective's variables at x: [u(theta); rest].
  VecX InnerVariables(const VecX& x) const;

 private:
  VecX Bounds(const VecX& inner, double infinity) const;

  Objective& inner_;
  SineWaveControls controller_;
  int rest_ = 0;
  VecX inner_gradient_;
};

}  // namespace arena
