#include "experiments/stacking/stacking.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "experiments/common/settings/settings.h"
#include "experiments/common/meters/collider_distances.h"
#include "experiments/common/summaries/criteria_tally.h"
#include "experiments/common/sweeps/frequency_sweep.h"
#include "experiments/common/meters/outcome_checks.h"
#include "experiments/common/meters/resting_gaps.h"
#include "experiments/common/meters/step_tally.h"
#include "experiments/common/summaries/table_stats.h"
#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "core/common/error.h"
#include "models/registry.h"
#include "scenes/stacking_scenes.h"

namespace arena {

namespace {

constexpr double kStandTolerance = 0.05;       // m
constexpr double kBlockWeight = 1.0 * 9.81;    // N: what the upper block's contact carries
constexpr double kMaxStartGap = 0.25;          // m: half a block (scenes/stacking_scenes.h)
constexpr double kStandAngleTolerance = 0.1;   // rad

// What a run may not do, whatever its steps reported (experiments/common/meters/outcome_checks.h): a
// block 0.5 m (its side) inside the ground or the other block has gone through it; a tower at
// rest has no energy to give, so more than lifting both blocks 0.5 m is energy the model made;
// a block 100 m from the origin has blown up.
constexpr OutcomeLimits kStackingLimits{.max_penetration_m = 0.5, .max_energy_gain_height_m = 0.5, .escape_radius_m = 100.0};

// The parameter stacking adds to the frequency grid's.
struct StackingGap {
  double initial_gap_m = 0.0;

  template <class V>
  void VisitFields(V&& v) {
    v("initial_gap_m", initial_gap_m, "start gap between the ground, the lower and the upper block", "m",
      Closed(0.0, kMaxStartGap), SettingRole::kCase);
  }
};

// What Run reads back: the grid's parameters, the configuration (the grid's instance) and the gap.
struct StackingCase {
  FrequencyGridSettings grid;
  std::int64_t config = 0;
  StackingGap gap;

  template <class V>
  void VisitFields(V&& v) {
    grid.VisitFields(v);
    v("config", config, "configuration: lower block shifted by 0.02 (config + 1) m", "", std::nullopt,
      SettingRole::kCase);
    gap.VisitFields(v);
  }
};

}  // namespace

std::vector<Column> StackingExperiment::columns() const {
  std::vector<Column> cols = FrequencyGridColumns("config", "configuration: lower block shifted by 0.02 (config + 1) m");
  const std::vector<Column> own = {
      {"initial_gap_m", "start gap between the ground, the lower and the upper block: 0 (touching, the paper's), "
                        "or for the barrier models where their blocks rest (longrange sqrt(48 mu / m g), ipc 0.8 dhat)"},
      {"steps", "steps requested: floor(duration * frequency)"},
      {"steps_done", "steps that succeeded"},
      {"failed_steps", "steps that did not converge (the run continues from their last iterate, as in the paper)"},
      {"failed", "a step did not succeed (solver non-convergence, non-finite state), no step ran, or the outcome is "
                 "impossible: a block went through the ground or the other block, gained energy or escaped", false, ColumnType::kBool},
      {"failure", "the first failure, for failed runs", false, ColumnType::kText},
      {"mean_iterations", "mean solver iterations per step"},
      {"min_distance_m", "spatial: smallest exact mesh-mesh distance between the two blocks and between each block and "
                         "the ground over the run, start included (12-triangle cubes, the ground a 100 m box; < 0: "
                         "interpenetration)"},
      {"linear_momentum_error", "mean over steps and components of |total linear momentum| (kg m/s)"},
      {"angular_momentum_error", "mean over steps of |total angular momentum| (kg m^2/s)"},
      {"max_drift_m", "largest displacement of a block from its start"},
      {"max_rotation_rad", "largest rotation of a block from its start"},
      {"upright", "both blocks stayed within 5 cm and 0.1 rad of their start (whatever the solver reported)", false, ColumnType::kBool},
      {"stands", "upright and the run did not fail", false, ColumnType::kBool},
      {"run_time_s", "wall time of the whole run", true},
  };
  cols.insert(cols.end(), own.begin(), own.end());
  const std::vector<Column> criteria = CriteriaTally::Columns();
  cols.insert(cols.end(), criteria.begin(), criteria.end());
  return cols;
}

Sweep StackingExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const FrequencyGrid grid = ReadFrequencyGrid(config, name(), "configurations", "config");
  Sweep sweep = ExpandFrequencyGrid(config, models, grid, [](const std::string& v) { return StackingScene(v, 0); });
  for (Case& c : sweep.cases) {
    const double gap = StackStartGap(c.model, c.model_options, kBlockWeight);
    if (!(gap < kMaxStartGap)) {
      throw InvalidArgument("stacking: case '" + c.id + "' would start its blocks " + options_detail::FormatDouble(gap) +
                            " m apart (longrange: sqrt(48 mu / m g), ipc: 0.8 dhat); give a mu or dhat for which that "
                            "is below " + options_detail::FormatDouble(kMaxStartGap) + " m");
    }
    const std::vector<std::pair<std::string, Value>> added = CaseParams(StackingGap{gap});
    c.params.insert(c.params.end(), added.begin(), added.end());
  }
  return sweep;
}

