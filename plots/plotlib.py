"""Shared helpers of the figure scripts: argument parsing and saving PNG + PDF.

Every figure script is called as `python3 plots/<figure>.py <input.csv> <output.png>`, reads
only that CSV (written by `arena run`), and writes <output>.png and <output>.pdf.
"""
import argparse
import json
import os
import sys

import numpy as np
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402


def parse_args(description):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("csv", help="results CSV written by `arena run`")
    parser.add_argument("out", help="output PNG path (a PDF is written beside it)")
    return parser.parse_args()


def read_csv(path):
    if not os.path.exists(path):
        sys.exit(f"{path}: no such file (run the experiment first)")
    return pd.read_csv(path, keep_default_na=True)


def engines(csv_path):
    """{model: description} of the wrapped engines (MuJoCo, DART) in the run, from the sidecar
    JSON that `arena run` writes beside the CSV; {} when there is none."""
    sidecar = os.path.splitext(csv_path)[0] + ".json"
    try:
        with open(sidecar) as f:
            return dict(json.load(f).get("engines", {}))
    except (OSError, ValueError):
        return {}


def model_label(model, engine_models):
    """A model's name in legends and titles, marking wrapped engines as such."""
    return f"{model} (engine)" if model in engine_models else model


def save(fig, out):
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    stem, _ = os.path.splitext(out)
    fig.savefig(stem + ".png", dpi=130, bbox_inches="tight")
    fig.savefig(stem + ".pdf", bbox_inches="tight")
    plt.close(fig)


def log_axes(ax, xlabel, ylabel):
    """Log-log axes with labels, a light grid on every decade and a small legend."""
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)


def loglog_slope(x, y):
    """Least-squares slope of log y against log x over the positive points (nan with fewer than two)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    ok = (x > 0) & (y > 0)
    if ok.sum() < 2:
        return float("nan")
    return np.polyfit(np.log(x[ok]), np.log(y[ok]), 1)[0]
