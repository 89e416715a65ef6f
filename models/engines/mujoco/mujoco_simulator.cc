#include "models/engines/mujoco/mujoco_simulator.h"

#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstring>

#include "core/common/enum_names.h"
#include "core/common/error.h"
#include "models/engines/mujoco/scene_to_mjcf.h"
#include "models/finite_difference_derivatives.h"

namespace arena {

// ------------------------------------------------------------------ option enums

namespace {

constexpr EnumNameTable<MujocoIntegrator, 3> kIntegrators = {{
    {MujocoIntegrator::kEuler, "euler"},
    {MujocoIntegrator::kRk4, "rk4"},
    {MujocoIntegrator::kImplicit, "implicit"},
}};
constexpr EnumNameTable<MujocoSolver, 3> kSolvers = {{
    {MujocoSolver::kPgs, "pgs"},
    {MujocoSolver::kCg, "cg"},
    {MujocoSolver::kNewton, "newton"},
}};
constexpr EnumNameTable<MujocoCone, 2> kCones = {{
    {MujocoCone::kPyramidal, "pyramidal"},
    {MujocoCone::kElliptic, "elliptic"},
}};

}  // namespace

std::string_view ToString(MujocoIntegrator v) { return EnumName(v, kIntegrators); }
bool FromString(std::string_view text, MujocoIntegrator* v) { return ParseEnum(text, kIntegrators, v); }
std::string EnumValues(MujocoIntegrator) { return EnumList(kIntegrators); }
std::string_view ToString(MujocoSolver v) { return EnumName(v, kSolvers); }
bool FromString(std::string_view text, MujocoSolver* v) { return ParseEnum(text, kSolvers, v); }
std::string EnumValues(MujocoSolver) { return EnumList(kSolvers); }
std::string_view ToString(MujocoCone v) { return EnumName(v, kCones); }
bool FromString(std::string_view text, MujocoCone* v) { return ParseEnum(text, kCones, v); }
std::string EnumValues(MujocoCone) { return EnumList(kCones); }

// Every field, fd's too (VisitFields visits them), has its range.
std::string MujocoOptions::Validate() const { return CheckRanges(*this); }

// ------------------------------------------------------------------ construction

namespace {

// Compiles MJCF text from memory (MuJoCo's virtual file system). mj_loadXML is thread-safe in
// 2.2.2 (a global mutex around its parser, thread-local error handlers while compiling). The
// VFS holds 2000 file slots of 1000-character names, about 2 MB: it lives on the heap.
mjModel* CompileMjcf(const std::string& xml, std::string* error) {
  auto vfs = std::make_unique<mjVFS>();
  mj_defaultVFS(vfs.get());
  const char* kFile = "scene.xml";
  if (mj_makeEmptyFileVFS(vfs.get(), kFile, static_cast<int>(xml.size())) != 0) {
    *error = "could not allocate MuJoCo's virtual file";
    return nullptr;
  }
  const int slot = mj_findFileVFS(vfs.get(), kFile);
  std::memcpy(vfs->filedata[slot], xml.data(), xml.size());
  std::array<char, 1000> buffer{};
  mjModel* m = mj_loadXML(kFile, vfs.get(), buffer.data(), static_cast<int>(buffer.size()));
  mj_deleteVFS(vfs.get());
  if (m == nullptr) *error = buffer.data();
  return m;
}

// MuJoCo's `info` of a warning no step can produce: set before a step, any other value after
// it means that the warning was raised during the step.
constexpr int kNoWarning = INT_MIN;

}  // namespace

void MujocoSimulator::ModelDeleter::operator()(mjModel* m) const { mj_deleteModel(m); }
void MujocoSimulator::DataDeleter::operator()(mjData* d) const { mj_deleteData(d); }

Capabilities MujocoSimulator::CapabilitiesFor(const MujocoOptions& options) {
  Capabilities c;
  c.planar = true;  // slide-slide-hinge triples, 2D shapes extruded (scene_to_mjcf.h)
  c.spatial = true;
  c.articulated = true;
  for (ShapeType t : {ShapeType::kSphere, ShapeType::kBox, ShapeType::kCapsule, ShapeType::kCylinder,
                      ShapeType::kEllipsoid, ShapeType::kHalfSpace, ShapeType::kConvexHull,
                      ShapeType::kMesh, ShapeType::kPolygon2, ShapeType::kDisk2, ShapeType::kHalfPlane2}) {
    c.shapes.set(static_cast<size_t>(t));
  }
  (void)options;
  c.derivatives = DerivativeSource::kFiniteDifferences;  // of Step
  c.smooth = false;            // contact activation and the friction cone's faces are kinks
  c.engine = true;
  return c;
}

MujocoSimulator::MujocoSimulator(std::shared_ptr<const Scene> scene, const MujocoOptions& options)
    : SimulatorBase(std::move(scene), options) {
  if (std::string error = options_.Validate(); !error.empty()) {
    throw InvalidArgument("mujoco: " + error);
  }
  scene_->Validate();
  // The translation names MuJoCo's reason for what it cannot represent; CheckSupport, which
  // the registry runs first, stays as the generic net.
  MjcfTranslation mjcf = SceneToMjcf(*scene_);
  if (std::string why = CheckSupport(CapabilitiesFor(options_), *scene_); !why.empty()) {
    throw Unsupported("mujoco: scene '" + scene_->name + "': " + why);
  }
  mjcf_ = std::move(mjcf.xml);
  std::string error;
  model_.reset(CompileMjcf(mjcf_, &error));
  if (!model_) {
    throw Unsupported("mujoco: MuJoCo 2.2.2 rejected the model translated from scene '" +
                      scene_->name + "': " + error);
  }
  mjModel* m = model_.get();
  m->opt.timestep = options_.timestep;
  m->opt.integrator = static_cast<int>(options_.integrator == MujocoIntegrator::kEuler ? mjINT_EULER
                                       : options_.integrator == MujocoIntegrator::kRk4 ? mjINT_RK4
                                                                                       : mjINT_IMPLICIT);
  m->opt.solver = static_cast<int>(options_.solver == MujocoSolver::kPgs  ? mjSOL_PGS
                                   : options_.solver == MujocoSolver::kCg ? mjSOL_CG
                                                                          : mjSOL_NEWTON);
  m->opt.cone = static_cast<int>(options_.cone == MujocoCone::kPyramidal ? mjCONE_PYRAMIDAL
                                                                         : mjCONE_ELLIPTIC);
  m->opt.impratio = options_.impratio;
  m->opt.iterations = options_.iterations;
  m->opt.tolerance = options_.tolerance;

  // Our joints in MuJoCo's qpos / qvel, by the names the translation gave them.
  const MultibodyModel& model = scene_->model;
  for (int b = 0; b < model.num_bodies(); ++b) {
    const BodyModel& body = model.body(b);
    if (body.joint.nv() == 0) continue;
    const int id = mj_name2id(m, mjOBJ_JOINT, mjcf.joint_names[b].c_str());
    if (id < 0) throw Error("mujoco: joint '" + mjcf.joint_names[b] + "' missing from the compiled model");
    JointMap j;
    j.body = b;
    j.type = body.joint.type;
    j.idx_q = body.idx_q;
    j.idx_v = body.idx_v;
    j.qpos = m->jnt_qposadr[id];
    j.dof = m->jnt_dofadr[id];
    j.X_PJ = body.joint.placement;
    j.identity_placement = j.X_PJ.rotation() == Mat3::Identity() && j.X_PJ.translation().isZero(0.0);
    joints_.push_back(j);
  }
  geom_body_.assign(m->ngeom, kUnknownBody);
  for (size_t c = 0; c < mjcf.geom_names.size(); ++c) {
    const int id = mj_name2id(m, mjOBJ_GEOM, mjcf.geom_names[c].c_str());
    if (id >= 0) geom_body_[id] = scene_->colliders[c].body;
  }
  for (int i = 0; i < scene_->nu(); ++i) {
    const int id = mj_name2id(m, mjOBJ_ACTUATOR, mjcf.actuator_names[i].c_str());
    if (id < 0) throw Error("mujoco: actuator '" + mjcf.actuator_names[i] + "' missing from the compiled model");
    actuator_ids_.push_back(id);
  }
  if (m->nq != scene_->nq() || m->nv != scene_->nv()) {
    throw Error("mujoco: the compiled model has nq = " + std::to_string(m->nq) + ", nv = " +
                std::to_string(m->nv) + "; the scene " + std::to_string(scene_->nq()) + ", " +
                std::to_string(scene_->nv()));
  }

  data_.reset(mj_makeData(m));
  if (!data_) throw Error("mujoco: mj_makeData failed for scene '" + scene_->name + "'");
  warm_start_ = VecX::Zero(m->nv);
}

MujocoSimulator::~MujocoSimulator() = default;

// ------------------------------------------------------------------ state conversion

void MujocoSimulator::WriteState(const State& state) {
  mjData* d = data_.get();
  for (const JointMap& j : joints_) {
    const double* q = state.q.data() + j.idx_q;
    const double* v = state.v.data() + j.idx_v;
    double* qpos = d->qpos + j.qpos;
    double* qvel = d->qvel + j.dof;
    if (j.type == JointType::kPlanar) {
      // (x, y, theta) alike; MuJoCo's rates are (x', y', theta'), ours (omega, body-frame v).
      std::copy(q, q + 3, qpos);
      const Vec2 v_J = Eigen::Rotation2Dd(q[2]) * Vec2(v[1], v[2]);
      qvel[0] = v_J.x();
      qvel[1] = v_J.y();
      qvel[2] = v[0];
      continue;
    }
    if (j.type != JointType::kFree) {
      // Hinge, slide, ball: the same coordinates (ball: quaternion w x y z, body-frame omega).
      std::copy(q, q + (j.type == JointType::kBall ? 4 : 1), qpos);
      std::copy(v, v + (j.type == JointType::kBall ? 3 : 1), qvel);
      continue;
    }
    const Vec3 p_JB(q[0], q[1], q[2]);
    const Quat quat_JB(q[3], q[4], q[5], q[6]);
    Vec3 p_WB = p_JB;
    Quat quat_WB = quat_JB;
    if (!j.identity_placement) {
      p_WB = j.X_PJ.Act(p_JB);
      quat_WB = Quat(j.X_PJ.rotation()) * quat_JB;
    }
    const Vec3 v_B(v[3], v[4], v[5]);
    const Vec3 v_W = quat_WB.normalized() * v_B;  // world velocity of the body origin
    std::copy(p_WB.data(), p_WB.data() + 3, qpos);
    qpos[3] = quat_WB.w();
    qpos[4] = quat_WB.x();
    qpos[5] = quat_WB.y();
    qpos[6] = quat_WB.z();
    std::copy(v_W.data(), v_W.data() + 3, qvel);
    std::copy(v, v + 3, qvel + 3);  // angular velocity: body frame in both
  }
  d->time = state.t;
}

void MujocoSimulator::ReadState(State* state) const {
  const mjData* d = data_.get();
  for (const JointMap& j : joints_) {
    double* q = state->q.data() + j.idx_q;
    double* v = state->v.data() + j.idx_v;
    const double* qpos = d->qpos + j.qpos;
    const double* qvel = d->qvel + j.dof;
    if (j.type == JointType::kPlanar) {
      std::copy(qpos, qpos + 3, q);
      const Vec2 v_B = Eigen::Rotation2Dd(-qpos[2]) * Vec2(qvel[0], qvel[1]);
      v[0] = qvel[2];
      v[1] = v_B.x();
      v[2] = v_B.y();
      continue;
    }
    if (j.type != JointType::kFree) {
      std::copy(qpos, qpos + (j.type == JointType::kBall ? 4 : 1), q);
      std::copy(qvel, qvel + (j.type == JointType::kBall ? 3 : 1), v);
      continue;
    }
    const Vec3 p_WB(qpos[0], qpos[1], qpos[2]);
    const Quat quat_WB(qpos[3], qpos[4], qpos[5], qpos[6]);
    Vec3 p_JB = p_WB;
    Quat quat_JB = quat_WB;
    if (!j.identity_placement) {
      p_JB = j.X_PJ.ActInv(p_WB);
      quat_JB = Quat(j.X_PJ.rotation()).conjugate() * quat_WB;
    }
    const Vec3 v_W(qvel[0], qvel[1], qvel[2]);
    const Vec3 v_B = quat_WB.normalized().conjugate() * v_W;
    std::copy(p_JB.data(), p_JB.data() + 3, q);
    q[3] = quat_JB.w();
    q[4] = quat_JB.x();
    q[5] = quat_JB.y();
    q[6] = quat_JB.z();
    std::copy(qvel + 3, qvel + 6, v);
    std::copy(v_B.data(), v_B.data() + 3, v + 3);
  }
  state->t = d->time;
}

// ------------------------------------------------------------------ step

bool MujocoSimulator::Continues(const State& state) const {
  return have_last_ && state.t == last_output_.t && state.q == last_output_.q &&
         state.v == last_output_.v;
}

StepReport MujocoSimulator::DoStep(State& state, const Control& control) {
  StepReport report;
  const mjModel* m = model_.get();
  mjData* d = data_.get();

  WriteState(state);
  mju_zero(d->ctrl, m->nu);
  for (int i = 0; i < scene_->nu(); ++i) {
    const Actuator& a = scene_->actuators[i];
    const double u = control.u.size() == 0 ? 0.0 : control.u[i];
    d->ctrl[actuator_ids_[i]] = std::clamp(u, a.ctrl_lower, a.ctrl_upper);
  }
  // The solver's start: the nominal's during Derivatives(), the last acceleration when this
  // step continues the last one (MuJoCo's own rollout), else zero (cold; MuJoCo then starts from
  // the better of zero and the unconstrained acceleration).
  if (pin_warm_start_) {
    std::copy(pinned_warm_start_.data(), pinned_warm_start_.data() + m->nv, d->qacc_warmstart);
  } else if (options_.warm_start && Continues(state)) {
    std::copy(warm_start_.data(), warm_start_.data() + m->nv, d->qacc_warmstart);
  } else {
    mju_zero(d->qacc_warmstart, m->nv);
  }
  // A warning prints (and appends to MUJOCO_LOG.TXT in the working directory) only when its
  // counter is 0: a counter of 1 keeps MuJoCo quiet, and `lastinfo` tells whether it fired.
  for (int w = 0; w < mjNWARNING; ++w) {
    d->warning[w].number = 1;
    d->warning[w].lastinfo = kNoWarning;
  }

  mj_step(m, d);

  report.iterations = d->solver_iter;
  report.contacts = d->ncon;
  for (int i = 0; i < d->ncon; ++i) {
    report.min_signed_distance = std::min(report.min_signed_distance, d->contact[i].dist);
  }
  if (d->solver_iter > 0) {
    // MuJoCo stops when the scaled cost improvement or (primal solvers) the scaled gradient
    // norm falls below the tolerance, or when the line search cannot improve; report the
    // quantity that decides, of the last iteration.
    const mjSolverStat& last = d->solver[std::min(d->solver_iter, mjNSOLVER) - 1];
    const bool primal = m->opt.solver != mjSOL_PGS;
    report.residual = primal ? last.gradient : last.improvement;
    const bool met = last.improvement < m->opt.tolerance || (primal && last.gradient < m->opt.tolerance);
    if (d->solver_iter >= m->opt.iterations && !met) {
      report.status = StepStatus::kNotConverged;
      report.message = "MuJoCo's " + std::string(ToString(options_.solver)) + " solver reached " +
                       std::to_string(d->solver_iter) + " iterations (improvement " +
                       options_detail::FormatDouble(last.improvement) + ", gradient " +
                       options_detail::FormatDouble(last.gradient) + ", tolerance " +
                       options_detail::FormatDouble(m->opt.tolerance) + ")";
    }
  }

  auto fired = [d](int w) { return d->warning[w].lastinfo != kNoWarning; };
  for (int w : {mjWARN_BADQPOS, mjWARN_BADQVEL, mjWARN_BADQACC}) {
    if (fired(w)) {
      // MuJoCo reset its data (mj_resetData) and continued from qpos0: the step is lost.
      report.status = StepStatus::kNonFinite;
      report.message = std::string("MuJoCo: ") + mju_warningText(w, d->warning[w].lastinfo) +
                       " (the step is discarded)";
    }
  }
  if (report.status != StepStatus::kNonFinite) {
    for (int w : {mjWARN_CONTACTFULL, mjWARN_CNSTRFULL, mjWARN_INERTIA}) {
      if (fired(w)) {
        report.status = StepStatus::kError;
        report.message = std::string("MuJoCo: ") + mju_warningText(w, d->warning[w].lastinfo) +
                         " (nconmax " + std::to_string(m->nconmax) + ", njmax " +
                         std::to_string(m->njmax) + ")";
      }
    }
  }

  if (report.status == StepStatus::kOk || report.status == StepStatus::kNotConverged) {
    State next = state;
    ReadState(&next);
    next.t = state.t + options_.timestep;  // as Simulator::Step sets it, so that Continues() matches
    if (std::string bad = FirstNonFiniteEntry(next); !bad.empty()) {
      report.status = StepStatus::kNonFinite;
      report.message = "state became non-finite: " + bad;
    } else {
      state = std::move(next);
      RecordContactPoints();
      if (!pin_warm_start_) {
        std::copy(d->qacc_warmstart, d->qacc_warmstart + m->nv, warm_start_.data());
        last_output_ = state;
        have_last_ = true;
      }
    }
  }
  return report;
}

// MuJoCo's contacts of the step (found at its start) with their forces: mj_contactForce gives
// the force in the contact frame, whose first axis is the normal from geom1 to geom2 and which
// acts on geom2 (a positive normal force pushes geom2 away); pos is the midpoint between the
// surfaces, dist their signed distance.
void MujocoSimulator::RecordContactPoints() {
  const mjModel* m = model_.get();
  const mjData* d = data_.get();
  step_points_.clear();
  for (int i = 0; i < d->ncon; ++i) {
    const mjContact& c = d->contact[i];
    const int a = geom_body_[c.geom2], b = geom_body_[c.geom1];
    if (a == kUnknownBody || b == kUnknownBody) continue;
    mjtNum frame_force[6];
    mj_contactForce(m, d, i, frame_force);
    const Eigen::Map<const Eigen::Matrix<mjtNum, 3, 3, Eigen::RowMajor>> frame(c.frame);
    const Vec3 force = frame.transpose() * Vec3(frame_force[0], frame_force[1], frame_force[2]);
    step_points_.push_back(
        {a, b, Vec3(c.pos[0], c.pos[1], c.pos[2]), frame.row(0).transpose().normalized(), c.dist, true, force,
         c.friction[0]});
  }
}

// ------------------------------------------------------------------ derivatives

void MujocoSimulator::DoDerivatives(const State& state, const Control& control, StepDerivatives* out) {
  // Every perturbed step starts from the nominal step's warm start (as mjd_transitionFD does),
  // so the differences see the dynamics, not a changing solver start.
  pinned_warm_start_ = options_.warm_start && Continues(state) ? warm_start_ : VecX::Zero(model_->nv);
  pin_warm_start_ = true;
  struct Unpin {
    bool* pin;
    ~Unpin() { *pin = false; }
  } unpin{&pin_warm_start_};
  *out = FiniteDifferenceStepDerivatives(*this, state, control, options_.fd.Fd());
}

}  // namespace arena
