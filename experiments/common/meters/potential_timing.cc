#include "experiments/common/meters/potential_timing.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <vector>

#include "core/common/deadline.h"
#include "core/common/error.h"
#include "models/incremental_potential/contact_potential.h"
#include "models/registry.h"

namespace arena {

namespace {

// Keeps every derivative observable (so none is optimised away) at O(1) cost per term.
class ChecksumSink final : public ContactDerivativeSink {
 public:
  void AddGradient(const MeshPoint&, const Vec3& g) override { sum_ += g.cwiseAbs().sum(); }
  void AddHessian(const MeshPoint&, const MeshPoint&, const Mat3& block) override { sum_ += block.cwiseAbs().sum(); }
  // As the step's sink (models/incremental_potential/step_energy.cc): a term that can give its bodies' twist
  // Hessian does.
  bool TakesTwistHessians() const override { return true; }
  void AddTwistHessian(int, int, const Mat6& block) override { sum_ += block.cwiseAbs().sum(); }
  double sum() const { return sum_; }

 private:
  double sum_ = 0.0;
};

}  // namespace

PotentialTiming TimeContactPotential(Simulator& sim, const State& state, int repeats) {
  MeshPotential* mesh = sim.mesh_potential();
  if (mesh == nullptr) throw InvalidArgument(std::string(sim.name()) + " has no contact potential");
  if (repeats < 1) throw InvalidArgument("TimeContactPotential: repeats must be >= 1");
  ContactPotential* potential = &mesh->contact_potential();
  ContactConfiguration x;
  mesh->MeshConfiguration(state.q, &x);
  potential->BeginStep(x);
  std::vector<double> seconds;
  PotentialTiming out;
  for (int k = 0; k < repeats && !(k > 0 && DeadlinePassed()); ++k) {
    ChecksumSink sink;
    const auto t0 = std::chrono::steady_clock::now();
    out.value = potential->Evaluate(x, &sink, /*hessian=*/true, /*project=*/true);
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    out.checksum = sink.sum();
  }
  out.repeats = static_cast<int>(seconds.size());
  out.first_s = seconds.front();
  std::sort(seconds.begin(), seconds.end());
  out.median_s = seconds[seconds.size() / 2];
  return out;
}

std::string WhyNoContactPotential(const std::string& model, const std::shared_ptr<const Scene>& scene) {
  if (std::string why = CheckSupport(FindModel(model).capabilities, *scene); !why.empty()) return why;
  std::unique_ptr<Simulator> sim;
  try {
    sim = MakeSimulator(model, scene, {});
  } catch (const std::exception& e) {  // a model that cannot load the scene (MuJoCo: massless links)
    return std::string("cannot load the scene: ") + e.what();
  }
  return sim->mesh_potential() != nullptr ? "" : "not an incremental-potential model: no contact potential of its own";
}

Simulator& AsContactPotentialModel(Simulator& sim) {
  if (sim.mesh_potential() == nullptr) {
    throw Unsupported(std::string(sim.name()) + " is not an incremental-potential model with a contact potential");
  }
  return sim;
}

}  // namespace arena
