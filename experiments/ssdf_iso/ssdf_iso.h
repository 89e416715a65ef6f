// ssdf_iso — seed 001 (SCM) Fig. 4: the zero iso-contour of the smooth signed distance function
// (eq. 9) of a 2D box's oriented point cloud, for a sweep of the temperature eps1. Small eps1
// recovers the box; large eps1 rounds it towards an ellipse (to second order in 1 / eps1 the SSDF
// is a quadratic form of the position).
//
// The box (`half_extents_m`, in the x-y plane) has patches of length at most `patch_size_m`
// tiling each edge (centres and outward normals), as scm lays them on a box face. Along each of
// `angles` rays from the centre the contour's radius is found by bisection (SSDF < 0 at the
// centre, > 0 far out). Per temperature: the contour's two-sided Hausdorff distance to the box
// outline, and its largest radial distance to the centred axis-aligned ellipse fitted to it by
// least squares (x^2 / a^2 + y^2 / b^2 = 1). The SSDF is scm's own (models/scm/smooth_collision.h).
#pragma once

#include "experiments/experiment.h"

namespace arena {

class SsdfIsoExperiment final : public Experiment {
 public:
  std::string name() const override { return "ssdf_iso"; }
  std::string paper() const override { return "seed 001 (SCM) Fig. 4"; }
  std::string description() const override {
    return "zero iso-contour of a 2D box's smooth SDF per temperature: its distance to the box and to an ellipse";
  }
  std::vector<Column> columns() const override;
  Sweep Expand(const ProfileConfig& config, const std::vector<std::string>& models) const override;
  std::vector<Row> Run(const Case& c) const override;
  std::vector<std::string> plots() const override { return {"scm_fig4_ssdf_iso"}; }
  std::vector<ClaimResult> Summarize(const ResultTable& table) const override;
};

}  // namespace arena
