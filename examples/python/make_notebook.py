"""Makes formats_tour.ipynb from formats_tour.py, so that the two cannot drift apart.

The script is written in "percent" cells (the format of jupytext, VS Code and Spyder): a line
`# %%` starts a code cell, `# %% [markdown]` a text cell whose lines are comments ("# text").
The notebook holds exactly those cells, without outputs. python/tests/test_spmvlab.py checks
that the committed notebook equals what this script makes of the committed script.

    python3 examples/python/make_notebook.py           # rewrite formats_tour.ipynb
    python3 examples/python/make_notebook.py --check   # exit 1 if it is stale
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "formats_tour.py")
NOTEBOOK = os.path.join(HERE, "formats_tour.ipynb")


def cells(text):
    """[(kind, source)] of a percent-format script; kind is "code" or "markdown"."""
    out = []
    kind, lines = None, []

    def flush():
        if kind is None:
            if any(line.strip() for line in lines):
                raise ValueError("text before the first '# %%' cell marker")
            return
        while lines and not lines[-1].strip():
            lines.pop()
        while lines and not lines[0].strip():
            lines.pop(0)
        out.append((kind, "\n".join(lines)))

    for line in text.splitlines():
        if line.startswith("# %%"):
            flush()
            kind = "markdown" if line.strip() == "# %% [markdown]" else "code"
            lines = []
        elif kind == "markdown":
            if line.strip() and not line.startswith("#"):
                raise ValueError("a markdown cell line must be a comment: %r" % line)
            lines.append(line[2:] if line.startswith("# ") else line[1:])
        else:
            lines.append(line)
    flush()
    return out


def script_code(text):
    """The script's code: its code cells, each followed by one newline."""
    return "".join(source + "\n" for kind, source in cells(text) if kind == "code")


def _source(text):
    lines = text.split("\n")
    return [line + "\n" for line in lines[:-1]] + [lines[-1]]


def notebook(text):
    """The nbformat 4 notebook (a dict) of a percent-format script."""
    nb_cells = []
    for kind, source in cells(text):
        cell = {"cell_type": kind, "metadata": {}, "source": _source(source)}
        if kind == "code":
            cell["execution_count"] = None
            cell["outputs"] = []
        nb_cells.append(cell)
    return {
        "cells": nb_cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 4,  # 4.4: cells need no "id"
    }


def render(nb):
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def main(argv):
    with open(SCRIPT, encoding="utf-8") as f:
        text = render(notebook(f.read()))
    if "--check" in argv:
        with open(NOTEBOOK, encoding="utf-8") as f:
            if f.read() != text:
                print("formats_tour.ipynb is stale: run python3 examples/python/make_notebook.py")
                return 1
        print("formats_tour.ipynb is up to date")
        return 0
    with open(NOTEBOOK, "w", encoding="utf-8") as f:
        f.write(text)
    print("wrote", NOTEBOOK)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
