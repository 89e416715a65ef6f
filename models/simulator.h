// The Simulator contract every contact model implements (DESIGN.md, "Core interfaces").
//
// A Simulator is built by the registry (models/registry.h) from a shared const Scene and the
// model's Options. It owns its workspace (warm starts, scratch), so one instance serves one
// thread; the Scene is shared. Step() never throws on numerical trouble: it reports it in the
// StepReport (status, iterations, residual), so a sweep keeps going and records the failure.
#pragma once

#include <bitset>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/scene/scene.h"

namespace arena {

/// What a model can simulate and differentiate. Experiments ask before running a scene.
struct Capabilities {
  bool planar = false;            // 2D scenes (planar joints, 2D shapes)
  bool spatial = false;           // 3D scenes
  bool articulated = false;       // trees deeper than one joint from the world
  std::bitset<kNumShapeTypes> shapes;  // supported collider shape types
  bool state_derivatives = false;  // d(q+, v+)/d(q, v, u)
  bool design_derivatives = false;  // d(q+, v+)/d(design parameters)
  bool smooth = false;             // contact forces are differentiable functions of the state
  bool engine = false;             // a wrapped third-party engine (MuJoCo, DART), not our code

  bool Supports(ShapeType t) const { return shapes.test(static_cast<size_t>(t)); }
  /// One line such as "planar spatial articulated | sphere box half_space | derivatives".
  std::string ToString() const;
};

/// Empty when a model with these capabilities can simulate `scene`; otherwise the reason
/// ("shape 'mesh' of collider 'l_foot' is not supported").
std::string CheckSupport(const Capabilities& caps, const Scene& scene);

enum class StepStatus { kOk, kNotConverged, kNonFinite, kError };
std::string_view ToString(StepStatus status);

struct StepReport {
  StepStatus status = StepStatus::kOk;
  int iterations = 0;                 // solver iterations (1 for explicit models)
  double residual = std::numeric_limits<double>::quiet_NaN();  // NaN: not computed
  int contacts = 0;                   // active contacts after the step
  // A fingerprint of the discrete contact state the step chose (nimble: the LCP rows' classes),
  // 0 when the model does not tell. Steps with the same contacts and mode lie on one smooth piece
  // of the step map, so finite differences across a change of either are not derivatives.
  std::uint64_t contact_mode = 0;
  double min_signed_distance = std::numeric_limits<double>::infinity();  // m, < 0: penetration
  double wall_time_s = 0.0;
  std::string message;                // why, when status != kOk

  bool ok() const { return status == StepStatus::kOk; }
};

/// Jacobians of one step (q, v, u) -> (q+, v+). Configuration perturbations live in the
/// tangent space: column i of dq_dq is difference(q+(q), q+(integrate(q, eps e_i))) / eps,
/// so every q-block is nv x nv.
struct StepDerivatives {
  MatX dq_dq, dq_dv, dq_du;
  MatX dv_dq, dv_dv, dv_du;
  MatX dq_dp, dv_dp;  // design parameters; empty unless capabilities().design_derivatives
};

/// The position blocks of a step whose positions move with the new velocity,
/// q+ = q (+) dt v+: dq+/dx = [x = q] dq+/dq|_v+ + dt d(q (+) w)/dw dv+/dx, from the dv+/d*
/// blocks already in `out` (semi-implicit Euler; penalty, nimble without its parallel update).
void ChainSemiImplicitPositions(const MultibodyModel& model, const VecX& q, const VecX& v_next, double dt,
                                StepDerivatives* out);

class Simulator {
 public:
  virtual ~Simulator() = default;

  /// Registry name ("penalty", "silico", ...).
  virtual std::string_view name() const = 0;
  virtual Capabilities capabilities() const = 0;
  virtual const Scene& scene() const = 0;
  /// Step length (s).
  virtual double timestep() const = 0;

  /// Advances `state` by one timestep under `control`. Must not throw on numerical failure.
  virtual StepReport Step(State& state, const Control& control) = 0;

  /// Jacobians of Step at (state, control). The default throws Unsupported; models with
  /// capabilities().state_derivatives override it.
  virtual void Derivatives(const State& state, const Control& control, StepDerivatives* out);

  /// The design parameters p that StepDerivatives::dq_dp / dv_dp differentiate, one name per
  /// column ("mass:<body>" for a link mass), and their current values. Empty unless
  /// capabilities().design_derivatives. Such models take a boolean option "design_derivatives"
  /// (false: no design parameters, e.g. to time only the state Jacobians).
  virtual std::vector<std::string> DesignParameterNames() const { return {}; }
  virtual VecX DesignParameters() const { return {}; }
  /// Later steps simulate with these values (size of DesignParameterNames()). The model may
  /// then step a new Scene: references from scene() taken before are no longer valid. The
  /// default throws Unsupported; models with design derivatives override it.
  virtual void SetDesignParameters(const VecX& p);
};

}  // namespace arena
