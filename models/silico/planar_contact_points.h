// A planar contact pair's answer as a ContactPoint of the Simulator contract, for the physical
// criteria (models/contact_criteria.h): silico's and bilevel's pairs share it.
#pragma once

#include "core/multibody/data.h"
#include "core/scene/scene.h"
#include "models/silico/planar_contact.h"
#include "models/simulator.h"

namespace arena::silico {

/// The world xy point, unit normal into the parent and force on the parent, lifted to z = 0;
/// the gap is the pair's signed distance at `end` (the models' own alpha - 1 is a scaling, not a
/// distance), NaN where core/geometry has none for the pair.
ContactPoint PlanarContactPoint(const Scene& scene, MultibodyData& data, const State& end, const PlanarPair& pair,
                                const Vec2& point, const Vec2& normal, const Vec2& force_on_parent);

}  // namespace arena::silico
