#!/usr/bin/env python3
"""Why null move loses in Heian: two measurements on positions from a datagen file.

1. Zugzwang: each position is searched as it is and with the other side to move (a pass), both
   to DEPTH; the pass "wins" where the side to move scores better after passing than after its
   best move.
2. Search quality at similar cost: BASE at DEPTH and NULL at DEPTH + 1 against BASE at DEPTH + 3,
   counting how often each finds the deeper search's best move and how far its score is off.

usage: null-move-probe.py DATA BASE NULL [DEPTH] [POSITIONS]
"""
import random
import re
import subprocess
import sys

data, base, null = sys.argv[1:4]
depth = int(sys.argv[4]) if len(sys.argv) > 4 else 8
count = int(sys.argv[5]) if len(sys.argv) > 5 else 100

records = [line.strip().split(";") for line in open(data) if line.startswith("heian;")]
records = [r for r in records if abs(int(r[2])) < 300]
random.seed(11)
sample = random.sample(records, count)


def search(binary, sfen, d):
    out = subprocess.run(
        [binary, "analyse", "--variant", "heian", "--sfen", sfen, "--depth", str(d),
         "--movetime", "60000", "--hash", "16"],
        capture_output=True, text=True).stdout
    lines = re.findall(r"score (cp|mate) (-?\d+)\s+nodes\s+(\d+).*?pv (\S+)", out)
    if not lines:
        return None
    kind, value, nodes, move = lines[-1]
    return None if kind == "mate" else (int(value), int(nodes), move)


passes, compared = [], []
for record in sample:
    sfen = record[1]
    fields = sfen.split(" ")
    passed = " ".join([fields[0], "w" if fields[1] == "b" else "b"] + fields[2:])
    moved, after_pass = search(base, sfen, depth - 1), search(base, passed, depth - 1)
    if moved and after_pass and abs(after_pass[0]) < 3000:
        passes.append(-after_pass[0] - moved[0])
    shallow, nulled, deep = search(base, sfen, depth), search(null, sfen, depth + 1), search(base, sfen, depth + 3)
    if shallow and nulled and deep:
        compared.append((shallow, nulled, deep))

n = len(passes)
for margin in (0, 50, 100):
    better = sum(g > margin for g in passes)
    print(f"depth {depth - 1}: passing beats the best move by more than {margin} cp in {better} of {n}")
n = len(compared)
for name, i, d in (("base", 0, depth), ("null", 1, depth + 1)):
    nodes = sum(c[i][1] for c in compared) / n
    error = sum(abs(c[i][0] - c[2][0]) for c in compared) / n
    agree = sum(c[i][2] == c[2][2] for c in compared)
    print(f"{name} at depth {d}: {nodes:.0f} nodes, |score - depth {depth + 3}| {error:.1f} cp, "
          f"best move as depth {depth + 3} in {agree} of {n}")
