// `arena`: list experiments, models and scenes, inspect a scene, run experiments, write the
// report.
//
//   arena list [--names] [--plots EXPERIMENT]
//   arena models [--options MODEL]
//   arena scenes [--names | --details]
//   arena inspect SCENE|FILE [--strict] [SCENE OPTIONS]
//   arena run EXPERIMENT|all [--profile quick|paper|smoke] [--models a,b] [--set key=value]...
//             [--threads N] [--case-timeout SECONDS] [--out DIR] [--no-progress] [--fresh]
//             [--retry-failed]
//   arena report [--results DIR] [--claims FILE] [--plots DIR]
//   arena gradcheck --model M --scene SCENE|FILE [--states N] [--seed S] [--tolerance T] [--design-directions N]
//                   [--set option=value]... [SCENE OPTIONS]
//
// SCENE is a registered scene name (`arena scenes`), FILE a URDF, MJCF or mesh file. SCENE
// OPTIONS (harness/scene_arguments.h): --package NAME=DIR, --exclude A:B, --srdf FILE,
// --set self_collision=false. `arena run` takes none: experiments build registered scenes.
//
// Exit status: 0 success, 2 bad input (unknown experiment, model, option or key; malformed
// file), 1 runtime failure. Errors are printed as "arena: error: <message>" on stderr.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <mpi.h>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/common/error.h"
#include "core/common/strings.h"
#include "experiments/registry.h"
#include "harness/compare.h"
#include "harness/inspect_colliders.h"
#include "harness/design_export.h"
#include "harness/gradcheck.h"
#include "harness/merge.h"
#include "harness/report.h"
#include "harness/run_info.h"
#include "harness/runner.h"
#include "harness/scene_arguments.h"
#include "harness/scene_labels.h"
#include "models/registry.h"
#include "scenes/scene_registry.h"

