#include "experiments/common/meters/potential_timing.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <vector>

#include "core/common/deadline.h"
#include "core/common/error.h"
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

PotentialTiming TimeContactPotential(IncrementalPotentialSimulator& sim, const State& state, int repeats) {
  ContactPotential* potential = sim.contact_potential();
  if (potential == nullptr) throw InvalidArgument(std::string(sim.name()) + " has no contact potential");
  if (repeats < 1) throw InvalidArgument("TimeContactPotential: repeats must be >= 1");
  ContactConfiguration x;
  sim.MeshConfiguration(state.q, &x);
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
  auto* ip = dynamic_cast<IncrementalPotentialSimulator*>(sim.get());
  return ip != nullptr && ip->contact_potential() != nullptr ? ""
                                                               : "not an incremental-potential model: no contact potential of its own";
}

IncrementalPotentialSimulator& AsContactPotentialModel(Simulator& sim) {
  auto* ip = dynamic_cast<IncrementalPotentialSimulator*>(&sim);
  if (ip == nullptr || ip->contact_potential() == nullptr) {
    throw Unsupported(std::string(sim.name()) + " is not an incremental-potential model with a contact potential");
  }
  return *ip;
}

}  // namespace arena
