"""Seed 004 (long-range contact) Fig. 4 / Table 2: the harmonic book stack vs mu.

Log-log, against longrange's contact coefficient mu: the gap between the top plank and the one
below at the end of the run (left) and the top plank's contact-force error |F - m g| (right).
Filled markers: stacks that stood; open markers: stacks that fell. Black crosses: the paper's
Table 2 (plots/data/longrange_table2_book_stacking.csv, the only input besides the CSV). Models
without mu (run once with their defaults) are listed in the title with whether their stack stood
(a star: the row failed anyway, e.g. a soft-contact engine resting interpenetrated).
"""
import os

import matplotlib.pyplot as plt
import pandas as pd

import plotlib

PAPER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "longrange_table2_book_stacking.csv")


def as_bool(series):
    return series.astype(str).str.lower().eq("true")


def draw(ax, runs, paper, column, paper_column, ylabel):
    for planks, g in runs.groupby("planks"):
        g = g.sort_values("mu")
        line, = ax.plot(g["mu"], g[column], "-", alpha=0.5, label=f"longrange, {int(planks)} planks")
        for stood, marker_face in ((True, line.get_color()), (False, "none")):
            s = g[g["stable"] == stood]
            ax.plot(s["mu"], s[column], "o", color=line.get_color(), markerfacecolor=marker_face)
    ref = paper.dropna(subset=[paper_column])
    ax.plot(ref["mu"], ref[paper_column], "kx", markersize=9, label="paper, Table 2 (20 planks)")
    plotlib.log_axes(ax, "mu", ylabel)


def main():
    args = plotlib.parse_args(__doc__)
    df = plotlib.read_csv(args.csv)
    engines = plotlib.engines(args.csv)
    paper = pd.read_csv(PAPER, comment="#")
    df["stable"] = as_bool(df["stable"])
    runs = df[(df["model"] == "longrange") & df["mu"].notna()]
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), constrained_layout=True)
    draw(axes[0], runs, paper, "top_gap_m", "gap_m", "gap below the top plank [m]")
    draw(axes[1], runs, paper, "force_error_n", "force_error_n", "top plank force error |F - m g| [N]")
    others = df[df["model"] != "longrange"]
    failed = as_bool(others["failed"])
    # A model swept over its own parameter (sdrs over kappa) is named with the value.
    swept = [f" {n}={v}" if isinstance(n, str) and n else "" for n, v in zip(others["param_name"], others["param_value"])]
    summary = ", ".join(f"{plotlib.model_label(m, engines)}{w}: {'stands' if s else 'falls'}{'*' if f else ''}"
                        for m, w, s, f in zip(others["model"], swept, others["stable"], failed))
    fig.suptitle("book_stacking (seed 004 Fig. 4, Table 2); open markers: the stack fell" +
                 (f"\nother models ({int(others['planks'].max())} planks): {summary} (*: the row failed, see its failure)"
                  if len(others) else ""), fontsize=10)
    plotlib.save(fig, args.out)


if __name__ == "__main__":
    main()
