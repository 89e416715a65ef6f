"""Seed 000 (Silico) Fig. 7: peg-in-hole. Snapshots of each model's rollout, with the number of
collider pairs within 1 mm (contact points) and the current penetration in each frame."""
from outlines import snapshot_figure

if __name__ == "__main__":
    snapshot_figure(__doc__, "peg_in_hole (Silico Fig. 7): the paper shows 3 contacts at the end", (-1.0, 1.0), (-0.1, 1.9))
