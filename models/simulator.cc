#include "models/simulator.h"

#include "models/step_validity.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/common/deadline.h"
#include "core/common/error.h"
#include "core/multibody/configuration.h"

namespace arena {

std::string_view ToString(DerivativeSource source) {
  switch (source) {
    case DerivativeSource::kNone: return "none";
    case DerivativeSource::kAnalytical: return "analytical";
    case DerivativeSource::kFiniteDifferences: return "finite_differences";
  }
  return "?";
}

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
  if (has_derivatives()) s += " derivatives:" + std::string(arena::ToString(derivatives));
  add(design_derivatives, "design-derivatives");
  add(smooth, "smooth");
  add(engine, "engine");
  return s;
}

std::string CheckGradientSupport(const Capabilities& caps, const Scene& scene) {
  if (std::string why = CheckSupport(caps, scene); !why.empty()) return why;
  return caps.has_derivatives() ? "" : "no step derivatives";
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
    case StepStatus::kInvalid: return "invalid";
  }
  return "?";
}

std::string Simulator::CheckInputs(const State& state, const Control& control) const {
  const Scene& s = scene();
  if (state.q.size() != s.nq() || state.v.size() != s.nv()) ValidateState(s, state);  // throws with the sizes
  if (control.u.size() != 0 && control.u.size() != s.nu()) {
    throw InvalidArgument(std::string(name()) + ": control has " + std::to_string(control.u.size()) +
                          " entries, scene '" + s.name + "' has " + std::to_string(s.nu()) + " actuators");
  }
  if (std::string bad = FirstNonFiniteEntry(state); !bad.empty()) return "state " + bad;
  for (int i = 0; i < control.u.size(); ++i) {
    if (!std::isfinite(control.u[i])) return "control u[" + std::to_string(i) + "]";
  }
  return "";
}