namespace arena {
namespace {

constexpr int kBadInput = 2;
constexpr int kFailure = 1;

// Prints rows under a header with columns padded to their widest cell; the last column is not
// padded.
void PrintTable(const std::vector<std::string>& header,
                const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width(header.size(), 0);
  for (size_t c = 0; c < header.size(); ++c) width[c] = header[c].size();
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size() && c < width.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  auto print = [&](const std::vector<std::string>& row) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      line += row[c];
      if (c + 1 < row.size()) line += std::string(width[c] - row[c].size() + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    std::cout << line << '\n';
  };
  print(header);
  for (const auto& row : rows) print(row);
}

// Numbers for reading, not for round trips.
std::string Num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6g", x);
  return buf;
}

int List(bool names_only, const std::string& plots_of) {
  if (!plots_of.empty()) {
    for (const std::string& p : FindExperiment(plots_of).plots()) std::cout << p << '\n';
    return 0;
  }
  if (names_only) {
    for (const auto& e : Experiments()) std::cout << e->name() << '\n';
    return 0;
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& e : Experiments()) rows.push_back({e->name(), e->paper(), e->description()});
  if (rows.empty()) {
    std::cout << "no experiments registered (experiments/registry.cc)\n";
    return 0;
  }
  PrintTable({"EXPERIMENT", "PAPER", "DESCRIPTION"}, rows);
  return 0;
}

int ListModels(const std::string& options_of) {
  if (!options_of.empty()) {
    const ModelInfo& m = FindModel(options_of);
    std::vector<std::vector<std::string>> rows;
    for (const OptionInfo& o : m.options()) rows.push_back({o.key, o.type, o.default_value, o.unit, o.doc});
    std::cout << m.name << ": " << m.description << "\n\n";
    PrintTable({"OPTION", "TYPE", "DEFAULT", "UNIT", "DOC"}, rows);
    return 0;
  }
  std::vector<std::vector<std::string>> rows;
  for (const ModelInfo& m : Models()) {
    rows.push_back({m.name, m.capabilities.ToString(), m.paper.empty() ? "-" : m.paper, m.description});
  }
  if (rows.empty()) {
    std::cout << "no models registered (models/registry.cc)\n";
    return 0;
  }
  PrintTable({"MODEL", "CAPABILITIES", "PAPER", "DESCRIPTION"}, rows);
  return 0;
}

// `details`: builds every scene (Atlas loads its meshes) and adds its dimensions.
int ListScenes(bool names_only, bool details) {
  if (names_only) {
    for (const SceneInfo& s : Scenes()) std::cout << s.name << '\n';
    return 0;
  }
  std::vector<std::vector<std::string>> rows;
  for (const SceneInfo& s : Scenes()) {
    if (!details) {
      rows.push_back({s.name, s.paper, s.description});
      continue;
    }
    const std::shared_ptr<const Scene> scene = s.build();
    rows.push_back({s.name, std::to_string(scene->model.num_bodies()), std::to_string(scene->nq()),
                    std::to_string(scene->nv()), std::to_string(scene->nu()),
                    std::to_string(scene->colliders.size()), scene->IsPlanar() ? "yes" : "no", s.paper});
  }
  if (details) {
    PrintTable({"SCENE", "BODIES", "NQ", "NV", "NU", "COLLIDERS", "PLANAR", "PAPER"}, rows);
  } else {
    PrintTable({"SCENE", "PAPER", "DESCRIPTION"}, rows);
  }
  return 0;
}

// The collider pairs every model tests (Scene::CollisionPairs), all of them (users grep for a
// link), under a count of the pairs each rule removed (Scene::Exclusion's order).
void PrintCollisionPairs(const Scene& scene) {
  auto body_name = [&](int b) { return BodyLabel(scene, b); };
  auto collider_name = [&](int c) { return ColliderLabel(scene, c); };
  const int n = static_cast<int>(scene.colliders.size());
  std::map<PairExclusion, int> excluded;
  std::vector<std::vector<std::string>> rows;
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      const PairExclusion why = scene.Exclusion(a, b);
      if (why != PairExclusion::kNone) {
        ++excluded[why];
        continue;
      }
      rows.push_back({collider_name(a), body_name(scene.colliders[a].body), collider_name(b),
                      body_name(scene.colliders[b].body)});
    }
  }
  const long total = static_cast<long>(n) * (n - 1) / 2;
  std::cout << "\ncollision pairs (" << rows.size() << " of " << total << " collider pairs; excluded: "
            << excluded[PairExclusion::kParentChild] << " parent-child, " << excluded[PairExclusion::kSameTree]
            << " same tree (self_collision=" << (scene.self_collision ? "true" : "false") << "), "
            << excluded[PairExclusion::kExcludedPair] << " named (file, --exclude, --srdf), "
            << excluded[PairExclusion::kDefaultPoseOverlap] << " overlapping at the default pose, "
            << excluded[PairExclusion::kSameBody] << " same body, " << excluded[PairExclusion::kGroupMask]
            << " group/mask)\n";
  if (!rows.empty()) PrintTable({"COLLIDER_A", "BODY_A", "COLLIDER_B", "BODY_B"}, rows);
}

// Registers the scene options (harness/scene_arguments.h) on a scene-taking command; `set_help`
// says what its --set takes.
void AddSceneArguments(CLI::App* command, SceneArguments* args, const std::string& set_help) {
  command->add_option("--package", args->packages,
                      "NAME=DIR: package://NAME/ in URDF meshes is DIR (before ROS_PACKAGE_PATH and "
                      "the folders above the URDF); repeatable")
      ->allow_extra_args(false);
  command->add_option("--exclude", args->excludes,
                      "A:B: colliders of bodies (URDF links, MJCF bodies; 'world') A and B are never "
                      "tested; repeatable")
      ->allow_extra_args(false);
  command->add_option("--srdf", args->srdf, "SRDF file: its <disable_collisions> link pairs are never tested");
  command->add_option("--set", args->sets, set_help)->allow_extra_args(false);
}

