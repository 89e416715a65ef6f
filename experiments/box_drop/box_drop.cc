#include "experiments/box_drop/box_drop.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "experiments/common/meters/collider_distances.h"
#include "experiments/common/sweeps/frequency_sweep.h"
#include "experiments/common/meters/outcome_checks.h"
#include "experiments/common/meters/psdf_meter.h"
#include "experiments/common/meters/step_tally.h"
#include "experiments/common/summaries/table_stats.h"
#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "models/registry.h"
#include "scenes/box_drop_scenes.h"

namespace arena {

namespace {

// What a run may not do, whatever its steps reported (experiments/common/meters/outcome_checks.h):
// - sink deeper than 0.5 m, the cube's side (the polygon is wider in every direction): a body
//   deeper than it is thick has gone through the ground. MuJoCo and DART reach 0.4 m at 10 Hz
//   in the step they land, the steps' own v dt;
// - gain more energy than lifting the box 0.5 m: a dropped box cannot bounce higher than it
//   fell from (explicit penalty contact pumps energy in when omega dt > 2);
// - go farther than 100 m from the origin: it has blown up;
// - never come within 5 cm of the ground once a free fall from its start would have reached it
//   (at most 0.55 s of the 1.5 s): the box hangs in the air. Silico's largest relaxation in the
//   configs (rho 1e-3) holds a resting box about 1 cm up at 100 Hz.
constexpr OutcomeLimits kBoxDropLimits{.max_penetration_m = 0.5,
                                .max_energy_gain_height_m = 0.5,
                                .escape_radius_m = 100.0,
                                .reach_distance_m = 0.05};

}  // namespace

std::vector<Column> BoxDropExperiment::columns() const {
  std::vector<Column> cols = FrequencyGridColumns("ic", "initial condition index (the same ICs in every cell)");
  const std::vector<Column> own = {
      {"steps", "steps requested: floor(duration * frequency)"},
      {"steps_done", "steps that succeeded"},
      {"failed_steps", "steps that did not converge (the run continues from their last iterate, as in the paper)"},
      {"failed", "a step did not succeed (solver non-convergence, non-finite state), no step ran, or the outcome is "
                 "impossible: the box went through the ground, gained energy, escaped or never came down", false, ColumnType::kBool},
      {"failure", "the first failure, for failed runs", false, ColumnType::kText},
      {"mean_iterations", "mean solver iterations per step"},
      {"max_iterations", "largest solver iteration count of a step"},
      {"max_penetration_m", "largest ground penetration after any step (our geometry)"},
      {"max_psdf_violation", "planar: largest max(0, -phi) of the P-SDF at the start of a step, as the "
                             "paper measured it (standalone collision program, rho 1e-4, 20 iterations)"},
      {"min_distance_m", "spatial: smallest exact mesh-mesh distance between the cube and the ground over the run, "
                         "start included (the cube's 12 triangles, the ground a 100 m box; < 0: interpenetration)"},
      {"final_height_m", "height of the body origin at the end (y planar, z spatial)"},
      {"mean_step_time_s", "mean wall time of a step", true},
      {"run_time_s", "wall time of the whole run", true},
  };
  cols.insert(cols.end(), own.begin(), own.end());
  return cols;
}

Sweep BoxDropExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const FrequencyGrid grid = ReadFrequencyGrid(config, name(), "initial_conditions", "ic");
  return ExpandFrequencyGrid(config, models, grid, [](const std::string& v) { return BoxDropScene(v); });
}

OutcomeLimits BoxDropExperiment::outcome_limits() const { return kBoxDropLimits; }

std::vector<Row> BoxDropExperiment::Run(const Case& c) const {
  const auto start = std::chrono::steady_clock::now();
  const auto grid_case = DecodeSettings<FrequencyGridSettings>(c);
  const std::string& variant = grid_case.variant;
  std::shared_ptr<const Scene> scene = BoxDropScene(variant);
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, scene, c.model_options);
  State state = BoxDropInitialState(variant, c.seed);
  const int height_index = variant == "planar" ? 1 : 2;
  std::unique_ptr<PsdfMeter> psdf;
  std::unique_ptr<ColliderDistances> distances;
  if (variant == "planar") psdf = std::make_unique<PsdfMeter>(*scene);
  else distances = std::make_unique<ColliderDistances>(*scene);
  double max_psdf = 0.0;
  if (distances) distances->Observe(state.q);

  const int steps = grid_case.steps();
  StepTally tally;
  if (steps < 1) tally.Fail("no step ran: floor(duration_s x frequency_hz) = " + std::to_string(steps));
  OutcomeMonitor outcome(*scene, state, kBoxDropLimits);
  for (int k = 0; k < steps && !tally.stop; ++k) {
    // The paper records poses at the start of each step (poses 0 .. H-1).
    if (psdf) max_psdf = std::max(max_psdf, psdf->Violation(state.q));
    tally.Record(k, sim->Step(state, Control{}));
    if (tally.stop) continue;
    if (distances) distances->Observe(state.q);
    if (std::string why = outcome.Observe(state); !why.empty()) tally.Fail("step " + std::to_string(k) + ": " + why, true);
  }
  if (std::string why = outcome.Finish(); !why.empty()) tally.Fail(why);
  Row row;
  row["steps"] = std::int64_t{steps};
  tally.WriteTo(&row);
  row["max_iterations"] = std::int64_t{tally.max_iterations};
  row["max_penetration_m"] = outcome.max_penetration_m();
  if (psdf) row["max_psdf_violation"] = max_psdf;
  if (distances) row["min_distance_m"] = distances->closest();
  row["final_height_m"] = state.q[height_index];
  row["mean_step_time_s"] = tally.mean_time();
  row["run_time_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return {row};
}

