"""Seed 001 (SCM) Figs. 1 and 5: the contact force on a probe sphere at rest near a fixed
sphere. Top row: the force's y component along each line (x = line offset), one curve per model
(the samples where a model's step failed are gaps); the dotted lines mark where the surfaces
touch. Bottom row (when the run has a grid): |f| over the x-y plane per model, log colour scale.
"""
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import LogNorm

import plotlib

CONTACT = 0.15  # the radii's sum (m)


def main():
    args = plotlib.parse_args(__doc__)
    data = plotlib.read_csv(args.csv)
    lines = data[data["path"] == "line"]
    grid = data[data["path"] == "grid"]
    offsets = sorted(lines["line_offset_m"].dropna().unique())
    grid_models = list(dict.fromkeys(grid["model"])) if len(grid) else []
    columns = max(len(offsets), 1)
    rows = 2 if grid_models else 1
    fig = plt.figure(figsize=(6 * columns, 4.2 * rows), constrained_layout=True)
    top = fig.subfigures(rows, 1, squeeze=False)[0][0] if rows > 1 else fig
    axes = top.subplots(1, columns, squeeze=False)[0]
    engines = plotlib.engines(args.csv)
    for ax, x in zip(axes, offsets):
        for model, g in lines[lines["line_offset_m"] == x].groupby("model", sort=False):
            g = g.sort_values("y_m")
            if np.nanmax(np.abs(g["fy_n"].to_numpy(dtype=float)), initial=0.0) == 0.0:
                continue  # no force anywhere (a velocity-level LCP model at rest)
            ax.plot(g["y_m"], g["fy_n"], lw=1.2, label=plotlib.model_label(model, engines))
        if x < CONTACT:
            touch = np.sqrt(CONTACT**2 - x**2)
            for y in (-touch, touch):
                ax.axvline(y, color="black", ls=":", lw=0.8)
        ax.set_yscale("symlog", linthresh=1.0)
        ax.set_xlabel("probe centre y (m)")
        ax.set_ylabel("force on the probe, y (N)")
        ax.set_title(f"line x = {x:g} m", fontsize=9)
        ax.legend(fontsize=7, ncol=2)
    if grid_models:
        bottom = fig.subfigures(rows, 1, squeeze=False)[1][0]
        gaxes = bottom.subplots(1, len(grid_models), squeeze=False)[0]
        for ax, model in zip(gaxes, grid_models):
            g = grid[grid["model"] == model]
            f = g.pivot_table(index="y_m", columns="x_m", values="force_n")
            values = np.where(f.to_numpy() > 0, f.to_numpy(), np.nan)
            if np.all(np.isnan(values)):
                ax.set_title(f"{model}: no force", fontsize=8)
                ax.set_axis_off()
                continue
            im = ax.pcolormesh(f.columns, f.index, values, norm=LogNorm(), shading="nearest")
            ax.add_patch(plt.Circle((0, 0), 0.1, fill=False, color="white", lw=0.8))
            ax.set_aspect("equal")
            ax.set_title(plotlib.model_label(model, engines), fontsize=8)
            bottom.colorbar(im, ax=ax, shrink=0.7, label="|f| (N)")
    plotlib.save(fig, args.out)


if __name__ == "__main__":
    main()
