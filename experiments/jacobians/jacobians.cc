#include "experiments/jacobians/jacobians.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

#include "core/common/error.h"
#include "core/common/strings.h"
#include "experiments/common/settings/settings.h"
#include "experiments/common/sweeps/model_sweep.h"
#include "experiments/common/sweeps/sweep_limits.h"
#include "experiments/common/summaries/table_stats.h"
#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "models/counting_simulator.h"
#include "models/finite_difference_derivatives.h"
#include "models/registry.h"
#include "scenes/scene_registry.h"

namespace arena {

namespace {

// Each robot is the registered scene of the same name (scenes/scene_registry.h).
const std::vector<std::string> kRobots = {"atlas", "half_cheetah", "jump_worm", "catapult"};

// Half Cheetah's benchmark state: this long on the floor from the file's pose.
constexpr double kCheetahSettleTime = 1.0;

// A single step can take a few microseconds (MuJoCo): each step sample is the mean over a
// batch of steps lasting at least this long, so that the clock's resolution does not matter.
constexpr double kMinStepBatch = 2e-3;

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double MedianOf(std::vector<double> x) {
  if (x.empty()) return std::nan("");
  std::sort(x.begin(), x.end());
  const size_t n = x.size();
  return n % 2 == 1 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

bool AllFinite(const StepDerivatives& d) {
  return d.dq_dq.allFinite() && d.dq_dv.allFinite() && d.dq_du.allFinite() && d.dv_dq.allFinite() &&
         d.dv_dv.allFinite() && d.dv_du.allFinite();
}

// The times and result of one way of computing the Jacobians.
struct MethodTiming {
  explicit MethodTiming(std::string name) : method(std::move(name)) {}
  std::string method;
  std::vector<double> times;
  long steps = 0;            // Step calls per Jacobian (finite differences)
  long contact_changes = 0;  // of those, steps with another contact count than the nominal
  StepDerivatives d;
};

}  // namespace

State JacobiansExperiment::BenchmarkState(const std::string& robot, Simulator& sim) {
  State s = DefaultState(sim.scene());
  if (robot == "half_cheetah") {
    const int steps = static_cast<int>(std::lround(kCheetahSettleTime / sim.timestep()));
    for (int i = 0; i < steps; ++i) sim.Step(s, {});
  }
  if (robot == "jump_worm" || robot == "catapult") sim.Step(s, {});  // Nimble's one world.step()
  return s;
}

namespace {

// The config's keys and a case's parameters.
struct JacobiansSettings {
  std::vector<std::string> robots;
  std::string robot;
  std::int64_t samples = 0;
  double central_step = 0.0;
  double ridders_step = 0.0;

  template <class V>
  void VisitFields(V&& v) {
    v("robots", robots, "the robots (the axis)", "", std::nullopt, SettingRole::kConfig);
    v("robot", robot, "atlas (Nimble's Table II pose), half_cheetah (OpenAI MJCF, settled 1 s), jump_worm or catapult "
      "(Nimble's benchmark states, one step)", "", std::nullopt, SettingRole::kCase);
    v("samples", samples, "timed repetitions per method (medians are reported)", "", Closed(1, kMaxIterationsPerCase));
    v("central_step", central_step, "central-difference step (tangent coordinates)", "", Positive(1.0));
    v("ridders_step", ridders_step, "Ridders' initial step (shrunk by 1.4 per tableau row, at most 10 rows)", "",
      Positive(1.0));
  }
};

}  // namespace

std::vector<Column> JacobiansExperiment::columns() const {
  std::vector<Column> columns = ParamColumns<JacobiansSettings>();
  const std::vector<Column> rows = {
      {"engine", "the model is a wrapped third-party engine (MuJoCo, DART)", false, ColumnType::kBool},
      {"nv", "velocity dimension"},
      {"nu", "controls (torques)"},
      {"contacts", "contacts of the differentiated step"},
      {"step_status", "status of the differentiated step (ok, not_converged, ...)", false, ColumnType::kText},
      {"method", "analytical (the model's own Derivatives()), central or ridders", false, ColumnType::kText},
      {"jacobian_steps", "Step calls per evaluation of the five Jacobians (finite differences)"},
      {"contact_changes", "of those steps, how many found another number of contacts or another contact mode (LCP active set) than the differentiated step"},
      {"max_rel_error_vs_ridders", "largest corrected relative error of the six blocks against Ridders (floor 1e-6)"},
      {"finite", "every Jacobian entry is finite", false, ColumnType::kBool},
      {"step_time_s", "median wall time of one step", true},
      {"jacobian_time_s", "median wall time of the five Jacobians together", true},
      {"jacobian_over_step", "jacobian_time_s / step_time_s", true},
  };
  columns.insert(columns.end(), rows.begin(), rows.end());
  return columns;
}

Sweep JacobiansExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const auto settings = ReadSettings<JacobiansSettings>(config);
  const std::vector<std::string>& robots = settings.robots;
  for (const std::string& r : robots) {
    if (std::find(kRobots.begin(), kRobots.end(), r) == kRobots.end()) {
      throw InvalidArgument(config.file() + ": robots: unknown robot '" + r + "'; valid: " + Join(kRobots));
    }
  }
  Sweep sweep;
  for (const std::string& robot : robots) {
    const std::shared_ptr<const Scene> scene = MakeScene(robot);
    for (const std::string& model : models) {
      const std::string why = CheckSupport(FindModel(model).capabilities, *scene);
      if (!why.empty()) {
        sweep.notes.push_back(model + ": skipped " + robot + " (" + why + ")");
        continue;
      }
      for (const ModelSetting& setting :
           ExpandModelSweep(config, model, {"timestep"}, "each robot runs at its own timestep")) {
        OptionMap options = setting.options;
        options["timestep"] = options_detail::FormatDouble(scene->timestep_hint);
        // Table II times the five state Jacobians: design derivatives (nimble's link masses)
        // would add columns to both the analytical and the differenced side.
        if (FindModel(model).capabilities.design_derivatives) options["design_derivatives"] = "false";
        // What CheckSupport cannot see (an engine without joint armature, say) shows when the
        // model is built: skip with its reason rather than fail the case.
        try {
          MakeSimulator(model, scene, options);
        } catch (const Unsupported& e) {
          sweep.notes.push_back(model + ": skipped " + robot + " (" + e.what() + ")");
          continue;
        }
        Case c;
        c.index = static_cast<int>(sweep.cases.size());
        c.model = model;
        c.id = robot + "/" + model +
               setting.IdSuffix();
        c.model_options = options;
        JacobiansSettings one = settings;
        one.robot = robot;
        c.params = CaseParams(one);
        c.seed = DeriveSeed(name(), c.id);
        sweep.cases.push_back(std::move(c));
      }
    }
  }
  return sweep;
}

std::vector<Row> JacobiansExperiment::Run(const Case& c) const {
  const auto settings = DecodeSettings<JacobiansSettings>(c);
  const std::string& robot = settings.robot;
  const int samples = static_cast<int>(settings.samples);
  const std::shared_ptr<const Scene> scene = MakeScene(robot);
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, scene, c.model_options);
  const Capabilities caps = sim->capabilities();
  const State start = BenchmarkState(robot, *sim);
  State next = start;
  const StepReport nominal = sim->Step(next, {});