StepReport Simulator::Step(State& state, const Control& control) {
  const auto start = std::chrono::steady_clock::now();
  StepReport report;
  last_step_taken_ = false;
  if (std::string bad = CheckInputs(state, control); !bad.empty()) {
    report.status = StepStatus::kNonFinite;
    report.message = "input is not finite: " + bad;
  } else if (DeadlinePassed()) {
    // The case's wall-clock budget (core/common/deadline.h): refuse the step, keep the state.
    report.status = StepStatus::kError;
    report.message = DeadlineMessage();
  } else {
    scratch_ = state;  // same sizes after the first step: no allocation
    report = DoStep(scratch_, control);
    // A wrapped simulator's kInvalid step was taken (CountingSimulator forwards its Step).
    const bool taken = report.status == StepStatus::kOk || report.status == StepStatus::kNotConverged ||
                       report.status == StepStatus::kInvalid;
    if (taken) {
      if (std::string bad = FirstNonFiniteEntry(scratch_); !bad.empty()) {
        report.status = StepStatus::kNonFinite;
        report.message = "the step produced a non-finite state: " + bad +
                         (report.message.empty() ? "" : " (" + report.message + ")");
      } else {
        scratch_.t = state.t + timestep();
        if (std::string why = CheckValidity(state, control, scratch_); !why.empty()) {
          report.message = why + (report.message.empty() ? "" : " (" + report.message + ")");
          report.status = StepStatus::kInvalid;
        }
        std::swap(state, scratch_);
        last_step_taken_ = true;
      }
    }
  }
  report.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

Simulator::Simulator() = default;
Simulator::~Simulator() = default;

void Simulator::set_step_validity(const StepValidityOptions& options) {
  if (std::string error = StepValidityOptions(options).Validate(); !error.empty()) {
    throw InvalidArgument(std::string(name()) + ": " + error);
  }
  validity_options_ = options;
  validity_.reset();
}

std::string Simulator::CheckValidity(const State& before, const Control& control, const State& after) {
  if (!validity_options_.check_steps) return "";
  if (validity_ == nullptr || &validity_->scene() != &scene()) {
    validity_ = std::make_unique<StepValidity>(scene(), validity_options_, penetration_allowance(), contact_reach());
    if (const DesignVertices* design = design_vertices()) {
      std::vector<std::string> moved;
      for (const DesignVertexId& id : design->DesignVertexIds()) moved.push_back(id.collider);
      validity_->SkipPenetrationOf(moved);
    }
  }
  return validity_->Check(before, control, after, timestep());
}

std::vector<ContactPoint> Simulator::ContactPoints() {
  if (!last_step_taken_) return {};
  return DoContactPoints();
}

std::vector<BodyPairForce> SumPairForces(const std::vector<ContactPoint>& points) {
  std::vector<BodyPairForce> out;
  for (const ContactPoint& p : points) {
    const Vec3 f = p.force_on_a - p.friction_on_a;
    auto same = [&](const BodyPairForce& e) {
      return (e.body_a == p.body_a && e.body_b == p.body_b) || (e.body_a == p.body_b && e.body_b == p.body_a);
    };
    auto it = std::find_if(out.begin(), out.end(), same);
    if (it == out.end()) {
      out.push_back({p.body_a, p.body_b, f});
    } else {
      it->force_on_a += it->body_a == p.body_a ? f : Vec3(-f);
    }
  }
  return out;
}

MeshPotential& RequireMeshPotential(Simulator& sim) {
  MeshPotential* m = sim.mesh_potential();
  if (m == nullptr) throw Unsupported(std::string(sim.name()) + " has no contact potential of collider meshes (MeshPotential)");
  return *m;
}

const DesignVertices& RequireDesignVertices(const Simulator& sim) {
  const DesignVertices* d = sim.design_vertices();
  if (d == nullptr) throw Unsupported(std::string(sim.name()) + " has no design vertices (DesignVertices)");
  return *d;
}

std::vector<BodyPairForce> Simulator::ContactForces() {
  if (!ReportsContactForces()) return {};
  return SumPairForces(ContactPoints());
}

void Simulator::Derivatives(const State& state, const Control& control, StepDerivatives* out) {
  if (!capabilities().has_derivatives()) {
    throw Unsupported("model '" + std::string(name()) + "' does not provide step derivatives");
  }
  if (std::string bad = CheckInputs(state, control); !bad.empty()) {
    throw InvalidArgument(std::string(name()) + ": derivatives asked at a non-finite input: " + bad);
  }
  ThrowIfDeadlinePassed();
  DoDerivatives(state, control, out);
}

void Simulator::Vjp(const State& state, const Control& control, const VecX& dl_dq_next, const VecX& dl_dv_next,
                    StepGradient* out) {
  if (!capabilities().has_derivatives()) {
    throw Unsupported("model '" + std::string(name()) + "' does not provide step derivatives");
  }
  const int nv = scene().nv();
  if (dl_dq_next.size() != nv || dl_dv_next.size() != nv) {
    throw InvalidArgument(std::string(name()) + ": Vjp needs loss gradients of size nv = " + std::to_string(nv) +
                          ", got " + std::to_string(dl_dq_next.size()) + " and " + std::to_string(dl_dv_next.size()));
  }
  if (!dl_dq_next.allFinite() || !dl_dv_next.allFinite()) {
    throw InvalidArgument(std::string(name()) + ": Vjp given a non-finite loss gradient");
  }
  if (std::string bad = CheckInputs(state, control); !bad.empty()) {
    throw InvalidArgument(std::string(name()) + ": Vjp asked at a non-finite input: " + bad);
  }
  ThrowIfDeadlinePassed();
  out->alternative = false;
  DoVjp(state, control, dl_dq_next, dl_dv_next, out);
}

// A backward pass runs one Vjp or Derivatives per step of a trajectory, each as costly as a step
// or more (scm's AD clouds): like Step, they refuse to start past the case's budget, so that a
// case never overruns it by more than one of them. They return no report, so they throw.
void Simulator::ThrowIfDeadlinePassed() const {
  if (DeadlinePassed()) throw Error(std::string(name()) + ": past the deadline: " + DeadlineMessage());
}

void Simulator::DoDerivatives(const State&, const Control&, StepDerivatives*) {
  throw Unsupported("model '" + std::string(name()) + "' claims derivatives but does not implement DoDerivatives");
}

void Simulator::DoVjp(const State& state, const Control& control, const VecX& dl_dq_next, const VecX& dl_dv_next,
                      StepGradient* out) {
  DoDerivatives(state, control, &vjp_jacobians_);
  TransposedJacobianProduct(vjp_jacobians_, dl_dq_next, dl_dv_next, out);
}

void TransposedJacobianProduct(const StepDerivatives& d, const VecX& dl_dq_next, const VecX& dl_dv_next,
                               StepGradient* out) {
  out->q = d.dq_dq.transpose() * dl_dq_next + d.dv_dq.transpose() * dl_dv_next;
  out->v = d.dq_dv.transpose() * dl_dq_next + d.dv_dv.transpose() * dl_dv_next;
  out->u = d.dq_du.transpose() * dl_dq_next + d.dv_du.transpose() * dl_dv_next;
  if (d.dq_dp.size() > 0 || d.dv_dp.size() > 0) {
    out->p = d.dq_dp.transpose() * dl_dq_next + d.dv_dp.transpose() * dl_dv_next;
  } else {
    out->p.resize(0);
  }
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
