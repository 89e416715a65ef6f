#include "core/multibody/configuration.h"

#include <cmath>
#include <numbers>

#include "core/math/so3.h"
#include "core/multibody/lie_group.h"
#include "core/multibody/spatial_ops.h"

namespace arena {
namespace {

using internal::CheckSize;
using internal::QuatFrom;

void WriteQuat(const Quat& quat, double* q) {
  const Quat n = quat.normalized();
  q[0] = n.w();
  q[1] = n.x();
  q[2] = n.y();
  q[3] = n.z();
}

Mat2 Rot2(double theta) {
  const double c = std::cos(theta), s = std::sin(theta);
  Mat2 R;
  R << c, -s, s, c;
  return R;
}

// Uniform in [0, 1) from the top 53 bits: std::mt19937_64 is specified exactly by the standard
// but the std distributions are not, so samples are the same on every platform.
double Uniform01(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }
double Uniform(std::mt19937_64& rng, double lo, double hi) {
  return lo + (hi - lo) * Uniform01(rng);
}

// Uniform sample in [lower, upper], with unbounded sides replaced so the interval has the
// default width (2 pi for angles, 2 m for offsets) and is centred on zero when both are open.
double SampleInterval(double lower, double upper, double half_width, std::mt19937_64& rng) {
  const bool lo_ok = std::isfinite(lower), hi_ok = std::isfinite(upper);
  if (!lo_ok && !hi_ok) {
    lower = -half_width;
    upper = half_width;
  } else if (!lo_ok) {
    lower = upper - 2.0 * half_width;
  } else if (!hi_ok) {
    upper = lower + 2.0 * half_width;
  }
  return Uniform(rng, lower, upper);
}

// Uniform on SO(3) (Shoemake, "Uniform random rotations", Graphics Gems III, 1992).
Quat UniformQuat(std::mt19937_64& rng) {
  constexpr double kTwoPi = 2.0 * std::numbers::pi;
  const double u1 = Uniform01(rng), u2 = Uniform01(rng), u3 = Uniform01(rng);
  const double a = std::sqrt(1.0 - u1), b = std::sqrt(u1);
  return Quat(b * std::cos(kTwoPi * u3), a * std::sin(kTwoPi * u2), a * std::cos(kTwoPi * u2),
              b * std::sin(kTwoPi * u3));
}

}  // namespace

VecX Integrate(const MultibodyModel& model, const VecX& q, const VecX& v, double dt) {
  CheckSize(q, model.nq(), "Integrate: q");
  CheckSize(v, model.nv(), "Integrate: v");
  VecX out = q;
  for (const BodyModel& body : model.bodies()) {
    const double* qi = q.data() + body.idx_q;
    double* qo = out.data() + body.idx_q;
    const int iv = body.idx_v;
    switch (body.joint.type) {
      case JointType::kFixed: break;
      case JointType::kRevolute:
      case JointType::kPrismatic: qo[0] = qi[0] + v[iv] * dt; break;
      case JointType::kBall: WriteQuat(QuatFrom(qi) * QuatExp(v.segment<3>(iv) * dt), qo); break;
      case JointType::kPlanar: {
        // X (+) Exp(v dt) on SE(2); v = (omega, v_x, v_y) in the child frame.
        const Vec3 twist = v.segment<3>(iv) * dt;
        const SE2 dX = ExpSE2(twist);
        const Vec2 p = Vec2(qi[0], qi[1]) + Rot2(qi[2]) * dX.t;
        qo[0] = p.x();
        qo[1] = p.y();
        qo[2] = qi[2] + dX.theta;
        break;
      }
      case JointType::kFree: {
        // X * ExpSE3(v dt): p += R t, R <- R Exp(omega dt).
        const Quat quat = QuatFrom(qi + 3);
        const Motion twist = v.segment<6>(iv) * dt;
        const SE3 dX = ExpSE3(twist);
        Eigen::Map<Vec3>{qo} = Eigen::Map<const Vec3>(qi) + quat * dX.translation();
        WriteQuat(quat * QuatExp(Angular(twist)), qo + 3);
        break;
      }
    }
  }
  return out;
}

VecX Difference(const MultibodyModel& model, const VecX& q0, const VecX& q1) {
  CheckSize(q0, model.nq(), "Difference: q0");
  CheckSize(q1, model.nq(), "Difference: q1");
  VecX v = VecX::Zero(model.nv());
  for (const BodyModel& body : model.bodies()) {
    const double* a = q0.data() + body.idx_q;
    const double* b = q1.data() + body.idx_q;
    const int iv = body.idx_v;
    switch (body.joint.type) {
      case JointType::kFixed: break;
      case JointType::kRevolute:
      case JointType::kPrismatic: v[iv] = b[0] - a[0]; break;
      case JointType::kBall:
        v.segment<3>(iv) = QuatLog(QuatFrom(a).conjugate() * QuatFrom(b));
        break;
      case JointType::kPlanar: {
        SE2 rel;
        rel.theta = b[2] - a[2];
        rel.t = Rot2(a[2]).transpose() * Vec2(b[0] - a[0], b[1] - a[1]);
        v.segment<3>(iv) = LogSE2(rel);
        break;
      }
      case JointType::kFree: {
        // Log(X0^-1 X1): omega from the relative quaternion, v = Jl(omega)^-1 R0^T (p1 - p0).
        const Quat qa = QuatFrom(a + 3);
        const Vec3 w = QuatLog(qa.conjugate() * QuatFrom(b + 3));
        const Vec3 dp = qa.conjugate() * (Eigen::Map<const Vec3>(b) - Eigen::Map<const Vec3>(a));
        v.segment<3>(iv) = w;
        v.segment<3>(iv + 3) = RightJacobianInverseSO3(-w) * dp;
        break;
      }
    }
  }
  return v;
}

void IntegrateJacobians(const MultibodyModel& model, const VecX& q, const VecX& v, MatX* Jq,
                        MatX* Jv) {
  CheckSize(q, model.nq(), "IntegrateJacobians: q");
  CheckSize(v, model.nv(), "IntegrateJacobians: v");
  const int nv = model.nv();
  Jq->setZero(nv, nv);
  Jv->setZero(nv, nv);
  for (const BodyModel& body : model.bodies()) {
    const int i = body.idx_v;
    // Every group here acts by right multiplication, q1 = q Exp(v), so
    // q Exp(dq) Exp(v) = q1 Exp(Ad(Exp(-v)) dq) and Exp(v + dv) = Exp(v) Exp(Jr(v) dv).
    switch (body.joint.type) {
      case JointType::kFixed: break;
      case JointType::kRevolute:
      case JointType::kPrismatic:
        (*Jq)(i, i) = 1.0;
        (*Jv)(i, i) = 1.0;
        break;
      case JointType::kBall: {
        const Vec3 w = v.segment<3>(i);
        Jq->block<3, 3>(i, i) = ExpSO3(w).transpose();
        Jv->block<3, 3>(i, i) = RightJacobianSO3(w);
        break;
      }
      case JointType::kPlanar: {
        const Vec3 t = v.segment<3>(i);
        Jq->block<3, 3>(i, i) = AdjointSE2(ExpSE2(-t));
        Jv->block<3, 3>(i, i) = RightJacobianSE2(t);
        break;
      }
      case JointType::kFree: {
        const Motion xi = v.segment<6>(i);
        Jq->block<6, 6>(i, i) = ExpSE3(-xi).MotionMatrix();
        Jv->block<6, 6>(i, i) = RightJacobianSE3(xi);
        break;
      }
    }
  }
}

void NormalizeConfiguration(const MultibodyModel& model, VecX* q) {
  CheckSize(*q, model.nq(), "NormalizeConfiguration: q");
  for (const BodyModel& body : model.bodies()) {
    double* qi = q->data() + body.idx_q;
    if (body.joint.type == JointType::kBall) Eigen::Map<Vec4>(qi).normalize();
    if (body.joint.type == JointType::kFree) Eigen::Map<Vec4>(qi + 3).normalize();
  }
}

VecX RandomConfiguration(const MultibodyModel& model, std::mt19937_64& rng) {
  constexpr double kPi = std::numbers::pi;
  VecX q = model.Neutral();
  for (const BodyModel& body : model.bodies()) {
    double* qi = q.data() + body.idx_q;
    const JointModel& joint = body.joint;
    switch (joint.type) {
      case JointType::kFixed: break;
      case JointType::kRevolute: qi[0] = SampleInterval(joint.lower, joint.upper, kPi, rng); break;
      case JointType::kPrismatic: qi[0] = SampleInterval(joint.lower, joint.upper, 1.0, rng); break;
      case JointType::kBall: WriteQuat(UniformQuat(rng), qi); break;
      case JointType::kPlanar:
        qi[0] = Uniform(rng, -1.0, 1.0);
        qi[1] = Uniform(rng, -1.0, 1.0);
        qi[2] = kPi * Uniform(rng, -1.0, 1.0);
        break;
      case JointType::kFree:
        for (int k = 0; k < 3; ++k) qi[k] = Uniform(rng, -1.0, 1.0);
        WriteQuat(UniformQuat(rng), qi + 3);
        break;
    }
  }
  return q;
}

}  // namespace arena