  FdOptions central;
  central.method = FdMethod::kCentral;
  central.step = settings.central_step;
  FdOptions ridders;
  ridders.method = FdMethod::kRidders;
  ridders.ridders_step = settings.ridders_step;

  CountingSimulator counting(*sim);
  std::vector<MethodTiming> methods = {MethodTiming("central"), MethodTiming("ridders")};
  if (caps.derivatives == DerivativeSource::kAnalytical) methods.emplace_back("analytical");
  std::vector<double> step_times;
  // Rounds of [step, every method]: a slow phase of the machine affects all of them alike.
  for (int k = 0; k < samples; ++k) {
    int batch = 0;
    const Clock::time_point t0 = Clock::now();
    do {
      State s = start;
      sim->Step(s, {});
      ++batch;
    } while (SecondsSince(t0) < kMinStepBatch);
    step_times.push_back(SecondsSince(t0) / batch);
    for (MethodTiming& m : methods) {
      counting.Reset(nominal.contacts, nominal.contact_mode);
      if (m.method == "analytical") {  // the step it differentiates, untimed (Nimble's snapshot)
        State s = start;
        sim->Step(s, {});
      }
      const Clock::time_point t = Clock::now();
      if (m.method == "analytical") {  // a batch, as the step: one call is tens of microseconds
        int calls = 0;
        do {
          sim->Derivatives(start, {}, &m.d);
          ++calls;
        } while (SecondsSince(t) < kMinStepBatch);
        m.times.push_back(SecondsSince(t) / calls);
      } else {
        m.d = FiniteDifferenceStepDerivatives(counting, start, {}, m.method == "central" ? central : ridders);
        m.times.push_back(SecondsSince(t));
      }
      m.steps = counting.steps();
      m.contact_changes = counting.contact_changes();
    }
  }

  const StepDerivatives& reference = methods[1].d;
  const double step_time = MedianOf(step_times);
  std::vector<Row> rows;
  for (const MethodTiming& m : methods) {
    Row row;
    row["engine"] = caps.engine;
    row["nv"] = static_cast<std::int64_t>(scene->nv());
    row["nu"] = static_cast<std::int64_t>(scene->nu());
    row["contacts"] = static_cast<std::int64_t>(nominal.contacts);
    row["step_status"] = std::string(ToString(nominal.status));
    row["method"] = m.method;
    if (m.method != "analytical") {
      row["jacobian_steps"] = static_cast<std::int64_t>(m.steps);
      row["contact_changes"] = static_cast<std::int64_t>(m.contact_changes);
    }
    if (m.method != "ridders") row["max_rel_error_vs_ridders"] = MaxStepDerivativeError(m.d, reference);
    row["finite"] = AllFinite(m.d);
    row["step_time_s"] = step_time;
    row["jacobian_time_s"] = MedianOf(m.times);
    row["jacobian_over_step"] = MedianOf(m.times) / step_time;
    rows.push_back(std::move(row));
  }
  return rows;
}

