"""Seed 002 (Nimble) App. B: how each step's LCP was solved over contact-rich rollouts.

One stacked bar per rollout (box drops summed over their initial conditions): the fraction of
LCP solves that last step's active set solved (the warm start's hits), and of the rest those
solved by Dantzig, by the PGS fallback, only without friction, or not at all. The dashed line
is the paper's "more than 95 %" (which counts the solves where a guess exists: last step's
LCP had the same rows; the title gives both rates).
"""
import matplotlib.pyplot as plt

import plotlib

PATHS = [("hits", "warm start (last step's active set)"), ("dantzig", "Dantzig"), ("pgs", "PGS fallback"),
         ("frictionless", "frictionless fallback"), ("lcp_failed", "no valid solution")]


def main():
    args = plotlib.parse_args(__doc__)
    df = plotlib.read_csv(args.csv)
    df = df[df["contact_steps"].notna()]
    groups = df.groupby("rollout", sort=False)[[p for p, _ in PATHS] + ["contact_steps", "attempts"]].sum()
    fig, ax = plt.subplots(figsize=(8, 4), constrained_layout=True)
    bottom = [0.0] * len(groups)
    for column, label in PATHS:
        share = (groups[column] / groups["contact_steps"]).tolist()
        ax.bar(groups.index, share, bottom=bottom, label=label)
        bottom = [b + s for b, s in zip(bottom, share)]
    for i, (rollout, row) in enumerate(groups.iterrows()):
        ax.text(i, 1.01, f"{row['hits'] / row['contact_steps']:.3f}\n({int(row['contact_steps'])} LCPs)",
                ha="center", va="bottom", fontsize=8)
    ax.axhline(0.95, color="black", ls="--", lw=0.8)
    ax.set_ylim(0, 1.15)
    ax.set_ylabel("fraction of LCP solves")
    right = groups["hits"].sum() / groups["attempts"].sum()
    solved = groups["hits"].sum() / groups["contact_steps"].sum()
    ax.set_title(f"lcp_warmstart (Nimble App. B): the guess is right in {right:.3f} of its tries "
                 f"(paper: > 0.95) and solves {solved:.3f} of all LCPs", fontsize=9)
    ax.legend(fontsize=8, loc="lower left")
    plotlib.save(fig, args.out)


if __name__ == "__main__":
    main()
