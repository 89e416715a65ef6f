"""Seed 003 (SDRS) Figs. 12-13: biped. Left: the loss (the torso's squared distance to a target
ahead plus the squared change of its height, roll and pitch) against Adam iterations, control
only and control + the feet's co-design. Middle: how far each iterate walked along +x. Right: the
left foot's three hulls in its frame (x forward, z), as they start and at co-design's best
iterate.
"""
import plotlib
from sdrs_fig11_spider import draw

if __name__ == "__main__":
    args = plotlib.parse_args(__doc__)
    draw(plotlib.read_csv(args.csv), args.out, "biped", "walk along +x (m)")