// Describes the scene; invalid scenes never get here (loading or building throws). Warnings
// (Scene::Check: legal but suspicious) are listed with --strict, which then exits 2; without it,
// one line says how many there are.
// With a model, what it makes of the colliders (harness/inspect_colliders.h).
void PrintContactGeometry(const ContactGeometryTable& t) {
  for (const std::string& w : t.warnings) std::cout << "\nwarning: " << w << "\n";
  if (!t.title.empty()) {
    std::cout << "\n" << t.title << " (" << t.rows.size() << ")\n";
    PrintTable(t.header, t.rows);
  }
  if (!t.note.empty()) std::cout << (t.title.empty() ? "\n" : "") << t.note << "\n";
}

int Inspect(const std::string& name_or_file, const SceneLoadOptions& options, bool strict, const std::string& contact_model,
            const std::map<std::string, std::string>& model_options) {
  const std::shared_ptr<const Scene> built = MakeScene(name_or_file, options);
  const Scene& scene = *built;
  // Built before anything is printed: an unknown model or option is an error, not a half answer.
  ContactGeometryTable contact;
  if (!contact_model.empty()) contact = DescribeContactGeometry(built, contact_model, model_options);
  const MultibodyModel& model = scene.model;
  auto body_name = [&](int b) { return BodyLabel(scene, b); };
  const Vec3& g = model.gravity();
  std::cout << "scene " << scene.name << " (" << scene.source << ")\n";
  std::cout << "nq " << scene.nq() << ", nv " << scene.nv() << ", nu " << scene.nu() << ", total mass "
            << Num(model.TotalMass()) << " kg, gravity (" << Num(g.x()) << ", " << Num(g.y()) << ", "
            << Num(g.z()) << ") m/s^2";
  if (scene.timestep_hint > 0) std::cout << ", timestep " << Num(scene.timestep_hint) << " s";
  std::cout << (scene.IsPlanar() ? ", planar" : "") << "\n\n";

  std::vector<std::vector<std::string>> rows;
  for (int b = 0; b < model.num_bodies(); ++b) {
    const BodyModel& body = model.body(b);
    rows.push_back({std::to_string(b), body.name, body_name(body.parent),
                    std::string(ToString(body.joint.type)),
                    body.joint.name.empty() ? "-" : body.joint.name, Num(body.inertia.mass())});
  }
  std::cout << "bodies (" << rows.size() << ")\n";
  PrintTable({"#", "BODY", "PARENT", "JOINT", "JOINT_NAME", "MASS_KG"}, rows);

  rows.clear();
  for (const Collider& c : scene.colliders) {
    rows.push_back({c.name.empty() ? "-" : c.name, std::string(ToString(TypeOf(c.shape))),
                    body_name(c.body), Num(c.friction)});
  }
  std::cout << "\ncolliders (" << rows.size() << ")\n";
  PrintTable({"COLLIDER", "SHAPE", "BODY", "FRICTION"}, rows);

  rows.clear();
  for (const Actuator& a : scene.actuators) {
    const bool torque = a.type == ActuatorType::kTorque;
    rows.push_back({a.name, ToString(a.type), body_name(a.body), std::to_string(a.dof),
                    torque ? "gear " + Num(a.gear) : "kp " + Num(PositionGain(a)) + " kd " + Num(a.kd),
                    "[" + Num(a.ctrl_lower) + ", " + Num(a.ctrl_upper) + "]"});
  }
  std::cout << "\nactuators (" << rows.size() << ")\n";
  PrintTable({"ACTUATOR", "TYPE", "BODY", "DOF", "GAINS", "CTRL_RANGE"}, rows);
  PrintCollisionPairs(scene);
  if (!contact_model.empty()) PrintContactGeometry(contact);

  const std::vector<SceneIssue> warnings = scene.Check();
  if (warnings.empty()) return 0;
  if (!strict) {
    std::fprintf(stderr, "arena: %zu warning(s); 'arena inspect --strict' lists them\n", warnings.size());
    return 0;
  }
  for (const SceneIssue& w : warnings) {
    const std::string what = scene.Describe(w);
    std::fprintf(stderr, "arena: warning: %s: %s%s\n", scene.source.c_str(),
                 what.empty() ? "" : (what + ": ").c_str(), w.problem.c_str());
  }
  return kBadInput;
}

