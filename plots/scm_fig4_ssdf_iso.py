"""Seed 001 (SCM) Fig. 4: the zero iso-contour of a 2D box's smooth SDF for each temperature eps1
(left, over the box outline), and each contour's Hausdorff distance to the box and radial
distance to its fitted ellipse against eps1 (right).
"""
import matplotlib.pyplot as plt
import numpy as np

import plotlib


def main():
    args = plotlib.parse_args(__doc__)
    data = plotlib.read_csv(args.csv)
    contour = data[data["record"] == "contour"]
    summary = data[data["record"] == "summary"].sort_values("eps1_m2")
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5), constrained_layout=True)
    hx, hy = summary["half_x_m"].iloc[0], summary["half_y_m"].iloc[0]
    left.plot([-hx, hx, hx, -hx, -hx], [-hy, -hy, hy, hy, -hy], color="black", lw=1.5, label="box")
    colours = plt.cm.viridis(np.linspace(0, 1, len(summary)))
    for colour, eps in zip(colours, summary["eps1_m2"]):
        c = contour[contour["eps1_m2"] == eps].sort_values("angle_rad")
        if len(c) == 0:
            continue
        left.plot(np.append(c["x_m"], c["x_m"].iloc[0]), np.append(c["y_m"], c["y_m"].iloc[0]), color=colour, lw=1,
                  label=f"eps1 = {eps:g} m^2")
    left.set_aspect("equal")
    left.set_xlabel("x (m)")
    left.set_ylabel("y (m)")
    left.set_title("zero iso-contour of the SSDF", fontsize=9)
    left.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    right.loglog(summary["eps1_m2"], summary["box_hausdorff_m"], marker="o", label="Hausdorff distance to the box")
    right.loglog(summary["eps1_m2"], summary["ellipse_distance_m"], marker="s", label="radial distance to the fitted ellipse")
    right.set_xlabel("eps1 (m^2)")
    right.set_ylabel("distance (m)")
    right.legend(fontsize=8)
    right.grid(True, which="both", lw=0.3)
    plotlib.save(fig, args.out)


if __name__ == "__main__":
    main()