OutcomeLimits StackingExperiment::outcome_limits() const { return kStackingLimits; }

std::vector<Row> StackingExperiment::Run(const Case& c) const {
  const auto start = std::chrono::steady_clock::now();
  const StackingCase s = DecodeSettings<StackingCase>(c);
  const std::string& variant = s.grid.variant;
  const int config = static_cast<int>(s.config);
  const bool planar = variant == "planar";
  std::shared_ptr<const Scene> scene = StackingScene(variant, config, s.gap.initial_gap_m);
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, scene, c.model_options);
  State state = DefaultState(*scene);
  std::unique_ptr<ColliderDistances> distances;
  if (!planar) distances = std::make_unique<ColliderDistances>(*scene);
  if (distances) distances->Observe(state.q);
  const State initial = state;
  const int steps = s.grid.steps();
  const int nb = scene->model.num_bodies();

  double sum_linear = 0.0, sum_angular = 0.0;
  double max_drift = 0.0, max_rotation = 0.0;
  int recorded = 0;
  StepTally tally;
  if (steps < 1) tally.Fail("no step ran: floor(duration_s x frequency_hz) = " + std::to_string(steps));
  OutcomeMonitor outcome(*scene, state, kStackingLimits);
  CriteriaTally criteria(*scene, state);
  for (int k = 0; k < steps && !tally.stop; ++k) {
    // Momentum of the state at the start of the step (the paper's recording convention).
    Vec3 linear = Vec3::Zero();
    double angular = 0.0;
    for (int b = 0; b < nb; ++b) {
      const BodyModel& body = scene->model.body(b);
      const double m = body.inertia.mass();
      if (planar) {
        const double th = state.q[body.idx_q + 2];
        linear.head<2>() += m * (Eigen::Rotation2Dd(th) * state.v.segment<2>(body.idx_v + 1));
        angular += body.inertia.inertia_com()(2, 2) * state.v[body.idx_v];
      } else {
        // Free joint: q = (p, quat w x y z), v = (omega_B, v_B).
        const Quat quat(state.q[body.idx_q + 3], state.q[body.idx_q + 4], state.q[body.idx_q + 5],
                        state.q[body.idx_q + 6]);
        const Mat3 R = quat.normalized().toRotationMatrix();
        linear += m * (R * state.v.segment<3>(body.idx_v + 3));
        angular += (R * (body.inertia.inertia_com() * state.v.segment<3>(body.idx_v))).norm();
      }
    }
    sum_linear += planar ? 0.5 * (std::abs(linear.x()) + std::abs(linear.y())) : linear.cwiseAbs().mean();
    sum_angular += std::abs(angular);
    ++recorded;

    tally.Record(k, sim->Step(state, Control{}));
    if (tally.stop) continue;
    criteria.Record(*sim, state);
    for (int b = 0; b < nb; ++b) {
      const BodyModel& body = scene->model.body(b);
      if (planar) {
        max_drift = std::max(max_drift, (state.q.segment<2>(body.idx_q) - initial.q.segment<2>(body.idx_q)).norm());
        max_rotation = std::max(max_rotation, std::abs(state.q[body.idx_q + 2] - initial.q[body.idx_q + 2]));
      } else {
        max_drift = std::max(max_drift, (state.q.segment<3>(body.idx_q) - initial.q.segment<3>(body.idx_q)).norm());
        const Quat q0(initial.q[body.idx_q + 3], initial.q[body.idx_q + 4], initial.q[body.idx_q + 5],
                      initial.q[body.idx_q + 6]);
        const Quat q1(state.q[body.idx_q + 3], state.q[body.idx_q + 4], state.q[body.idx_q + 5],
                      state.q[body.idx_q + 6]);
        max_rotation = std::max(max_rotation, q0.normalized().angularDistance(q1.normalized()));
      }
    }
    if (distances) distances->Observe(state.q);
    if (std::string why = outcome.Observe(state); !why.empty()) tally.Fail("step " + std::to_string(k) + ": " + why, true);
  }
  if (!std::isfinite(sum_linear) || !std::isfinite(sum_angular) || !std::isfinite(max_drift) ||
      !std::isfinite(max_rotation)) {
    tally.Fail("the momentum or the drift is not finite", true);
  }
  Row row;
  row["steps"] = std::int64_t{steps};
  tally.WriteTo(&row);
  if (distances) row["min_distance_m"] = distances->closest();
  row["linear_momentum_error"] = recorded > 0 ? sum_linear / recorded : 0.0;
  row["angular_momentum_error"] = recorded > 0 ? sum_angular / recorded : 0.0;
  row["max_drift_m"] = max_drift;
  row["max_rotation_rad"] = max_rotation;
  const bool upright =
      tally.attempted > 0 && !tally.stop && max_drift < kStandTolerance && max_rotation < kStandAngleTolerance;
  row["upright"] = upright;
  row["stands"] = upright && tally.succeeded();
  criteria.WriteTo(&row);
  row["run_time_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return {row};
}

