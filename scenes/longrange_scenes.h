// The scenes of seed 004 (Ye et al., long-range contact) that the IP models and every other
// spatial model run: the harmonic book stack of Fig. 4 / Table 2, the billiard table of
// Fig. 5 / Fig. 6 and the rod and box of the push task (Fig. 7).
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

/// The push task of Fig. 7 as the authors' code lays it out (ground top at z = 0): a 0.3 m cube
/// (density 1 kg/m^3, 0.027 kg) 1 cm above the ground, and a rod 0.1 x 0.8 x 0.1 m (long along
/// y) whose centre is 0.7 m in +x, 0.1 m in +y and 0.17 m above the cube's, so its lower face is
/// 3 cm below the cube's top. The rod moves on a chain of six 1-DOF joints (slides x, y, z,
/// then hinges about z, y, x; the five links before the rod are 1 g points without colliders),
/// each driven by a velocity-target actuator (kd `rod_kd`, targets within +-1 m/s or rad/s):
/// zero controls hold it still. Friction 0.5 everywhere (the authors' code does not say).
struct PushSceneOptions {
  double rod_kd = 10.0;  // N s/m, N m s/rad (the authors' chain demos use kd = 10)
};
std::shared_ptr<const Scene> PushScene(const PushSceneOptions& options = {});

/// Two of those balls side by side, `gap` apart and `gap` above the ground: near contact with
/// each other and with the ground (the derivative check of the IP models near contact).
std::shared_ptr<const Scene> BallPairScene(double gap = 5e-3);

}  // namespace arena
