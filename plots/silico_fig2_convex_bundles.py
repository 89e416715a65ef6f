"""Seed 000 (Silico) Fig. 2: convex bundles. Snapshots of each model's rollout of a union of
convex parts and a Minkowski sum falling on the floor, with contact count and penetration."""
from outlines import snapshot_figure

if __name__ == "__main__":
    snapshot_figure(__doc__, "convex_bundles (Silico Fig. 2)", (-4.5, 3.0), (-0.3, 4.5))
