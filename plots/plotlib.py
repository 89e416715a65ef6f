"""Shared helpers of the figure scripts: argument parsing and saving PNG + PDF.

Every figure script is called as `python3 plots/<figure>.py <input.csv> <output.png>`, reads
only that CSV (written by `arena run`), and writes <output>.png and <output>.pdf.
"""
import argparse
import os
import sys

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


def save(fig, out):
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    stem, _ = os.path.splitext(out)
    fig.savefig(stem + ".png", dpi=130, bbox_inches="tight")
    fig.savefig(stem + ".pdf", bbox_inches="tight")
    plt.close(fig)
