#include "models/ipc/ipc_simulator.h"

#include <cmath>

#include "core/common/error.h"

namespace arena {

std::string_view ToString(IpcBarrier barrier) {
  switch (barrier) {
    case IpcBarrier::kClampedLog: return "clamped_log";
    case IpcBarrier::kGlobal: return "global";
  }
  return "?";
}

bool FromString(std::string_view text, IpcBarrier* barrier) {
  for (IpcBarrier b : {IpcBarrier::kClampedLog, IpcBarrier::kGlobal}) {
    if (text == ToString(b)) {
      *barrier = b;
      return true;
    }
  }
  return false;
}

std::string EnumValues(IpcBarrier) { return "clamped_log|global"; }

// Visits the embedded IpOptions too: one CheckRanges covers both. The ranges keep every value
// of our configs and seed 004 (dhat 1e-3, eps_v 1e-3); kappa spans the automatic stiffness of
// both barriers (about 2e9 N/m^3 for the clamped log at dhat = 1 mm, 2.5e-6 N m^2 for 1/dist).
std::string IpcModelOptions::Validate() const { return CheckRanges(*this); }

Capabilities IpcSimulator::CapabilitiesFor(const IpcModelOptions&) {
  // Piecewise smooth: the barrier is C2 where pairs enter and leave, but a pair's squared
  // distance is only C1 where its closest features change (the Hessian jumps), and the lagged
  // friction's stencils and mollifier pieces switch between steps.
  return IpCapabilities(/*smooth=*/false);
}

double IpcSimulator::AutomaticKappa(const Scene& scene, double dhat, IpcBarrier barrier) {
  double mass = 0.0;
  int bodies = 0;
  for (const BodyModel& b : scene.model.bodies()) {
    if (b.inertia.mass() > 0.0) {
      mass += b.inertia.mass();
      ++bodies;
    }
  }
  const double weight = (bodies > 0 ? mass / bodies : 1.0) * 9.81;  // N
  const double s = 0.5 * dhat;
  const double force_per_kappa = barrier == IpcBarrier::kClampedLog
                                     ? -ipc::ClampedLogBarrier(s * s, dhat * dhat).first * 2.0 * s  // -db/ds
                                     : 1.0 / (s * s);
  return weight / force_per_kappa;
}

namespace {

const IpcModelOptions& Checked(const IpcModelOptions& o) {
  if (std::string why = o.Validate(); !why.empty()) throw InvalidArgument("ipc: " + why);
  return o;
}

double KappaFor(const Scene& scene, const IpcModelOptions& o) {
  return o.kappa > 0.0 ? o.kappa : IpcSimulator::AutomaticKappa(scene, o.dhat, o.barrier);
}

IncrementalPotentialSimulator::ContactFactory Factory(const Scene& scene, const IpcModelOptions& o) {
  IpcContactParameters p;
  p.barrier.kind = o.barrier == IpcBarrier::kClampedLog ? ipc::BarrierKind::kClampedLog : ipc::BarrierKind::kInverseDistance;
  p.barrier.dhat = o.dhat;
  p.kappa = KappaFor(scene, o);
  p.friction_eps_v = o.friction_eps_v;
  p.dt = o.ip.timestep;
  return [p](const std::vector<ColliderMesh>& meshes) { return std::make_unique<IpcContact>(meshes, p); };
}

}  // namespace

double IpcSimulator::StackingGap(const IpcModelOptions& options, double weight_n) {
  (void)weight_n;
  return 0.8 * options.dhat;
}

IpcSimulator::IpcSimulator(std::shared_ptr<const Scene> scene, const IpcModelOptions& options)
    : IncrementalPotentialModel(scene, Checked(options), Factory(*scene, options)),
      kappa_(KappaFor(*scene, options)) {}

const IpcContact& IpcSimulator::ipc_contact() const {
  return static_cast<const IpcContact&>(*contact());
}

}  // namespace arena
