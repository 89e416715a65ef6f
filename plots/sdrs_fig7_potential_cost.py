"""Seed 003 (SDRS) Figs. 7-8: cost of one pairwise contact potential against the hulls' vertex count.

Left: seconds of one evaluation of the potential + gradient + projected Hessian, log-log, against
the vertices per hull, the median over the run's random hull pairs at each size (bars: their
range): sdrs from a cold plane (GJK's witnesses) and warm-started from the converged plane, ipc
over the same hulls' triangles at dhat = x0 (the pairs within it) and with every primitive pair
active (the mesh worst case), and any other model of the run; each line labelled with its
least-squares log-log slope. Right: the terms with derivatives (sdrs: vertices within x0 of the
plane; ipc: primitive pairs within dhat). Measured in one run on one thread.
"""
import numpy as np
import matplotlib.pyplot as plt

import plotlib

# (method, column, label): sdrs twice, cold and warm.
SERIES = [("sdrs", "eval_first_s", "sdrs, cold plane"), ("sdrs", "eval_s", "sdrs, warm plane"),
          ("ipc", "eval_s", "ipc, dhat = x0"), ("ipc_all_pairs", "eval_s", "ipc, every primitive pair")]
COLOURS = {"sdrs": "C0", "ipc": "C1", "ipc_all_pairs": "C3"}


def style(method, column, index):
    """One colour per method in both panels; sdrs's warm line dashed."""
    return COLOURS.get(method, f"C{4 + index}"), "s--" if column == "eval_s" and method == "sdrs" else "o-"



def series(df, method, column):
    d = df[(df["method"] == method) & ~df["failed"].astype(bool) & df[column].notna()]
    g = d.groupby("vertices")[column]
    return g.median(), g.min(), g.max()


def panel(ax, df, entries, ylabel):
    for i, (method, column, label) in enumerate(entries):
        med, lo, hi = series(df, method, column)
        if med.empty:
            continue
        x, y = med.index.to_numpy(float), med.to_numpy(float)
        k = plotlib.loglog_slope(x, y)
        colour, fmt = style(method, column, i)
        ax.errorbar(x, y, yerr=[y - lo.to_numpy(float), hi.to_numpy(float) - y], fmt=fmt, color=colour,
                    capsize=2, label=f"{label} (slope {k:.2f})" if np.isfinite(k) else label)
    plotlib.log_axes(ax, "vertices per hull", ylabel)


def title(df):
    cold, _, _ = series(df, "sdrs", "eval_first_s")
    ipc, _, _ = series(df, "ipc", "eval_s")
    common = sorted(set(cold.index) & set(ipc.index))
    if not common:
        return "potential_cost (seed 003 Figs. 7-8)"
    n = common[-1]
    return f"potential_cost (seed 003 Figs. 7-8): ipc / sdrs (cold) = {ipc[n] / cold[n]:.0f} at V = {int(n)}"


def main():
    args = plotlib.parse_args(__doc__)
    df = plotlib.read_csv(args.csv)
    others = sorted(set(df["method"]) - {m for m, _, _ in SERIES})
    entries = [s for s in SERIES if s[0] in set(df["method"])] + [(m, "eval_s", m) for m in others]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), constrained_layout=True)
    panel(axes[0], df, entries, "potential + gradient + Hessian [s]")
    terms = [(m, "terms", label.split(",")[0] + (", every pair" if m == "ipc_all_pairs" else ""))
             for m, c, label in entries if c != "eval_first_s" and df.loc[df["method"] == m, "terms"].notna().any()]
    panel(axes[1], df, terms, "terms with derivatives")
    fig.suptitle(title(df), fontsize=10)
    plotlib.save(fig, args.out)


if __name__ == "__main__":
    main()
