"""Drawing the collider outlines written by the seed-000 snapshot experiments
(peg_in_hole, convex_bundles): colliders separated by '|', points by ';', "x y" pairs;
half-planes as "halfplane x y nx ny"."""
import matplotlib.pyplot as plt
import numpy as np

import plotlib


def draw_outlines(ax, text, color="tab:blue"):
    for item in str(text).split("|"):
        item = item.strip()
        if not item:
            continue
        if item.startswith("halfplane"):
            _, x, y, nx, ny = item.split()
            x, y, nx, ny = map(float, (x, y, nx, ny))
            t = np.array([ny, -nx])
            p0, p1 = np.array([x, y]) - 20 * t, np.array([x, y]) + 20 * t
            ax.plot([p0[0], p1[0]], [p0[1], p1[1]], color="k", lw=1)
            continue
        pts = np.array([[float(v) for v in p.split()] for p in item.split(";")])
        ax.fill(pts[:, 0], pts[:, 1], facecolor=color, alpha=0.35, edgecolor=color, lw=1)


def snapshot_figure(doc, title, xlim, ylim):
    """One row of frames per model (and swept value) from a snapshot CSV."""
    args = plotlib.parse_args(doc)
    df = plotlib.read_csv(args.csv)
    runs = list(df.groupby(["model", "param_value"], dropna=False, sort=True))
    n_frames = max(len(g) for _, g in runs)
    fig, axes = plt.subplots(len(runs), n_frames, figsize=(2.6 * n_frames, 2.6 * len(runs)), squeeze=False,
                             constrained_layout=True)
    for row, ((model, value), g) in enumerate(runs):
        g = g.sort_values("frame")
        for col in range(n_frames):
            ax = axes[row][col]
            ax.set_aspect("equal")
            ax.set_xlim(*xlim)
            ax.set_ylim(*ylim)
            ax.set_xticks([])
            ax.set_yticks([])
            if col >= len(g):
                ax.axis("off")
                continue
            r = g.iloc[col]
            draw_outlines(ax, r["outlines"])
            label = f"{model}" + ("" if str(value) == "nan" else f" {value:g}")
            ax.set_title(f"{label}  t={r['time_s']:.2f}s\ncontacts {int(r['contacts_geometric'])}, "
                         f"pen {r['penetration_m'] * 1e3:.2g} mm", fontsize=7)
    fig.suptitle(title, fontsize=10)
    plotlib.save(fig, args.out)
