#!/usr/bin/env python3
"""Charts of the benchmark results: reads the Markdown tables of bench/RESULTS.md and writes one
PNG per benchmark into bench/plots/ (Star against its peers, time against size on log axes, the
times labelled in s, ms and µs; the primitives, all within one decade, on a linear axis in µs).
RESULTS.md links them under "Charts".

usage: python3 bench/plot.py [--results FILE] [--out DIR]

Needs matplotlib (Debian: python3-matplotlib, installed by scripts/install-deps.sh); it draws
with the Agg backend, no display needed. Each chart names the table it comes from; a table that
is missing or changed its columns stops the script with a message naming it.
"""
import argparse
import math
import os
import re
import sys
import textwrap

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, NullFormatter
except ImportError:
    sys.exit("plot.py needs matplotlib: apt-get install python3-matplotlib "
             "(or run it with the system python3, /usr/bin/python3)")

HERE = os.path.dirname(os.path.abspath(__file__))


# ----------------------------------------------------------------------------- reading tables

class Table:
    def __init__(self, heading, header, rows):
        self.heading, self.header, self.rows = heading, header, rows

    def column(self, name):
        """The index of the first column whose header starts with `name`."""
        for i, h in enumerate(self.header):
            if h.startswith(name):
                return i
        raise SystemExit("bench/RESULTS.md, table under '%s': no column '%s' (columns: %s)"
                         % (self.heading, name, ", ".join(self.header)))

    def values(self, name):
        i = self.column(name)
        return [number(r[i]) for r in self.rows]


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def read_tables(path):
    """Every Markdown table, with the heading it is under."""
    tables, heading, block = [], "", []
    for line in open(path, encoding="utf-8").read().split("\n") + [""]:
        if line.startswith("|"):
            block.append(line.replace("\\|", "/"))
            continue
        if len(block) >= 2:
            rows = [cells(l) for l in block[2:]]
            tables.append(Table(heading, cells(block[0]), rows))
        block = []
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
    return tables


def find(tables, heading, first_column, index=0):
    """The index-th table under a heading containing `heading` whose first column header
    starts with `first_column`."""
    found = [t for t in tables if heading in t.heading and t.header and t.header[0].startswith(first_column)]
    if len(found) <= index:
        raise SystemExit("bench/RESULTS.md: no table under a heading with '%s' starting with column '%s'"
                         % (heading, first_column))
    return found[index]


UNITS = {"ms": 1e-3, "s": 1.0, "us": 1e-6, "µs": 1e-6}


def number(text):
    """A cell as a number: `2^24`, `1,997`, `**0.668 ms**`, `4.3x`, `26.87 G`; None for `-`,
    blanks and words. Times come back in the unit written (the caller knows it)."""
    t = text.replace("*", "").replace(",", "").strip()
    m = re.fullmatch(r"(\d+)\^(\d+)", t)
    if m:
        return float(int(m.group(1)) ** int(m.group(2)))
    m = re.fullmatch(r"(-?[\d.]+(?:e[+-]?\d+)?)\s*(ms|s|us|µs|x|G|M)?", t)
    if not m:
        return None
    return float(m.group(1))


def seconds(text):
    """A cell with a time unit (`2.330 ms`, `0.372 s`) in seconds; None when there is none."""
    t = text.replace("*", "").strip()
    m = re.fullmatch(r"([\d.]+(?:e[+-]?\d+)?)\s*(ms|s|us|µs)", t)
    return float(m.group(1)) * UNITS[m.group(2)] if m else None


# ----------------------------------------------------------------------------- drawing

FOOTER_CHARS = 150  # characters of the 7-point footer that fit the 7.5-inch width


def footer(fig, source):
    """The table a chart comes from, under it, wrapped to the width of the figure. Returns the
    fraction of the height it takes, for tight_layout to keep clear."""
    lines = textwrap.wrap("from bench/RESULTS.md: " + source, FOOTER_CHARS, break_on_hyphens=False)
    fig.text(0.01, 0.01, "\n".join(lines), fontsize=7, color="0.4", va="bottom")
    return 0.02 + 0.028 * len(lines)


def chart(title, xlabel, ylabel, source):
    fig, ax = plt.subplots(figsize=(7.5, 4.8), dpi=100)
    ax.set_title(title, fontsize=11)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.grid(True, which="both", alpha=0.25)
    fig.footer_height = footer(fig, source)
    return fig, ax