// A path option given as an empty string (an unset shell variable: --out "$RESULTS") is an
// error, not a fallback to the default.
void RequireNonEmpty(const CLI::Option* option, const std::string& value, const std::string& default_text) {
  if (option->count() > 0 && Trim(value).empty()) {
    throw InvalidArgument(option->get_name() + " is empty (an unset shell variable?); give a path, or leave " +
                          option->get_name() + " out for " + default_text);
  }
}

// Runs one experiment or all; returns the exit status (the worst over experiments).
// The exit status of an error: bad input (the user can fix the command or a file) or a failure.
int StatusOf(const std::exception& e) {
  const bool bad_input = dynamic_cast<const InvalidArgument*>(&e) != nullptr ||
                         dynamic_cast<const ParseError*>(&e) != nullptr ||
                         dynamic_cast<const Unsupported*>(&e) != nullptr;
  return bad_input ? kBadInput : kFailure;
}

int Run(const std::string& target, const RunOptions& options) {
  std::vector<const Experiment*> todo;
  if (target == "all") {
    for (const auto& e : Experiments()) todo.push_back(e.get());
    if (todo.empty()) spdlog::warn("no experiments registered");
  } else {
    todo.push_back(&FindExperiment(target));
  }
  int status = 0;
  for (const Experiment* e : todo) {
    try {
      const RunSummary s = RunExperiment(*e, options);
      std::cout << s.csv_path << '\n';
    } catch (const std::exception& ex) {
      if (todo.size() == 1) throw;
      std::fprintf(stderr, "arena: error: %s: %s\n", e->name().c_str(), ex.what());
      status = std::max(status, StatusOf(ex));
    }
  }
  return status;
}

// "K/N" -> (K, N); the range is checked with the other run options.
void ParseShard(const std::string& text, RunOptions* options) {
  const size_t slash = text.find('/');
  try {
    if (slash == std::string::npos) throw InvalidArgument("");
    size_t used_k = 0, used_n = 0;
    options->shard = std::stoi(text.substr(0, slash), &used_k);
    options->shards = std::stoi(text.substr(slash + 1), &used_n);
    if (used_k != slash || used_n != text.size() - slash - 1) throw InvalidArgument("");
  } catch (const std::exception&) {
    throw InvalidArgument("--shard '" + text + "': give K/N, this run being shard K of N (1 <= K <= N)");
  }
}

// `arena merge E|all DIR...`: every experiment with results in the shard folders.
int Merge(const std::string& target, const std::vector<std::string>& dirs, const RunOptions& options) {
  std::vector<const Experiment*> todo;
  if (target == "all") {
    for (const auto& e : Experiments()) {
      for (const std::string& d : dirs) {
        if (std::filesystem::exists(ExperimentResultsDir(d, e->name()) + "/" + e->name() + ".csv")) {
          todo.push_back(e.get());
          break;
        }
      }
    }
    if (todo.empty()) throw InvalidArgument("merge: no results of a registered experiment in " + Join(dirs));
  } else {
    todo.push_back(&FindExperiment(target));
  }
  for (const Experiment* e : todo) std::cout << MergeShards(*e, dirs, options).csv_path << '\n';
  return 0;
}

// `mpirun -np N arena run E --mpi`: rank r runs shard r + 1 of N into <out>/shards/<K>-of-<N>
// (each resumable on its own), and once every rank has finished, rank 0 merges the shards into
// <out> (harness/merge.h), replacing what was there. A rank's error is its exit status; no merge
// runs unless every rank succeeded.
int RunMpi(const std::string& target, const RunOptions& options) {
  MPI_Init(nullptr, nullptr);
  struct Finalize {
    ~Finalize() { MPI_Finalize(); }
  } finalize;
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::string root = options.out_dir.empty() ? SourceDir() + "/results" : options.out_dir;
  auto shard_dir = [&](int k) { return root + "/shards/" + std::to_string(k) + "-of-" + std::to_string(size); };
  RunOptions shard = options;
  shard.shard = rank + 1;
  shard.shards = size;
  shard.out_dir = shard_dir(rank + 1);
  int status = 0;
  try {
    status = Run(target, shard);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "arena: error: rank %d: %s\n", rank, e.what());
    status = StatusOf(e);
  }
  int worst = 0;
  MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (worst != 0 || rank != 0) return worst;
  std::vector<std::string> dirs;
  for (int k = 1; k <= size; ++k) dirs.push_back(shard_dir(k));
  RunOptions merge = options;
  merge.out_dir = root;
  merge.fresh = true;
  return Merge(target, dirs, merge);
}