std::vector<ClaimResult> BoxDropExperiment::Summarize(const ResultTable& table) const {
  std::vector<ClaimResult> out;
  const ResultTable planar = table.Filter("variant", "planar");
  const ResultTable silico = planar.Filter("model", "silico");
  const ResultTable bilevel = planar.Filter("model", "bilevel");
  if (silico.num_rows() > 0) {
    ClaimResult r{"box_drop.failure_rate.silico"};
    r.ours = Mean(silico, "failed");
    r.note = std::to_string(silico.num_rows()) + " runs";
    out.push_back(r);
  }
  if (bilevel.num_rows() > 0) {
    ClaimResult r{"box_drop.failure_rate.bilevel"};
    r.ours = Mean(bilevel, "failed");
    r.note = std::to_string(bilevel.num_rows()) + " runs";
    out.push_back(r);
  }
  if (silico.num_rows() > 0 && bilevel.num_rows() > 0) {
    ClaimResult v{"box_drop.violation_ratio"};
    // The paper's violation is the P-SDF; every (frequency, rho) cell has the same number of
    // runs, so the mean over cells is the mean over runs.
    const double s = Mean(silico, "max_psdf_violation"), b = Mean(bilevel, "max_psdf_violation");
    const double sm = Mean(silico, "max_penetration_m"), bm = Mean(bilevel, "max_penetration_m");
    v.ours = b / std::max(s, 1e-12);
    v.note = "mean max P-SDF violation: bilevel " + options_detail::FormatDouble(b) + ", silico " +
             options_detail::FormatDouble(s) + "; in metres (our geometry): bilevel " +
             options_detail::FormatDouble(bm) + " m, silico " + options_detail::FormatDouble(sm) + " m";
    out.push_back(v);

    const ResultTable s10 = silico.FilterNumber("frequency_hz", 10.0), b10 = bilevel.FilterNumber("frequency_hz", 10.0);
    if (s10.num_rows() > 0 && b10.num_rows() > 0) {
      ClaimResult it{"box_drop.iterations_10hz"};
      const double si = Mean(s10, "mean_iterations"), bi = Mean(b10, "mean_iterations");
      it.ours = si / bi;
      it.ours_text = "silico " + options_detail::FormatDouble(si) + " vs bilevel " + options_detail::FormatDouble(bi);
      out.push_back(it);
    }
  }
  if (silico.num_rows() > 0) {
    // Iterations at the stiffest (smallest rho) vs the softest relaxation.
    const auto [lo, hi] = ExtremeValues(silico, "param_value");
    if (lo < hi) {
      ClaimResult t{"box_drop.iterations_vs_relaxation"};
      const double it_stiff = Mean(silico.FilterNumber("param_value", lo), "mean_iterations");
      const double it_soft = Mean(silico.FilterNumber("param_value", hi), "mean_iterations");
      t.ours = it_stiff / it_soft;
      t.ours_text = "rho " + FormatValue(lo) + ": " + options_detail::FormatDouble(it_stiff) +
                    " iterations, rho " + FormatValue(hi) + ": " + options_detail::FormatDouble(it_soft);
      out.push_back(t);
    }
  }
  return out;
}

std::vector<Observation> BoxDropExperiment::Observe(const ResultTable& table) const {
  std::vector<Observation> out;
  for (const std::string& model : table.Distinct("model")) {
    const ResultTable m = table.Filter("model", model);
    for (const std::string& variant : m.Distinct("variant")) {
      const ResultTable mv = m.Filter("variant", variant);
      for (const std::string& value : mv.Distinct("param_value")) {
        const ResultTable cell = mv.Filter("param_value", value);
        const std::string param = cell.num_rows() > 0 ? cell.Text(0, "param_name") : "";
        const std::string where = variant + (param.empty() ? "" : ", " + param + " = " + value);
        const ResultTable ok = cell.FilterBool("failed", false);
        out.push_back({"failure_rate", model, Mean(cell, "failed"), "",
                       where + " (" + std::to_string(cell.num_rows()) + " runs)"});
        out.push_back({"median_max_penetration", model, Median(ok, "max_penetration_m"), "m",
                       where + ", runs that did not fail"});
        if (const double closest = ExtremeValues(cell, "min_distance_m").first; !std::isnan(closest)) {
          out.push_back({"min_distance", model, closest, "m", where + ", smallest over every run (< 0: interpenetration)"});
        }
      }
    }
  }
  return out;
}

}  // namespace arena
