#include "trajectory/quasi_static_step.h"

#include <exception>

#include "core/common/error.h"

namespace arena {

MatX CoordinateJacobian(const MultibodyModel& model, const VecX& q) {
  MatX J = MatX::Zero(model.nq(), model.nv());
  for (const BodyModel& body : model.bodies()) {
    const int iq = body.idx_q, iv = body.idx_v;
    switch (body.joint.type) {
      case JointType::kFixed: break;
      case JointType::kRevolute:
      case JointType::kPrismatic: J(iq, iv) = 1.0; break;
      case JointType::kPlanar:
        // q = (x, y, theta), tangent (omega, v_x, v_y) in the body frame (Integrate's planar case).
        J.block<2, 2>(iq, iv + 1) = Eigen::Rotation2Dd(q[iq + 2]).toRotationMatrix();
        J(iq + 2, iv) = 1.0;
        break;
      default:
        throw Unsupported("quasi-static step: body '" + body.name +
                          "' has a quaternion joint; the planner needs coordinates it can measure distances in");
    }
  }
  return J;
}

QuasiStaticResult QuasiStaticStep(Simulator& sim, const VecX& q, const VecX& u, int substeps, bool derivatives) {
  const MultibodyModel& model = sim.scene().model;
  const int nv = model.nv(), nu = static_cast<int>(u.size());
  State state;
  state.q = q;
  state.v = VecX::Zero(nv);
  const Control control{u};
  MatX Tq = MatX::Zero(nv, nu);  // d q_k / du in tangent coordinates
  QuasiStaticResult out;
  try {
    for (int k = 0; k < substeps; ++k) {
      state.v.setZero();  // every substep starts from rest (v_k does not depend on u)
      if (derivatives) {
        StepDerivatives D;
        sim.Derivatives(state, control, &D);
        Tq = D.dq_dq * Tq + D.dq_du;
      }
      const StepReport report = sim.Step(state, control);
      if (!report.ok()) {
        out.failure = "step " + std::to_string(k) + ": " + report.message;
        return out;
      }
    }
  } catch (const Error& e) {
    out.failure = e.what();
    return out;
  }
  out.ok = true;
  out.q = state.q;
  if (derivatives) out.dq_du = CoordinateJacobian(model, state.q) * Tq;
  return out;
}

}  // namespace arena
