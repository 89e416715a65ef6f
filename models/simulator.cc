#include "models/simulator.h"

#include "core/common/error.h"
#include "core/multibody/configuration.h"

namespace arena {

std::string Capabilities::ToString() const {
  std::string s;
  auto add = [&s](bool on, const char* word) {
    if (on) s += (s.empty() ? "" : " ") + std::string(word);
  };
  add(planar, "planar");
  add(spatial, "spatial");
  add(articulated, "articulated");
  s += " |";
  for (int t = 0; t < kNumShapeTypes; ++t) {
    if (shapes.test(t)) s += " " + std::string(arena::ToString(static_cast<ShapeType>(t)));
  }
  s += " |";
  add(state_derivatives, "derivatives");
  add(design_derivatives, "design-derivatives");
  add(smooth, "smooth");
  add(engine, "engine");
  return s;
}

std::string CheckSupport(const Capabilities& caps, const Scene& scene) {
  const bool planar = scene.IsPlanar();
  if (planar && !caps.planar) return "planar (2D) scenes are not supported";
  if (!planar && !caps.spatial) return "spatial (3D) scenes are not supported";
  if (!caps.articulated) {
    for (const auto& b : scene.model.bodies()) {
      if (b.parent != kWorldBody) {
        return "articulated bodies are not supported (body '" + b.name + "' has a parent body)";
      }
    }
  }
  for (const auto& c : scene.colliders) {
    if (!caps.Supports(TypeOf(c.shape))) {
      return "shape '" + std::string(arena::ToString(TypeOf(c.shape))) + "' of collider '" +
             c.name + "' is not supported";
    }
  }
  return "";
}

std::string_view ToString(StepStatus status) {
  switch (status) {
    case StepStatus::kOk: return "ok";
    case StepStatus::kNotConverged: return "not_converged";
    case StepStatus::kNonFinite: return "non_finite";
    case StepStatus::kError: return "error";
  }
  return "?";
}

void Simulator::Derivatives(const State&, const Control&, StepDerivatives*) {
  throw Unsupported("model '" + std::string(name()) + "' does not provide step derivatives");
}

void Simulator::SetDesignParameters(const VecX&) {
  throw Unsupported("model '" + std::string(name()) + "' has no design parameters");
}

void ChainSemiImplicitPositions(const MultibodyModel& model, const VecX& q, const VecX& v_next, double dt,
                                StepDerivatives* out) {
  MatX Jq, Jv;
  IntegrateJacobians(model, q, dt * v_next, &Jq, &Jv);
  out->dq_dq = Jq + dt * Jv * out->dv_dq;
  out->dq_dv = dt * Jv * out->dv_dv;
  out->dq_du = dt * Jv * out->dv_du;
  if (out->dv_dp.size() > 0) out->dq_dp = dt * Jv * out->dv_dp;
}

}  // namespace arena
