// The scenes of seed 004 (Ye et al., long-range contact) that the IP models and every other
// spatial model run: the harmonic book stack of Fig. 4 / Table 2 and the billiard table of
// Fig. 5 / Fig. 6 (the rod-and-cubes tasks are in scenes/rod_scenes.h).
#pragma once

#include <memory>

#include "core/scene/scene.h"

namespace arena {

/// Book stacking (Sec. 6, Fig. 4): `planks` planks of 2.0 x 0.4 x 0.2 m and 0.16 kg (density
/// 1 kg/m^3, as the authors' meshes) stacked on the ground with the harmonic overhang: the plank
/// k-th from the top overhangs the one below by L / (2k), each shifted inward by `shift` L
/// (the paper: 0.1 % "to account for simulation errors"; our reading: every overhang shortened
/// by 0.1 % of L, docs/deviations.md). `gap` (m) separates the planks and the ground initially.
/// Friction 0.5 (the paper gives none; our choice).
struct BookStackOptions {
  int planks = 20;
  double shift = 1e-3;
  double gap = 1e-3;
};
std::shared_ptr<const Scene> BookStackScene(const BookStackOptions& options);

/// The billiards of Fig. 5 as the authors' code lays it out: 15 balls of radius 0.5 in a
/// five-row triangle (spacing 1.1 r, row pitch 2.2 r), a cue ball 4.4 r in front of the apex,
/// every ball free (6 DOF, 96 in all), density 1 kg/m^3 (0.524 kg), resting `gap` above a
/// ground box whose top face is z = 0. The balls' tessellation is the model's (a sphere option).
std::shared_ptr<const Scene> BilliardsScene(double gap = 0.105);

/// Two of those balls side by side, `gap` apart and `gap` above the ground: near contact with
/// each other and with the ground (the derivative check of the IP models near contact).
std::shared_ptr<const Scene> BallPairScene(double gap = 5e-3);

}  // namespace arena