def line(ax, xs, ys, label, star=False, **kw):
    points = [(x, y) for x, y in zip(xs, ys) if x is not None and y is not None]
    if not points:
        return
    style = dict(marker="o", linewidth=2.2 if star else 1.2, linestyle="-" if star else "--")
    style.update(kw)
    ax.plot([p[0] for p in points], [p[1] for p in points], label=label, **style)


def time_label(seconds, _pos=None):
    """A time in seconds with the unit that keeps it between 1 and 1000: `20 µs`, `1.5 ms`."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if seconds >= scale * 0.9995:
            x = seconds / scale
            return "%s %s" % ("%.3g" % x if x < 1000 else "{:,.0f}".format(x), unit)
    return "0"


def time_ticks(ax):
    """A logarithmic time axis labelled in s, ms, µs: a tick at each power of ten, and at 2 and 5
    times them (or 2, 3 and 5) where the axis spans too few decades to show three labels."""
    lo, hi = ax.get_ylim()
    decades = math.log10(hi / lo)
    subs = (1.0,) if decades >= 2.5 else (1.0, 2.0, 5.0) if decades >= 1 else (1.0, 2.0, 3.0, 5.0)
    ax.yaxis.set_major_locator(LogLocator(base=10, subs=subs, numticks=16))
    ax.yaxis.set_major_formatter(FuncFormatter(time_label))
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.set_ylim(lo, hi)


def size_label(n):
    """A size: `1,000`, `16.8M`; a power of two from 2^16 on as 2^k."""
    if n >= 2 ** 16 and n == 2 ** round(math.log2(n)):
        return "$2^{%d}$" % round(math.log2(n))
    if n >= 1e6:
        return "%gM" % float("%.3g" % (n / 1e6))
    return "{:,}".format(int(round(n)))


def size_ticks(ax):
    """A logarithmic size axis that spans less than two decades gets a labelled tick at each
    measured size instead of matplotlib's mix of 10^k and 2x10^k labels."""
    xs = sorted({x for l in ax.get_lines() for x in l.get_xdata()})
    lo, hi = ax.get_xlim()
    if len(xs) < 2 or math.log10(hi / lo) >= 2:
        return
    ax.xaxis.set_major_locator(FixedLocator(xs))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: size_label(v)))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlim(lo, hi)


def save(fig, ax, out, name, times=True, legend="upper left", columns=1):
    ax.legend(fontsize=8, loc=legend, ncol=columns)
    if times:
        time_ticks(ax)
    if ax.get_xscale() == "log":
        size_ticks(ax)
    fig.tight_layout(rect=(0, getattr(fig, "footer_height", 0.03), 1, 1))
    path = os.path.join(out, name)
    fig.savefig(path)
    plt.close(fig)
    print("wrote", os.path.relpath(path))


# ----------------------------------------------------------------------------- the charts

def closure(tables, out):
    t = find(tables, "Native transitive closure", "n")
    n = t.values("n")
    fig, ax = chart("Transitive closure (CLOSURE of unit graphs) against peers", "vertices n",
                    "time", t.heading)
    col = lambda name: [seconds(r[t.column(name)]) for r in t.rows]
    line(ax, n, col("Star CUDA"), "Star CLOSURE, CUDA (H200)", star=True)
    line(ax, n, col("Star CPU"), "Star CLOSURE, CPU", star=True)
    line(ax, n, col("paper's kernel per k, this GPU"), "paper's kernel per k, same GPU")
    line(ax, n, col("paper Table 2"), "paper Table 2 (K40)")
    line(ax, n, col("tensor-core squaring"), "tensor-core squaring (H200 peer)")
    torch = find(tables, "Native transitive closure", "n", 1)
    line(ax, torch.values("n"), [v * 1e-3 if v else None for v in torch.values("tensor-core squaring")],
         "PyTorch squaring, same session")
    save(fig, ax, out, "closure.png")


