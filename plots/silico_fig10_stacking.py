"""Seed 000 (Silico) Fig. 10: momentum drift of a two-block stack at rest.

For every model and scene variant, heat maps over simulation frequency (rows) x the model's
stiffness parameter (columns, soft to stiff): the mean linear momentum error (log scale; the
paper's Fig. 10 quantity, which should be 0 for a tower at rest), the mean angular momentum
error, and the fraction of towers still standing after 1 s; for spatial scenes also the smallest
exact mesh distance between any two of the blocks and the ground over every run of the cell (< 0:
interpenetration; the barrier models, longrange, ipc and sdrs, start apart and must stay above 0).
"""
import matplotlib.pyplot as plt

import plotlib
from silico_fig9_box_drop import cell_table, draw, stiffness_axis


def main():
    args = plotlib.parse_args(__doc__)
    df = plotlib.read_csv(args.csv)
    engines = plotlib.engines(args.csv)
    df["stands"] = df["stands"].astype(str).str.lower().eq("true").astype(float)
    df["param_value"] = df["param_value"].fillna(0.0)
    groups = list(df.groupby(["model", "variant"], sort=True))
    has_distance = "min_distance_m" in df.columns
    fig, axes = plt.subplots(len(groups), 4 if has_distance else 3, figsize=(20 if has_distance else 15, 3.6 * len(groups)),
                             squeeze=False, constrained_layout=True)
    for row, ((model, variant), g) in enumerate(groups):
        descending, label = stiffness_axis(g)
        prefix = f"{plotlib.model_label(model, engines)} / {variant}: "
        draw(axes[row][0], fig, cell_table(g, "linear_momentum_error", descending),
             prefix + "linear momentum error [kg m/s]", "magma", True, None, label)
        draw(axes[row][1], fig, cell_table(g, "angular_momentum_error", descending),
             prefix + "angular momentum error [kg m^2/s]", "magma", True, None, label)
        draw(axes[row][2], fig, cell_table(g, "stands", descending),
             prefix + "towers standing", "Greens", False, (0.0, 1.0), label)
        if has_distance:
            if g["min_distance_m"].notna().any():
                draw(axes[row][3], fig, cell_table(g, "min_distance_m", descending, "min"),
                     prefix + "min mesh distance [m] (< 0: interpenetration)", "viridis", False, None, label)
            else:
                axes[row][3].axis("off")
    counts = df.groupby(["model", "variant"]).size().to_dict()
    fig.suptitle("stacking (Silico Fig. 10): " + ", ".join(f"{plotlib.model_label(m, engines)}/{v}: {n} runs" for (m, v), n in counts.items()),
                 fontsize=10)
    plotlib.save(fig, args.out)


if __name__ == "__main__":
    main()
