#include "experiments/common/meters/resting_gaps.h"

#include <cmath>

#include "models/ipc/ipc_simulator.h"
#include "models/longrange/longrange_simulator.h"
#include "models/sdrs/resting_gap.h"
#include "models/sdrs/sdrs_simulator.h"

namespace arena {

double LongrangeRestingGap(double mu, double weight_n) { return std::sqrt(48.0 * mu / weight_n); }

double StackStartGap(const std::string& model, const OptionMap& options, double weight_n) {
  if (model == LongRangeSimulator::kName) {
    LongRangeModelOptions o;
    ApplyOptions(options, model, &o);
    return LongrangeRestingGap(o.mu, weight_n);
  }
  if (model == IpcSimulator::kName) {
    IpcModelOptions o;
    ApplyOptions(options, model, &o);
    return 0.8 * o.dhat;
  }
  if (model == SdrsSimulator::kName) {
    SdrsModelOptions o;
    ApplyOptions(options, model, &o);
    return sdrs::RestingGap(o.Pair(), weight_n);
  }
  return 0.0;
}

}  // namespace arena