std::vector<ClaimResult> StackingExperiment::Summarize(const ResultTable& table) const {
  std::vector<ClaimResult> out;
  const ResultTable planar = table.Filter("variant", "planar");
  const ResultTable silico = planar.Filter("model", "silico");
  const ResultTable bilevel = planar.Filter("model", "bilevel");
  if (silico.num_rows() > 0) {
    ClaimResult r{"stacking.stable_fraction.silico"};
    r.ours = Mean(silico, "stands");
    r.note = std::to_string(silico.num_rows()) + " runs";
    out.push_back(r);
  }
  if (silico.num_rows() > 0 && bilevel.num_rows() > 0) {
    ClaimResult r{"stacking.momentum_ratio"};
    const double s = Mean(silico, "linear_momentum_error"), b = Mean(bilevel, "linear_momentum_error");
    r.ours = b / std::max(s, 1e-300);
    r.note = "mean linear momentum error: bilevel " + options_detail::FormatDouble(b) + ", silico " +
             options_detail::FormatDouble(s) + " kg m/s; bilevel towers upright: " +
             options_detail::FormatDouble(Mean(bilevel, "upright")) + ", with every step converged: " +
             options_detail::FormatDouble(Mean(bilevel, "stands"));
    out.push_back(r);
  }
  return out;
}

std::vector<Observation> StackingExperiment::Observe(const ResultTable& table) const {
  std::vector<Observation> out;
  for (const std::string& model : table.Distinct("model")) {
    const ResultTable m = table.Filter("model", model);
    for (const std::string& variant : m.Distinct("variant")) {
      const ResultTable mv = m.Filter("variant", variant);
      const std::string where = variant + " (" + std::to_string(mv.num_rows()) + " runs)";
      out.push_back({"stable_fraction", model, Mean(mv, "stands"), "", where});
      out.push_back({"linear_momentum_error", model, Mean(mv, "linear_momentum_error"), "kg m/s", where});
      if (const double closest = ExtremeValues(mv, "min_distance_m").first; !std::isnan(closest)) {
        out.push_back({"min_distance", model, closest, "m", where + ", smallest over every run (< 0: interpenetration)"});
      }
    }
  }
  return out;
}

}  // namespace arena
