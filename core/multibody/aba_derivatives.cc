// Derivatives of the forward dynamics from those of the inverse dynamics (Carpentier & Mansard
// 2018, Sec. IV): ddq = M^-1 (tau - b(q, v)) gives d ddq / dx = -M^-1 (d tau / dx) evaluated
// at a = ddq, and d ddq / d tau = M^-1.
#include "core/multibody/dynamics.h"
#include "core/multibody/spatial_ops.h"

namespace arena {

void AbaDerivatives(const MultibodyModel& model, MultibodyData& data, const VecX& q, const VecX& v,
                    const VecX& tau, const std::vector<Force>* f_ext) {
  Aba(model, data, q, v, tau, f_ext);
  RneaDerivatives(model, data, q, v, data.ddq, f_ext);
  FactorizeMassMatrix(model, data);
  const int nv = model.nv();
  auto& B = data.rhs_rows;
  B.leftCols(nv).setIdentity();
  B.middleCols(nv, nv) = -data.dtau_dq;
  B.rightCols(nv) = -data.dtau_dv;
  internal::SolveMassMatrixRows(data, B);
  data.dddq_dtau = B.leftCols(nv);
  data.dddq_dq = B.middleCols(nv, nv);
  data.dddq_dv = B.rightCols(nv);
}

}  // namespace arena