int Report(const std::string& results_dir, const std::string& claims_file, const std::string& plots_dir) {
  ReportOptions options;
  options.plots_dir = plots_dir;
  const ReportSummary s = WriteReport(results_dir, claims_file, options);
  std::cout << s.markdown_path << '\n';
  spdlog::info("report: {} reproduced, {} differs, {} not run, {} not decided at their profile; {} observations -> {}",
               s.reproduced, s.differs, s.not_run, s.not_decided, s.observed, s.markdown_path);
  if (!s.errors.empty()) {
    for (const auto& e : s.errors) std::fprintf(stderr, "arena: error: summary of %s\n", e.c_str());
    return kFailure;
  }
  return 0;
}

// Exit status: 0 when B regresses nothing against A, 1 when it does (harness/compare.h).
int Compare(const std::string& dir_a, const std::string& dir_b, const std::string& claims_file, double tolerance) {
  CompareOptions options;
  options.tolerance = tolerance;
  const Comparison c = CompareResults(dir_a, dir_b, claims_file, options);
  std::cout << FormatComparison(c, dir_a, dir_b);
  return c.regressed() ? kFailure : 0;
}

// Exit status: 0 when every block is within the tolerance, 1 above it.
int Gradcheck(GradcheckOptions options) {
  options.warn = [](const std::string& w) { std::cout << "warning: " << w << "\n" << std::flush; };
  const GradcheckResult r = RunGradcheck(options);
  std::cout << "gradcheck: " << options.model << " (derivatives: " << ToString(r.derivatives) << ") on "
            << options.scene << ", " << options.states << " states (" << r.states_in_contact << " in contact, " << r.states_free
            << " free), against Ridders from " << Num(options.ridders_step) << "\n";
  if (r.states_at_events > 0) {
    std::cout << r.states_at_events << " state(s) at a contact event (a perturbed step changed the contact set"
              << " or mode): reported apart, not judged\n";
  }
  std::vector<std::vector<std::string>> rows;
  for (const GradcheckBlock& b : r.blocks) {
    rows.push_back({b.name, Num(b.max_error), b.worst_state >= 0 ? std::to_string(b.worst_state) : "-",
                    r.states_at_events > 0 ? Num(b.max_error_at_events) : "-"});
  }
  PrintTable({"jacobian", "max_rel_error", "worst_state", "at_events"}, rows);
  if (r.states_at_events == options.states) {
    std::cout << "FAIL: every state is at a contact event; nothing to judge (try --ridders-step smaller)\n";
  } else {
    std::cout << (r.passed ? "PASS" : "FAIL") << ": max " << Num(r.max_error) << (r.passed ? " <= " : " > ")
              << Num(options.tolerance) << "\n";
  }
  return r.passed ? 0 : kFailure;
}

// The commands the registered experiments offer (Experiment::commands), each a subcommand of its
// own with its options as --<key> <value>; the CLI knows nothing of what they do.
struct OfferedCommand {
  ExperimentCommand command;
  CLI::App* app = nullptr;
  std::map<std::string, std::string> values;
};

std::vector<std::unique_ptr<OfferedCommand>> AddExperimentCommands(CLI::App& app) {
  std::vector<std::unique_ptr<OfferedCommand>> offered;
  for (const auto& e : Experiments()) {
    for (ExperimentCommand& c : e->commands()) {
      auto o = std::make_unique<OfferedCommand>();
      o->command = std::move(c);
      o->app = app.add_subcommand(o->command.name, o->command.description + " (experiment " + e->name() + ")");
      for (const ExperimentCommand::Option& option : o->command.options) {
        std::string& value = o->values[option.key];
        value = option.source_path ? SourceDir() + "/" + option.default_value : option.default_value;
        o->app->add_option("--" + option.key, value, option.help)->capture_default_str();
      }
      offered.push_back(std::move(o));
    }
  }
  return offered;
}

