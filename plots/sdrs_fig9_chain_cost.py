"""Seed 003 (SDRS) Fig. 9 and Table II: four rotating chains, time per step against DOF and where it goes.

Left: mean seconds of a forward step (solid) and of a step with its derivatives (dashed) against
the DOF, log-log, one colour per model, each labelled with the least-squares slope of the
latter. Right: the breakdown of a step with its derivatives for each model at each size, stacked
to 1: contact potential, step bound, Newton systems, other, backward (the derivatives). One
thread, one run.
"""
import numpy as np
import matplotlib.pyplot as plt

import plotlib

PARTS = [("potential_fraction", "contact potential"), ("step_bound_fraction", "step bound"),
         ("newton_fraction", "Newton systems"), ("other_fraction", "other"), ("backward_fraction", "backward")]



def ok_rows(df):
    return df[~df["failed"].astype(bool)]


def timing(ax, df):
    for i, model in enumerate(sorted(set(df["model"]))):
        d = ok_rows(df[df["model"] == model]).sort_values("dof")
        x = d["dof"].to_numpy(float)
        total = d["total_s"].to_numpy(float)
        k = plotlib.loglog_slope(x, total)
        ax.plot(x, d["step_s"].to_numpy(float), "o-", color=f"C{i}", label=f"{model}, forward step")
        label = f"{model}, with derivatives" + (f" (slope {k:.2f})" if np.isfinite(k) else "")
        ax.plot(x, total, "s--", color=f"C{i}", label=label)
    plotlib.log_axes(ax, "DOF (four chains)", "seconds a step")


def breakdown(ax, df):
    d = ok_rows(df).dropna(subset=["backward_fraction"]).sort_values(["model", "dof"])
    labels = [f"{m}\n{int(n)}" for m, n in zip(d["model"], d["dof"])]
    bottom = np.zeros(len(d))
    for j, (column, name) in enumerate(PARTS):
        v = d[column].to_numpy(float)
        ax.bar(range(len(d)), v, bottom=bottom, color=f"C{j}", label=name)
        bottom += v
    ax.set_xticks(range(len(d)))
    ax.set_xticklabels(labels, fontsize=7)
    ax.set_ylabel("share of a step with its derivatives")
    ax.set_xlabel("model, DOF")
    ax.legend(fontsize=7)


def main():
    args = plotlib.parse_args(__doc__)
    df = plotlib.read_csv(args.csv)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), constrained_layout=True)
    timing(axes[0], df)
    breakdown(axes[1], df)
    fig.suptitle("chain_cost (seed 003 Fig. 9, Table II): four rotating chains", fontsize=10)
    plotlib.save(fig, args.out)


if __name__ == "__main__":
    main()
