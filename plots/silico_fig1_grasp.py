"""Seed 000 (Silico) Fig. 1: the RRT grasp. Top row, per model (its first seed): the tree of
star positions the planner grew (grey edges), the path to the node nearest the goal (the star's
outline along it, start in blue, goal dashed) and the fingertips at the path's end. Bottom left:
the planning time of every seed per model, hollow where the plan did not reach the goal; bottom
right: how far each seed's path end is from the goal, as a fraction of the start's distance (star
position and angle), so a model whose gradients do not move the star stays at 1. The fingertips
are drawn as the scene has them (octagons by default, disks in the paper)."""
import math

import numpy as np

from plotlib import parse_args, plt, read_csv, save

# The star of the grasp scene: two triangles, faces (0, -1), (+-sin 60, cos 60) at b = (0.4, 0.1,
# 0.1), and their negation (scenes/silico_scenes.h).
_HALF_BASE = 0.6 / math.sqrt(3.0)
_UP = np.array([[0.0, 0.2], [_HALF_BASE, -0.4], [-_HALF_BASE, -0.4]])
_GOAL = (1.5, 1.0, -0.6 * math.pi)
_FINGER_RADIUS = 0.1


def star_polygons(x, y, theta):
    c, s = math.cos(theta), math.sin(theta)
    rot = np.array([[c, -s], [s, c]])
    return [tri @ rot.T + np.array([x, y]) for tri in (_UP, -_UP)]


def draw_star(ax, x, y, theta, **style):
    for poly in star_polygons(x, y, theta):
        ax.add_patch(plt.Polygon(poly, closed=True, fill=False, **style))


def tree_panel(ax, rows, model):
    path = rows[rows["record"] == "path"].sort_values("step")
    if path.empty:  # the start had no metric: no tree
        plan = rows[rows["record"] == "plan"].iloc[0]
        ax.text(0.5, 0.5, f"{model}: no tree\n{plan.get('failure', '')}", ha="center", va="center", wrap=True,
                fontsize=8, transform=ax.transAxes)
        ax.set_axis_off()
        return
    tree = rows[rows["record"] == "tree"].set_index("node")
    for node, r in tree.iterrows():
        if r["parent"] >= 0:
            p = tree.loc[r["parent"]]
            ax.plot([p["star_x_m"], r["star_x_m"]], [p["star_y_m"], r["star_y_m"]], color="0.8", lw=0.5, zorder=1)
    ax.plot(path["star_x_m"], path["star_y_m"], color="tab:red", lw=1.2, zorder=3, label="path (star centre)")
    stride = max(1, len(path) // 6)
    for i, (_, r) in enumerate(path.iterrows()):
        if i % stride == 0 or i == len(path) - 1:
            color = "tab:blue" if i == 0 else "tab:red"
            draw_star(ax, r["star_x_m"], r["star_y_m"], r["star_theta_rad"], color=color, lw=0.8, alpha=0.7, zorder=4)
    end = path.iloc[-1]
    octagon = str(rows["fingertips"].iloc[0]) == "octagon"
    for side in ("left", "right"):
        centre = (end[f"{side}_x_m"], end[f"{side}_y_m"])
        if octagon:  # inradius _FINGER_RADIUS, faces at multiples of 45 degrees
            r = _FINGER_RADIUS / math.cos(math.pi / 8)
            corners = [(centre[0] + r * math.cos(math.pi / 8 + k * math.pi / 4),
                        centre[1] + r * math.sin(math.pi / 8 + k * math.pi / 4)) for k in range(8)]
            ax.add_patch(plt.Polygon(corners, closed=True, color="k", alpha=0.5, zorder=5))
        else:
            ax.add_patch(plt.Circle(centre, _FINGER_RADIUS, color="k", alpha=0.5, zorder=5))
    draw_star(ax, *_GOAL, color="k", ls="--", lw=1.0, zorder=4)
    ax.axhline(0.0, color="k", lw=0.8)
    plan = rows[rows["record"] == "plan"].iloc[0]
    verdict = "reached" if str(plan["success"]).lower() == "true" else "not reached"
    ax.set_title(f"{model}: goal {verdict}, {int(plan['nodes'])} nodes, {plan['planning_time_s']:.2f} s", fontsize=9)
    ax.set_aspect("equal")
    ax.set_xlim(-0.3, 2.3)
    ax.set_ylim(-0.1, 2.1)
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")


def time_panel(ax, plans, models):
    for k, model in enumerate(models):
        p = plans[plans["model"] == model]
        ok = p["success"].astype(str).str.lower() == "true"
        jitter = np.linspace(-0.15, 0.15, len(p)) if len(p) > 1 else np.zeros(len(p))
        ax.scatter(k + jitter[ok.values], p["planning_time_s"][ok], color="tab:green", s=18, label="reached" if k == 0 else None)
        ax.scatter(k + jitter[~ok.values], p["planning_time_s"][~ok], facecolors="none", edgecolors="tab:red", s=18,
                   label="not reached" if k == 0 else None)
    ax.axhline(1.0, color="k", ls=":", lw=0.8, label="paper: about 1 s (laptop)")
    ax.set_xlim(-0.5, len(models) - 0.5)
    ax.set_xticks(range(len(models)))
    ax.set_xticklabels(models)
    ax.set_yscale("log")
    ax.set_ylabel("planning time (s)")
    ax.legend(fontsize=7)


def progress_panel(ax, plans, models):
    # The start's errors: the star at (1.0, 0.4, 0) against the goal (scenes/silico_scenes.h).
    start_position = math.hypot(_GOAL[0] - 1.0, _GOAL[1] - 0.4)
    start_angle = abs(_GOAL[2])
    for k, model in enumerate(models):
        p = plans[plans["model"] == model]
        jitter = np.linspace(-0.08, 0.08, len(p)) if len(p) > 1 else np.zeros(len(p))
        ax.scatter(k + jitter - 0.15, p["position_error_m"] / start_position, color="tab:blue", s=18, marker="o",
                   label="position" if k == 0 else None)
        ax.scatter(k + jitter + 0.15, p["angle_error_rad"] / start_angle, color="tab:orange", s=18, marker="s",
                   label="angle" if k == 0 else None)
    ax.axhline(1.0, color="k", ls=":", lw=0.8)
    ax.set_xlim(-0.5, len(models) - 0.5)
    ax.set_ylim(0.0, 1.1)
    ax.set_xticks(range(len(models)))
    ax.set_xticklabels(models)
    ax.set_ylabel("path end's error / start's")
    ax.legend(fontsize=7)


def main():
    args = parse_args(__doc__)
    df = read_csv(args.csv)
    models = list(dict.fromkeys(df["model"]))
    fig = plt.figure(figsize=(max(8.0, 4.2 * len(models)), 7.5))
    grid = fig.add_gridspec(2, len(models), height_ratios=[3, 1.4])
    for k, model in enumerate(models):
        rows = df[(df["model"] == model) & (df["sample"] == 0)]
        tree_panel(fig.add_subplot(grid[0, k]), rows, model)
    plans = df[df["record"] == "plan"]
    bottom = grid[1, :].subgridspec(1, 2)
    time_panel(fig.add_subplot(bottom[0, 0]), plans, models)
    progress_panel(fig.add_subplot(bottom[0, 1]), plans, models)
    fig.suptitle("grasp (Silico Fig. 1): RRT through contact guided by each model's gradients (silico smoothed; mujoco, by differences, and penalty unsmoothed)", fontsize=10)
    save(fig, args.out)


if __name__ == "__main__":
    main()