def warshall(tables, out):
    t = find(tables, "WARSHALL_C as written", "backend")
    fig, ax = chart("WARSHALL_C as written (pure Star on the VM) against a C++ bitset Warshall",
                    "vertices n", "time", t.heading)
    for backend, label in (("cpu", "CPU backend"), ("cuda", "CUDA backend")):
        rows = [r for r in t.rows if r[0].startswith(backend)]
        n = [number(r[t.column("n")]) for r in rows]
        line(ax, n, [number(r[t.column("WARSHALL_C")]) for r in rows], "Star WARSHALL_C, " + label, star=True)
        line(ax, n, [number(r[t.column("C++ bitset")]) for r in rows], "C++ bitset Warshall (" + backend + " run)")
    save(fig, ax, out, "warshall_c.png", legend="center right")


def warshall_engines(tables, out):
    t = find(tables, "WARSHALL_C as written (`bench/warshall_c.star`", "n")
    fig, ax = chart("WARSHALL_C as written: parallel loops and the engines (H100)", "vertices n",
                    "time", t.heading)
    n = t.values("n")
    col = lambda name: [seconds(r[t.column(name)]) for r in t.rows]
    line(ax, n, col("CUDA, host engine"), "Star, CUDA host engine (fused loop kernel)", star=True)
    line(ax, n, col("CUDA, device engine"), "Star, CUDA device engine", star=True)
    line(ax, n, col("CPU backend, parallel loops on"), "Star, CPU, parallel loops", star=True)
    line(ax, n, col("CPU backend, parallel loops off"), "Star, CPU, sequential loops", star=True)
    line(ax, n, col("papers' kernel per k"), "papers' kernel per k, same GPU")
    line(ax, n, col("C++ bitset"), "C++ bitset Warshall, CPU")
    save(fig, ax, out, "warshall_engines.png")


def graphs_engines(tables, out):
    t = find(tables, "The graph procedures' Star bodies on every engine", "vertices")
    fig, ax = chart("Graph procedures' Star bodies: CPU backend against the device engine (H100)",
                    "vertices", "time per step", t.heading)
    def leading_ms(cell):
        """A cell is the time per step in ms, then (in brackets) what a finished run took."""
        m = re.match(r"\**([\d.]+)", cell.strip())
        return float(m.group(1)) * 1e-3 if m else None

    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for proc, color in zip(("DIJKSTRA", "BELLMANFORD", "PRIM", "KRUSKAL"), colors):
        rows = [r for r in t.rows if r[t.column("Star procedure")] == proc]
        n = [number(r[0]) for r in rows]
        line(ax, n, [leading_ms(r[t.column("device engine")]) for r in rows], proc + ", device engine",
             star=True, color=color)
        line(ax, n, [leading_ms(r[t.column("CPU backend")]) for r in rows], proc + ", CPU backend",
             color=color)
    save(fig, ax, out, "graphs_engines.png", columns=2)


def sort(tables, out):
    t = find(tables, "SORT (issue #7)", "rows")
    fig, ax = chart("SORT of table rows (CUDA, H200) against CUB radix sort", "rows", "time", t.heading)
    for cols in ("32", "64"):
        rows = [r for r in t.rows if r[t.column("columns")] == cols]
        x = [number(r[0]) for r in rows]
        line(ax, x, [seconds(r[t.column("Star SORT (sort_table_rows")]) for r in rows],
             "Star SORT, %s columns" % cols, star=True)
    rows = [r for r in t.rows if r[t.column("columns")] == "32"]
    x = [number(r[0]) for r in rows]
    line(ax, x, [seconds(r[t.column("CUB SortPairs")]) for r in rows], "CUB SortPairs u32+u32")
    line(ax, x, [seconds(r[t.column("CUB SortKeys")]) for r in rows], "CUB SortKeys u32")
    save(fig, ax, out, "sort.png")