int Main(int argc, char** argv) {
  CLI::App app{"ContactArena: reproduce and compare differentiable contact models"};
  app.name("arena");
  app.require_subcommand(1);

  auto* list = app.add_subcommand("list", "List experiments with their paper reference");
  bool names_only = false;
  std::string plots_of;
  list->add_flag("--names", names_only, "Print only the experiment names, one per line");
  list->add_option("--plots", plots_of, "Print the plot scripts of EXPERIMENT, one per line");

  auto* models = app.add_subcommand("models", "List contact models and their capabilities");
  std::string options_of;
  models->add_option("--options", options_of, "List the options of MODEL");

  auto* scenes = app.add_subcommand("scenes", "List the registered scenes with their paper reference");
  bool scene_names_only = false;
  bool scene_details = false;
  auto* scene_names_flag = scenes->add_flag("--names", scene_names_only, "Print only the scene names, one per line");
  scenes->add_flag("--details", scene_details, "Build every scene and print its bodies, nq, nv, nu and colliders")
      ->excludes(scene_names_flag);

  auto* inspect = app.add_subcommand(
      "inspect", "Describe a scene: a registered name or a URDF, MJCF, STL or OBJ file (a design file: its hulls)");
  std::string scene_file;
  inspect->add_option("scene", scene_file, "Registered scene (arena scenes) or scene file")->required();
  bool strict = false;
  inspect->add_flag("--strict", strict,
                    "Also list warnings (legal but suspicious: massless moving links, colliders "
                    "under 1 mm or over 1 km, mass ratios over 1e4, ...) and exit 2 if any");
  std::string inspect_model;
  inspect->add_option("--model", inspect_model,
                      "Also show what this model makes of the colliders (longrange, ipc: triangle meshes; sdrs: "
                      "the convex hull of each, and which colliders are not convex)");
  SceneArguments inspect_scene;
  AddSceneArguments(inspect, &inspect_scene,
                    "Scene key (key=value), or with --model a model option; repeatable. self_collision=false: "
                    "links of one robot (one tree under the world) are not tested against each other");

  const std::vector<std::unique_ptr<OfferedCommand>> offered = AddExperimentCommands(app);

  auto* export_design = app.add_subcommand(
      "export-design", "Write a co-design run's designed hulls (its design rows) as an OBJ file to open or print");
  DesignExportOptions export_options;
  export_design->add_option("csv", export_options.csv, "Results CSV of a co-design experiment (e.g. results/spider/spider.csv)")
      ->required();
  export_design->add_option("--out", export_options.out, "OBJ file to write")->required();
  export_design->add_option("--case", export_options.case_id, "Case id (default: the only case with a design)");
  export_design->add_option("--stage", export_options.stage, "optimised (the best iterate) or initial")
      ->check(CLI::IsMember({"optimised", "initial"}))
      ->capture_default_str();

  auto* run = app.add_subcommand("run", "Run an experiment's sweep (or all experiments)");
  RunOptions run_options;
  std::string target;
  bool no_progress = false;
  run->add_option("experiment", target, "Experiment name, or 'all'")->required();
  run->add_option("--profile", run_options.profile, "Config profile: quick, paper, or smoke (quick shrunk by the config's [smoke] table)")
      ->capture_default_str();
  run->add_option("--models", run_options.models, "Models to run (default: the config's list)")
      ->delimiter(',');
  run->add_option("--set", run_options.overrides,
                  "Override a config key (key=value) or a model option (model.option=value); "
                  "repeatable")
      ->allow_extra_args(false);
  // The range is checked with the other run options (a message that says what to give).
  run->add_option("--threads", run_options.threads, "Worker threads (0: all cores; at most 1024)");
  auto* case_timeout_option =
      run->add_option("--case-timeout", run_options.case_timeout_s,
                      "Wall-clock budget of one case in seconds (default: the profile's case_timeout_s, "
                      "else 3600); a case that runs longer is recorded as failed and the sweep goes on");
  auto* out_option = run->add_option("--out", run_options.out_dir, "Results folder (default: <repo>/results)");
  auto* config_dir_option = run->add_option("--config-dir", run_options.config_dir,
                                            "Config folder: <dir>/<experiment>/config.toml or <dir>/<experiment>.toml (default: <repo>/experiments)");
  run->add_flag("--no-progress", no_progress, "No progress bar or progress log");
  run->add_flag("--fresh", run_options.fresh, "Discard this experiment's existing results first");
  run->add_flag("--retry-failed", run_options.retry_failed,
                "Rerun cases whose existing rows have an error");
  bool mpi = false;
  run->add_flag("--mpi", mpi,
                "Under mpirun -np N: each rank runs one of N shards into <out>/shards/, then rank 0 merges them into "
                "<out>");
  std::string shard_text;
  run->add_option("--shard", shard_text,
                  "K/N: run the K-th of N deterministic parts of the sweep (one results folder each; arena merge "
                  "combines them)");

  auto* merge = app.add_subcommand("merge", "Combine the results folders of a sweep's shards (arena run --shard K/N)");
  std::string merge_target;
  std::vector<std::string> merge_dirs;
  RunOptions merge_options;
  merge->add_option("experiment", merge_target, "Experiment name, or 'all'")->required();
  merge->add_option("shards", merge_dirs, "The shards' results folders")->required();
  auto* merge_out_option =
      merge->add_option("--out", merge_options.out_dir, "Results folder to write (default: <repo>/results)");
  merge->add_option("--config-dir", merge_options.config_dir, "Config folder: <dir>/<experiment>/config.toml or <dir>/<experiment>.toml (default: <repo>/experiments)");
  merge->add_flag("--fresh", merge_options.fresh, "Replace results already in the output folder");

  auto* report = app.add_subcommand("report", "Write results/REPORT.md and results/report.json");
  std::string results_dir = SourceDir() + "/results";
  std::string claims_file = SourceDir() + "/experiments";
  auto* results_option = report->add_option("--results", results_dir, "Results folder")->capture_default_str();
  auto* claims_option = report->add_option("--claims", claims_file, "Claims: a claims.toml, or a folder of experiment folders each with its claims.toml")->capture_default_str();
  std::string plots_dir;
  report->add_option("--plots", plots_dir, "Folder of the figures REPORT.md links (default: <repo>/plots/out)");

  auto* compare = app.add_subcommand(
      "compare", "Compare two results folders head to head: claims, and every non-timing cell of the experiments both "
                 "ran (exit status 1 on a regression)");
  std::string compare_a, compare_b;
  double compare_tolerance = 1e-9;
  compare->add_option("A", compare_a, "Results folder of the baseline")->required();
  compare->add_option("B", compare_b, "Results folder to judge against it")->required();
  compare->add_option("--tolerance", compare_tolerance, "Relative tolerance of numeric cells, on 1 + |A|")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  compare->add_option("--claims", claims_file, "Claims: a claims.toml, or a folder of experiment folders each with its claims.toml")->capture_default_str();

  auto* gradcheck = app.add_subcommand(
      "gradcheck", "Check a model's step derivatives against Ridders differences on random states");
  GradcheckOptions gradcheck_options;
  gradcheck->add_option("--model", gradcheck_options.model, "Model with derivatives")->required();
  gradcheck->add_option("--scene", gradcheck_options.scene,
                        "Registered scene (arena scenes) or a URDF/MJCF/mesh file")
      ->required();
  gradcheck->add_option("--states", gradcheck_options.states, "Random states to check")->capture_default_str();
  gradcheck->add_option("--seed", gradcheck_options.seed, "Random seed")->capture_default_str();
  gradcheck->add_option("--tolerance", gradcheck_options.tolerance, "Largest accepted relative error")
      ->capture_default_str();
  gradcheck->add_option("--ridders-step", gradcheck_options.ridders_step, "Ridders' initial step")
      ->capture_default_str();
  gradcheck->add_option("--design-directions", gradcheck_options.design_directions,
                        "Check the design derivatives along N random unit directions per state instead of column by "
                        "column (turns the model's design_derivatives option on; for models with many design "
                        "parameters, such as sdrs's hull vertices)")
      ->capture_default_str();
  SceneArguments gradcheck_scene;
  AddSceneArguments(gradcheck, &gradcheck_scene,
                    "Model option (option=value, `arena models --options M`), or the scene key "
                    "self_collision=false (links of one robot are not tested against each other); "
                    "repeatable");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "arena: error: %s\nRun 'arena --help' for usage.\n", e.what());
    return kBadInput;
  }

  if (*list) return List(names_only, plots_of);
  if (*models) return ListModels(options_of);
  if (*scenes) return ListScenes(scene_names_only, scene_details);
  if (*inspect) {
    // A design file (arena export-design) is shown as its hulls, not loaded as one mesh body.
    if (inspect_model.empty() && IsDesignFile(scene_file)) return InspectDesign(scene_file);
    std::map<std::string, std::string> model_options;
    const SceneLoadOptions scene_options =
        ParseSceneArguments("inspect", inspect_scene, inspect_model.empty() ? nullptr : &model_options);
    return Inspect(scene_file, scene_options, strict, inspect_model, model_options);
  }
  if (*run) {
    RequireNonEmpty(out_option, run_options.out_dir, "<repo>/results");
    RequireNonEmpty(config_dir_option, run_options.config_dir, "<repo>/experiments");
    run_options.progress = !no_progress;
    run_options.case_timeout_given = case_timeout_option->count() > 0;
    if (!shard_text.empty()) ParseShard(shard_text, &run_options);
    if (mpi && !shard_text.empty()) throw InvalidArgument("--mpi makes each rank a shard: give --mpi or --shard, not both");
    return mpi ? RunMpi(target, run_options) : Run(target, run_options);
  }
  if (*report) {
    RequireNonEmpty(results_option, results_dir, "<repo>/results");
    RequireNonEmpty(claims_option, claims_file, "<repo>/experiments");
    return Report(results_dir, claims_file, plots_dir);
  }
  if (*merge) {
    RequireNonEmpty(merge_out_option, merge_options.out_dir, "<repo>/results");
    merge_options.progress = false;
    return Merge(merge_target, merge_dirs, merge_options);
  }
  for (const auto& o : offered) {
    if (*o->app) return o->command.run(o->values, [](const std::string& line) { spdlog::info("{}", line); });
  }
  if (*export_design) {
    const int objects = ExportDesign(export_options);
    std::printf("wrote %d hulls (%s) to %s\n", objects, export_options.stage.c_str(), export_options.out.c_str());
    return 0;
  }
  if (*compare) return Compare(compare_a, compare_b, claims_file, compare_tolerance);
  if (*gradcheck) {
    gradcheck_options.scene_options =
        ParseSceneArguments("gradcheck", gradcheck_scene, &gradcheck_options.model_options);
    return Gradcheck(gradcheck_options);
  }
  return kBadInput;
}

}  // namespace
}  // namespace arena

int main(int argc, char** argv) {
  auto logger = spdlog::stderr_color_mt("arena");
  logger->set_pattern("[%H:%M:%S] %^%l%$ %v");
  spdlog::set_default_logger(logger);
  try {
    return arena::Main(argc, argv);
  } catch (const arena::InvalidArgument& e) {
    std::fprintf(stderr, "arena: error: %s\n", e.what());
    return arena::kBadInput;
  } catch (const arena::ParseError& e) {
    std::fprintf(stderr, "arena: error: %s\n", e.what());
    return arena::kBadInput;
  } catch (const arena::Unsupported& e) {
    std::fprintf(stderr, "arena: error: %s\n", e.what());
    return arena::kBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "arena: error: %s\n", e.what());
    return arena::kFailure;
  }
}