// The paper's claims (jacobians.speedup.*, ridders_speedup) and the observation max_rel_error
// compare Nimble's analytical Jacobians with differences of its step; they are measured once the
// nimble model runs here. Until then the engines' rows are observations.
std::vector<ClaimResult> JacobiansExperiment::Summarize(const ResultTable& table) const {
  // The claims are nimble's: its analytical Jacobians against differences of its own step.
  const ResultTable nimble = table.Filter("model", "nimble");
  std::vector<ClaimResult> out;
  auto row_of = [](const ResultTable& t, const std::string& method) {
    for (int i = 0; i < t.num_rows(); ++i) {
      if (t.Text(i, "method") == method && !t.Text(i, "jacobian_time_s").empty()) return i;
    }
    return -1;
  };
  for (const std::string robot : {"atlas", "half_cheetah", "jump_worm", "catapult"}) {
    const ResultTable r = nimble.Filter("robot", robot);
    const int a = row_of(r, "analytical"), c = row_of(r, "central"), rid = row_of(r, "ridders");
    if (a < 0 || c < 0) continue;
    const double analytical = r.Number(a, "jacobian_time_s");
    const std::string times = "analytical " + FormatShort(analytical * 1e3) + " ms, central " +
                              FormatShort(r.Number(c, "jacobian_time_s") * 1e3) + " ms (" + r.Text(c, "jacobian_steps") +
                              " steps of " + FormatShort(r.Number(c, "step_time_s") * 1e3) + " ms), " + r.Text(a, "contacts") +
                              " contacts";
    ClaimResult speedup{"jacobians.speedup." + robot};
    speedup.ours = r.Number(c, "jacobian_time_s") / analytical;
    // Nimble differentiates each of the five Jacobians separately: 2 (4 nv + nu) steps.
    const double nv = r.Number(c, "nv"), nu = r.Number(c, "nu");
    const double per_jacobian_steps = 2.0 * (4.0 * nv + nu);
    speedup.note = times + "; counted as Nimble does (each Jacobian by its own differences, " +
                   FormatShort(per_jacobian_steps) + " steps) the ratio would be " +
                   FormatShort(per_jacobian_steps * r.Number(c, "step_time_s") / analytical);
    out.push_back(speedup);
    if (robot != "atlas") continue;
    if (rid >= 0) {
      ClaimResult ridders{"jacobians.ridders_speedup.atlas"};
      ridders.ours = r.Number(rid, "jacobian_time_s") / analytical;
      ridders.note = "Ridders " + FormatShort(r.Number(rid, "jacobian_time_s") * 1e3) + " ms (" + r.Text(rid, "jacobian_steps") +
                     " steps), " + times;
      out.push_back(ridders);
      // Ridders is a reference only where its steps stay on one smooth piece.
      ClaimResult error{"jacobians.max_rel_error.atlas"};
      error.ours = r.Number(a, "max_rel_error_vs_ridders");
      const double changes = r.Number(rid, "contact_changes");
      error.note = "corrected relative error max|A - R| / (1e-6 + max|R|) over the five Jacobians; " +
                   FormatShort(changes) + " of Ridders' " + r.Text(rid, "jacobian_steps") +
                   " steps changed the contact set or mode";
      error.values["contact_changes"] = changes;
      out.push_back(error);
    }
  }
  return out;
}

std::vector<Observation> JacobiansExperiment::Observe(const ResultTable& table) const {
  std::vector<Observation> out;
  for (const std::string& robot : table.Distinct("robot")) {
    const ResultTable r = table.Filter("robot", robot);
    for (const std::string& model : r.Distinct("model")) {
      const ResultTable m = r.Filter("model", model);
      if (m.num_rows() == 0 || m.Text(0, "method").empty()) continue;  // a failed case
      const std::string where = robot + ", " + m.Text(0, "contacts") + " contacts, nv " + m.Text(0, "nv") +
                                ", nu " + m.Text(0, "nu");
      out.push_back({"step_time", model, m.Number(0, "step_time_s") * 1e3, "ms", where});
      for (int i = 0; i < m.num_rows(); ++i) {
        const std::string method = m.Text(i, "method");
        std::string note = robot + ", " + method;
        if (!m.Text(i, "jacobian_steps").empty()) note += ", " + m.Text(i, "jacobian_steps") + " steps";
        note += ", " + FormatShort(m.Number(i, "jacobian_over_step")) + " x the step time";
        if (!m.Text(i, "max_rel_error_vs_ridders").empty()) {
          note += ", max rel. error vs Ridders " + FormatShort(m.Number(i, "max_rel_error_vs_ridders"));
        }
        out.push_back({"jacobian_time_" + method, model, m.Number(i, "jacobian_time_s") * 1e3, "ms", note});
      }
    }
  }
  return out;
}

}  // namespace arena
