"""Seed 000 (Silico) Fig. 9: object drop robustness.

For every model and scene variant, three heat maps over simulation frequency (rows) x the
model's stiffness parameter (columns, soft to stiff: silico's relaxation rho decreasing,
penalty's spring stiffness increasing): mean solver iterations per step, failure rate, and the
max ground penetration averaged over the runs that did not fail (blank: every run failed), and
for planar scenes the paper's own violation metric, the max P-SDF violation max(0, -phi) of a
standalone collision program, averaged over all runs (up to the failing step); for spatial scenes
in its place the smallest exact mesh distance between the cube and the ground over every run of
the cell (< 0: interpenetration; the barrier models, longrange and ipc, must stay above 0).
"""
import numpy as np
import matplotlib.pyplot as plt
from matplotlib.colors import LogNorm

import plotlib

# Parameters for which a smaller value is stiffer (columns then run in decreasing order): silico's
# and bilevel's relaxation, longrange's contact coefficient mu (a smaller potential rests closer),
# ipc's activation distance dhat, sdrs's barrier scale kappa (its resting gap shrinks with it).
SMALLER_IS_STIFFER = {"rho", "relaxation", "complementarity_tolerance", "mu", "dhat", "kappa"}


def stiffness_axis(group):
    """(descending, x label) of a (model, variant) group's stiffness axis: columns run soft to
    stiff, so a parameter for which smaller is stiffer (rho) is sorted descending."""
    names = group["param_name"].dropna()
    param = names.iloc[0] if len(names) else ""
    return param in SMALLER_IS_STIFFER, (param or "parameter") + ("  (stiffer to the right)" if param else "")


def cell_table(df, column, descending, aggfunc="mean"):
    """`aggfunc` (the mean unless told) of `column` per (frequency, parameter) cell, on the full
    grid of the group."""
    table = df.pivot_table(index="frequency_hz", columns="param_value", values=column, aggfunc=aggfunc,
                           dropna=False)
    rows = sorted(df["frequency_hz"].unique())
    cols = sorted(df["param_value"].unique(), reverse=descending)
    return table.reindex(index=rows, columns=cols)


def draw(ax, fig, table, title, cmap, log, fixed_range, xlabel):
    values = table.values.astype(float)
    finite = values[np.isfinite(values)]
    colors = plt.get_cmap(cmap).copy()
    colors.set_bad("lightgray")  # cells with no value (e.g. every run failed)
    if log:
        positive = finite[finite > 0]
        lo = positive.min() if positive.size else 1e-9
        hi = max(lo * 10, positive.max() if positive.size else lo * 10)
        shown = np.ma.masked_invalid(np.where(values > 0, values, np.where(np.isfinite(values), lo, np.nan)))
        im = ax.imshow(shown, cmap=colors, norm=LogNorm(vmin=lo, vmax=hi), aspect="auto", origin="lower")
    else:
        vmin, vmax = fixed_range if fixed_range else (None, None)
        im = ax.imshow(np.ma.masked_invalid(values), cmap=colors, vmin=vmin, vmax=vmax, aspect="auto",
                       origin="lower")
    ax.set_xticks(range(len(table.columns)), [f"{v:g}" for v in table.columns], rotation=30)
    ax.set_yticks(range(len(table.index)), [f"{v:g}" for v in table.index])
    ax.set_xlabel(xlabel)
    ax.set_ylabel("frequency [Hz]")
    ax.set_title(title, fontsize=9)
    for (i, j), v in np.ndenumerate(values):
        ax.text(j, i, f"{v:.2g}" if np.isfinite(v) else "-", ha="center", va="center", fontsize=7,
                color="dimgray" if not np.isfinite(v) else "white")
    fig.colorbar(im, ax=ax, shrink=0.9)


def main():
    args = plotlib.parse_args(__doc__)
    df = plotlib.read_csv(args.csv)
    engines = plotlib.engines(args.csv)
    df["failed"] = df["failed"].astype(str).str.lower().eq("true").astype(float)
    df["param_value"] = df["param_value"].fillna(0.0)
    df["penetration_ok"] = df["max_penetration_m"].where(df["failed"] == 0.0)
    groups = list(df.groupby(["model", "variant"], sort=True))
    has_psdf = "max_psdf_violation" in df.columns
    has_distance = "min_distance_m" in df.columns
    fourth = has_psdf or has_distance
    fig, axes = plt.subplots(len(groups), 4 if fourth else 3, figsize=(20 if fourth else 15, 3.6 * len(groups)),
                             squeeze=False,
                             constrained_layout=True)
    for row, ((model, variant), g) in enumerate(groups):
        descending, label = stiffness_axis(g)
        prefix = f"{plotlib.model_label(model, engines)} / {variant}: "
        draw(axes[row][0], fig, cell_table(g, "mean_iterations", descending),
             prefix + "mean iterations per step", "viridis", False, None, label)
        draw(axes[row][1], fig, cell_table(g, "failed", descending),
             prefix + "failure rate", "Reds", False, (0.0, 1.0), label)
        draw(axes[row][2], fig, cell_table(g, "penetration_ok", descending),
             prefix + "max penetration [m], runs that did not fail", "magma", True, None, label)
        if fourth:
            if has_psdf and g["max_psdf_violation"].notna().any():
                draw(axes[row][3], fig, cell_table(g, "max_psdf_violation", descending),
                     prefix + "max P-SDF violation (paper's metric)", "magma", True, None, label)
            elif has_distance and g["min_distance_m"].notna().any():
                draw(axes[row][3], fig, cell_table(g, "min_distance_m", descending, "min"),
                     prefix + "min mesh distance [m] (< 0: interpenetration)", "viridis", False, None, label)
            else:
                axes[row][3].axis("off")
    counts = df.groupby(["model", "variant"]).size().to_dict()
    fig.suptitle("box_drop (Silico Fig. 9): " + ", ".join(f"{plotlib.model_label(m, engines)}/{v}: {n} runs" for (m, v), n in counts.items()),
                 fontsize=10)
    plotlib.save(fig, args.out)


if __name__ == "__main__":
    main()
