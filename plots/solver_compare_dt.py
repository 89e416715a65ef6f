"""solver_compare (issue 52): each problem's closed-form outcome error against the timestep.

One panel per problem (the mass-ratio stack once per mass ratio), one line per model: the median
error over the model's solver settings at each timestep, every setting a small dot. A run that
failed (a step failed or was flagged invalid, or the outcome monitor ended it) has no error: it
is drawn as a cross on the panel's top band, so a model that cannot hold a problem at a step is
visible as such and never as a small error. Every run settled first, so the error measures the
contact law from each model's own rest. Errors below 1e-9 m are drawn on the dotted line.
"""
import numpy as np
import matplotlib.pyplot as plt

import plotlib

FLOOR = 1e-9


def panels(df):
    """(title, rows) per problem; the stack once per mass ratio."""
    out = []
    for problem in dict.fromkeys(df["problem"]):
        p = df[df["problem"] == problem]
        if problem == "mass_ratio_stack" and "mass_ratio" in p:
            for r in sorted(p["mass_ratio"].unique()):
                out.append((f"{problem} (mass ratio {r:g})", p[p["mass_ratio"] == r]))
        else:
            out.append((problem, p))
    return out


def main():
    args = plotlib.parse_args(__doc__)
    df = plotlib.read_csv(args.csv)
    engines = plotlib.engines(args.csv)
    models = list(dict.fromkeys(df["model"]))
    colours = {m: plt.cm.tab10(i % 10) for i, m in enumerate(models)}
    groups = panels(df)
    cols = min(4, len(groups))
    rows = (len(groups) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.2 * rows), squeeze=False, constrained_layout=True)
    for ax, (title, p) in zip(axes.flat, groups):
        failed = p["failed"].astype(str).str.lower().eq("true")
        ok = p[~failed & p["outcome_error_m"].notna()]
        top = max(ok["outcome_error_m"].max() if not ok.empty else 1.0, 1e-3) * 10.0
        for m in models:
            pm = ok[ok["model"] == m]
            if not pm.empty:
                y = np.maximum(pm["outcome_error_m"].to_numpy(), FLOOR)
                ax.scatter(pm["timestep_s"], y, s=6, color=colours[m], alpha=0.5)
                med = pm.groupby("timestep_s")["outcome_error_m"].median()
                ax.plot(med.index, np.maximum(med.to_numpy(), FLOOR), color=colours[m], marker="o", ms=3, lw=1.0)
            bad = p[failed & (p["model"] == m)]
            if not bad.empty:
                ax.scatter(bad["timestep_s"], np.full(len(bad), top), marker="x", s=25, color=colours[m])
        ax.axhline(FLOOR, color="grey", ls=":", lw=0.6)
        ax.axhline(top, color="grey", ls="-", lw=0.4)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("timestep [s]")
        ax.set_ylabel("outcome error [m]")
        ax.grid(True, which="major", alpha=0.3)
    for ax in list(axes.flat)[len(groups):]:
        ax.axis("off")
    handles = [plt.Line2D([], [], color=colours[m], marker="o", label=plotlib.model_label(m, engines)) for m in models]
    handles.append(plt.Line2D([], [], color="grey", marker="x", ls="", label="run failed or flagged (top band)"))
    fig.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=min(len(handles), 6), fontsize=8)
    fig.suptitle("solver_compare: outcome error against timestep (settled start; line: median over solver settings)",
                 fontsize=10, y=1.05)
    plotlib.save(fig, args.out)


if __name__ == "__main__":
    main()