def segsort(tables, out):
    t = find(tables, "SEGSORT (issue #7)", "arrays")
    fig, ax = plt.subplots(figsize=(7.5, 4.8), dpi=100)
    ax.set_title("SEGSORT (CUDA, H200) against CUB segmented sorts", fontsize=11)
    names = ["Star rank sort", "CUB DeviceSegmentedSort::SortPairs", "::StableSortPairs",
             "CUB DeviceSegmentedRadixSort"]
    labels = ["Star SEGSORT", "CUB SegmentedSort::SortPairs", "CUB StableSortPairs", "CUB SegmentedRadixSort"]
    width = 0.2
    for k, (name, label) in enumerate(zip(names, labels)):
        ys = [seconds(r[t.column(name)]) for r in t.rows]
        ax.bar([i + (k - 1.5) * width for i in range(len(t.rows))], ys, width, label=label)
    ax.set_xticks(range(len(t.rows)))
    ax.set_xticklabels([r[0] for r in t.rows], fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel("time")
    ax.grid(True, axis="y", which="both", alpha=0.25)
    fig.footer_height = footer(fig, t.heading)
    save(fig, ax, out, "segsort.png", legend="upper center")


def nbody(tables, out):
    t = find(tables, "Table 4: seconds per Verlet step", "N")
    n = t.values("N")
    fig, ax = chart("N-body: seconds per velocity Verlet step against the paper", "particles N",
                    "time per step", t.heading)
    line(ax, n, t.values("integer c2, s/step"), "Star, integer exponent (H200)", star=True)
    line(ax, n, t.values("general, s/step"), "Star, general exponent (H200)", star=True)
    line(ax, n, t.values("paper GPU s/step"), "paper, GPU")
    line(ax, n, t.values("paper CPU s/step"), "paper, CPU")
    line(ax, n, t.values("this host's CPU reference"), "CPU reference, this host")
    save(fig, ax, out, "nbody_step.png")

    f = find(tables, "Square against triangular", "N")
    n = f.values("N")
    fig, ax = chart("N-body forces: Star kernels against a plain tiled kernel (H200)", "particles N",
                    "time per force evaluation", f.heading)
    for name, label, star in (("triangular, integer", "Star triangular, integer c2", True),
                              ("triangular, general", "Star triangular, general c2", True),
                              ("square, integer", "Star square, integer c2", True),
                              ("peer", "peer: tiled kernel, fast log2/exp2", False)):
        line(ax, n, [v * 1e-3 if v else None for v in f.values(name)], label, star=star)
    save(fig, ax, out, "nbody_forces.png")


def primitives(tables, out):
    t = find(tables, "Primitives (issue #4)", "primitive")
    sizes = [number(h.split("=")[1]) for h in t.header if h.startswith("n=")]
    # The table is in microseconds per call, all within one decade: a linear axis in µs from 0.
    fig, ax = chart("Primitives on the GPU (H200): time per call against the launch floor",
                    "rows n", "time per call (µs)", t.heading)
    ax.set_yscale("linear")
    ax.grid(True, which="major", alpha=0.25)
    chosen = ("or", "ROW read", "COL write", "FND", "STEP", "EQ/LESS (compare)")
    for r in t.rows:
        if r[0] not in chosen:
            continue
        ys = [number(r[t.column("n=%d" % s)]) for s in sizes]
        line(ax, sizes, ys, "%s (%s)" % (r[0], r[1]), star=True)
    floors = re.findall(r"empty kernel back to back \*\*([\d.]+) us\*\*;\s+kernel \+ 8-byte\s+device-to-host"
                        r"\s+read-back \*\*([\d.]+) us\*\*", RESULTS_TEXT)
    if not floors:
        raise SystemExit("bench/RESULTS.md: the same-run launch floors of the primitives are missing")
    empty, readback = (float(v) for v in floors[0])
    ax.axhline(empty, color="0.3", linestyle=":", label="peer: empty kernel, same run (%.2f µs)" % empty)
    ax.axhline(readback, color="0.6", linestyle=":",
               label="peer: kernel + read-back, same run (%.2f µs)" % readback)
    ax.set_ylim(0, max([readback] + [max(l.get_ydata()) for l in ax.get_lines()]) * 1.45)
    save(fig, ax, out, "primitives.png", times=False, columns=2)


def main():
    global RESULTS_TEXT
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--results", default=os.path.join(HERE, "RESULTS.md"))
    parser.add_argument("--out", default=os.path.join(HERE, "plots"))
    args = parser.parse_args()
    RESULTS_TEXT = open(args.results, encoding="utf-8").read()
    tables = read_tables(args.results)
    os.makedirs(args.out, exist_ok=True)
    plt.rcParams["svg.hashsalt"] = "star"
    for draw in (closure, warshall, warshall_engines, graphs_engines, sort, segsort, nbody,
                 primitives):
        draw(tables, args.out)


RESULTS_TEXT = ""

if __name__ == "__main__":
    main()
