// `ipc`: Incremental Potential Contact (Li et al., "Incremental Potential Contact", SIGGRAPH
// 2020), seed 004's IPC baseline (Ye et al., ICLR 2025, Sec. 6 and App. A.6.3), for rigid bodies
// in joint coordinates on the shared incremental-potential core (models/incremental_potential/): each step
// minimises
//   I(x, x^t, x^{t-1}) + kappa sum_pairs b(d_pair(x)) + D(x, x^t)
// over the joint coordinates with projected Newton (per-pair PSD projection, Sec. 4) and a line
// search bounded so that no pair distance reaches zero (conservative advancement along the true
// path in place of IPC's straight-line CCD), with the clamped log barrier of activation distance
// dhat (Sec. 4) or seed 004's global 1/dist ablation, and IPC's lagged friction (Sec. 5) whose
// normal forces, closest points and tangent bases are differentiated exactly for the step's
// derivatives with respect to its start (models/ipc/ipc_contact.h). Derivatives by the implicit
// function theorem at the minimiser (models/incremental_potential/ip_simulator.h).
//
// What differs from the paper (docs/models/ipc.md): rigid bodies in reduced coordinates instead
// of FEM elastodynamics; vertex-lumped masses (or exact rigid inertia); a fixed kappa (no
// adaptive stiffness update); contact pairs not merged by closest feature; implicit Euler only.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "models/incremental_potential/ip_simulator.h"
#include "models/ipc/ipc_contact.h"

namespace arena {

enum class IpcBarrier {
  kClampedLog,  // IPC: -(d - dhat^2)^2 ln(d / dhat^2) of the squared distance d, 0 beyond dhat
  kGlobal,      // seed 004's ablation (App. A.6.3): 1 / dist over every pair, no cut-off
};
std::string_view ToString(IpcBarrier barrier);
bool FromString(std::string_view text, IpcBarrier* barrier);
std::string EnumValues(IpcBarrier);

struct IpcModelOptions {
  IpOptions ip;
  double dhat = 1e-3;          // m: the clamped barrier's activation distance (Li et al.'s d-hat)
  // Barrier stiffness; 0: automatic, the stiffness at which ONE pair at dhat / 2 carries the
  // weight (9.81 m/s^2) of the scene's average body (AutomaticKappa). N/m^3 for the clamped log
  // (of squared metres), N m^2 for the global 1/dist.
  double kappa = 0.0;
  IpcBarrier barrier = IpcBarrier::kClampedLog;
  double friction_eps_v = 1e-3;  // m/s: IPC's eps_v, slip speed below which friction is mollified

  template <class V>
  void VisitFields(V&& v) {
    ip.VisitFields(v);
    v("dhat", dhat, "activation distance of the clamped barrier (and of friction)", "m", Closed(1e-6, 1.0));
    v("kappa", kappa,
      "barrier stiffness; 0: automatic (one pair at dhat/2 carries the weight of the scene's average body)",
      "N/m^3 (clamped_log) or N m^2 (global)", ZeroOr(Closed(1e-12, 1e20)));
    v("barrier", barrier, "clamped_log (IPC) or global (1/dist over every pair, seed 004's ablation)", "");
    v("friction_eps_v", friction_eps_v, "slip speed below which friction is mollified (IPC's eps_v)", "m/s",
      Closed(1e-8, 10.0));
  }
  std::string Validate() const;
};

class IpcSimulator final : public IncrementalPotentialModel<IpcSimulator, IpcModelOptions> {
 public:
  static constexpr std::string_view kName = "ipc";
  static Capabilities CapabilitiesFor(const IpcModelOptions& options);
  /// Where stacked boxes start (ModelInfo::stacking_gap): 0.8 dhat, where box_drop's 1 kg cube
  /// rests with the automatic kappa (0.82 dhat at dhat = 1e-3 and 1e-4), whatever the weight.
  static double StackingGap(const IpcModelOptions& options, double weight_n);
  /// kappa = m g / F(dhat / 2): m the mean mass of the scene's bodies with mass (1 kg if none),
  /// g = 9.81 m/s^2, F(s) the force of one pair at distance s per unit kappa (clamped log:
  /// 2 s |b'(s^2)| = 4.33 dhat^3 at s = dhat / 2; global: 1 / s^2).
  static double AutomaticKappa(const Scene& scene, double dhat, IpcBarrier barrier);
  /// Throws Unsupported for shapes without a triangle mesh (capsules, cylinders, ...),
  /// InvalidArgument for bad options.
  IpcSimulator(std::shared_ptr<const Scene> scene, const IpcModelOptions& options);

  /// The barrier acts within dhat (the step check lets a start that close give its energy back).
  double contact_reach() const override { return options().dhat; }
  /// The barrier stiffness in use (options().kappa, or the automatic one).
  double kappa() const { return kappa_; }
  /// The contact potential (its stats: pairs of the last evaluation, step-bound iterations).
  const IpcContact& ipc_contact() const;

 private:
  double kappa_ = 0.0;
};

}  // namespace arena
