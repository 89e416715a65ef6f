"""Seed 004 (long-range contact) Fig. 9: Ant-Push, the spider's sine-wave controls optimised with
Adam on each model's gradient and on the gradient bundle to push a box to a target.

Left: the loss of each iterate over the initial loss against the iteration, one line per model
and method, log scale; the legend marks the runs whose gradient was exactly zero at every
iterate. Right: top-down paths over the best iterate's rollout run once more, one panel per
model and method (longrange's pair solves start from the previous rollout's planes, so its re-run
can end elsewhere than the iterate did):
the spider's root grey, the box's centre blue with its outline at the start and the end, the
target as a cross inside its tolerance ring.
"""
import matplotlib.pyplot as plt
import numpy as np

import plotlib
from longrange_fig5_billiards import label, loss_panel

BOX = 0.3  # the box's edge (m), scenes/spider_scenes.h AntPushOptions


def path_panel(ax, paths, target, tolerance, title):
    paths = paths.sort_values("frame")
    ax.plot(paths["spider_x_m"], paths["spider_y_m"], color="0.5", lw=1, label="spider")
    ax.plot(paths["box_x_m"], paths["box_y_m"], color="tab:blue", lw=1.2, label="box")
    for i, style in ((0, ":"), (-1, "-")):
        x, y = paths["box_x_m"].iloc[i], paths["box_y_m"].iloc[i]
        ax.add_patch(plt.Rectangle((x - BOX / 2, y - BOX / 2), BOX, BOX, fill=False, color="tab:blue", ls=style, lw=0.8))
    if not target.empty:
        tx, ty = target["box_x_m"].iloc[0], target["box_y_m"].iloc[0]
        ax.plot(tx, ty, marker="x", color="tab:red")
        ax.add_patch(plt.Circle((tx, ty), tolerance, fill=False, color="tab:red", ls=":"))
    ax.autoscale_view()
    ax.set_aspect("equal")
    ax.set_title(title, fontsize=8)
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    ax.legend(fontsize=6, loc="upper left", framealpha=0.6)


def main():
    args = plotlib.parse_args(__doc__)
    data = plotlib.read_csv(args.csv)
    iterations = data[data["record"] == "iteration"]
    runs = list(dict.fromkeys(zip(iterations["model"], iterations["method"])))
    # The loss on the left over two rows; the runs' paths in two rows on the right.
    cols = max((len(runs) + 1) // 2, 1)
    fig = plt.figure(figsize=(5.0 + 3.4 * cols, 6.0), constrained_layout=True)
    grid = fig.add_gridspec(2, 1 + cols, width_ratios=[1.5] + [1.0] * cols)
    amplitude = iterations["initial_amplitude_rad"].iloc[0] if not iterations.empty else np.nan
    loss_panel(fig.add_subplot(grid[:, 0]), iterations, f"sines of {amplitude:g} rad")
    for i, (model, method) in enumerate(runs):
        run = data[(data["model"] == model) & (data["method"] == method)]
        paths = run[run["record"] == "path"]
        if paths.empty:
            continue
        tolerance = run["target_tolerance_m"].dropna().iloc[0]
        path_panel(fig.add_subplot(grid[i % 2, 1 + i // 2]), paths, run[run["record"] == "target"], tolerance,
                   f"{label(model, method)}: best iterate, re-run")
    plotlib.save(fig, args.out)


if __name__ == "__main__":
    main()
