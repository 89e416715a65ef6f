"""Seed 001 (SCM) Figs. 6-7: the T-push replays. Top: per sequence, the T's centre of mass along
mujoco's replay and scm's (RK4 and Euler at the smallest timestep, finest point cloud), the
finger's path, and the T's outline at the start and at each model's end. Bottom: per run and
point cloud (the paper's table columns), the mean final COM distance and yaw difference between
scm and mujoco, and the step times of both (one CPU thread; the paper's MJX ran on a GPU).
The T's dimensions are scenes/tpush_scenes.h's.
"""
import matplotlib.pyplot as plt
import numpy as np

import plotlib

BAR, STEM = (0.25, 0.05), (0.05, 0.15)  # m: the bar (x by y) on the stem
BAR_Y = 0.15 + 0.025 - (125 * 0.175 + 75 * 0.075) / 200  # the bar's centre above the COM


def t_outline(x, y, yaw_deg):
    """The T's outline (closed polygon) at pose (x, y, yaw)."""
    bx, by, sx, sy = BAR[0] / 2, BAR[1] / 2, STEM[0] / 2, STEM[1]
    top, bottom = BAR_Y + by, BAR_Y - by
    pts = np.array([[-bx, top], [bx, top], [bx, bottom], [sx, bottom], [sx, bottom - sy], [-sx, bottom - sy],
                    [-sx, bottom], [-bx, bottom], [-bx, top]])
    c, s = np.cos(np.radians(yaw_deg)), np.sin(np.radians(yaw_deg))
    return pts @ np.array([[c, s], [-s, c]]) + np.array([x, y])


def run_key(label):
    ms, integrator = label.split("-")
    return (integrator != "rk4", float(ms))


def main():
    args = plotlib.parse_args(__doc__)
    data = plotlib.read_csv(args.csv)
    final = data[data["kind"] == "final"]
    trace = data[data["kind"] == "trace"]
    runs = sorted(final["run"].dropna().unique(), key=run_key)
    fine = final["patch_size_m"].min()
    first_rk4 = next((r for r in runs if r.endswith("rk4")), runs[0])
    first_euler = next((r for r in runs if r.endswith("euler")), None)
    sequences = sorted(final["sequence"].unique())
    fig = plt.figure(figsize=(3.2 * max(len(sequences), 3), 8), constrained_layout=True)
    grid = fig.add_gridspec(2, max(len(sequences), 3))
    lines = [("mujoco", first_rk4, None, "black", "mujoco " + first_rk4),
             ("scm", first_rk4, fine, "tab:blue", f"scm {first_rk4}, finest cloud")]
    if first_euler:
        lines.append(("scm", first_euler, fine, "tab:orange", f"scm {first_euler}, finest cloud"))
    for k, seq in enumerate(sequences):
        ax = fig.add_subplot(grid[0, k])
        start = t_outline(0.0, 0.0, 0.0)
        ax.plot(start[:, 0], start[:, 1], color="grey", ls="--", lw=0.8)
        for model, run, patch, colour, label in lines:
            rows = trace[(trace["model"] == model) & (trace["sequence"] == seq) & (trace["run"] == run)]
            if patch is not None:
                rows = rows[rows["patch_size_m"] == patch]
            if len(rows) == 0:
                continue
            rows = rows.sort_values("t_s")
            ax.plot(rows["x_m"], rows["y_m"], color=colour, lw=1.2, label=label)
            if model == "mujoco":
                ax.plot(rows["finger_x_m"], rows["finger_y_m"], color="lightgrey", lw=0.8, zorder=0, label="finger (mujoco)")
            end = rows.iloc[-1]
            ax.plot(*t_outline(end["x_m"], end["y_m"], end["yaw_deg"]).T, color=colour, lw=1)
        ax.set_aspect("equal")
        ax.set_title(f"sequence {int(seq)}", fontsize=9)
        ax.set_xlabel("x (m)")
        if k == 0:
            ax.set_ylabel("y (m)")
            ax.legend(fontsize=6, loc="lower left")
    # The table: one group of bars per run and cloud.
    mujoco = final[final["model"] == "mujoco"].set_index(["sequence", "run"])
    groups = []
    for run in runs:
        for patch in sorted(final[(final["model"] == "scm") & (final["run"] == run)]["patch_size_m"].unique(), reverse=False):
            rows = final[(final["model"] == "scm") & (final["run"] == run) & (final["patch_size_m"] == patch)]
            d, a, t_scm, t_mj = [], [], [], []
            for _, r in rows.iterrows():
                if r["diverged"] is True or str(r["diverged"]).lower() == "true" or (r["sequence"], run) not in mujoco.index:
                    continue
                m = mujoco.loc[(r["sequence"], run)]
                d.append(100 * np.hypot(r["final_x_m"] - m["final_x_m"], r["final_y_m"] - m["final_y_m"]))
                a.append(abs((r["final_yaw_deg"] - m["final_yaw_deg"] + 180) % 360 - 180))
                t_scm.append(r["step_time_ms"])
                t_mj.append(m["step_time_ms"])
            points = int(rows["t_points"].iloc[0]) if len(rows) else 0
            groups.append((f"{run}\n{points} pts", d, a, t_scm, t_mj, len(rows) - len(d)))
    x = np.arange(len(groups))
    err = fig.add_subplot(grid[1, : max(len(sequences), 3) // 2 + 1])
    err.bar(x - 0.2, [np.mean(g[1]) if g[1] else np.nan for g in groups], 0.4, label="COM distance (cm)")
    err.bar(x + 0.2, [np.mean(g[2]) if g[2] else np.nan for g in groups], 0.4, label="yaw difference (deg)")
    for xi, g in zip(x, groups):
        if g[5]:
            err.annotate(f"{g[5]} diverged", (xi, 0), fontsize=6, ha="center", va="bottom", rotation=90)
    err.set_xticks(x, [g[0] for g in groups], fontsize=7)
    err.set_title("scm vs mujoco: final pose, mean over sequences", fontsize=9)
    err.legend(fontsize=7)
    times = fig.add_subplot(grid[1, max(len(sequences), 3) // 2 + 1:])
    times.bar(x - 0.2, [np.mean(g[3]) if g[3] else np.nan for g in groups], 0.4, label="scm")
    times.bar(x + 0.2, [np.mean(g[4]) if g[4] else np.nan for g in groups], 0.4, label="mujoco (CPU)", color="black")
    times.set_yscale("log")
    times.set_ylabel("step time (ms)")
    times.set_xticks(x, [g[0] for g in groups], fontsize=7)
    times.legend(fontsize=7)
    plotlib.save(fig, args.out)


if __name__ == "__main__":
    main()
