#!/usr/bin/env python3
"""Annealed walk over the material of ranks a-c and k-l of a composed Chu tsume (the machinery
of examples/make_longest_tsume.rs, docs/tsume.md "What is left"), looking for a longer mate.

A step changes one to three squares of those ranks (or swaps two); `shishi mate` (60 s) scores
it; a mate proven shortest of n plies is accepted when n >= the current length, or with
probability exp((n - current) / T) when shorter. Every step and each new best go to LOG; after
STALL steps without a new best the walk returns to the best. Seeded, so a run can be repeated
(the solver's time limit aside).

Usage: scripts/research/tsume-anneal.py SHISHI START_SFEN SEED LOG [T=2] [STALL=800]"""
import math, random, re, subprocess, sys, time

shishi, start, seed, log = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
temp = float(sys.argv[5]) if len(sys.argv) > 5 else 2.0
stall = int(sys.argv[6]) if len(sys.argv) > 6 else 800
rng = random.Random(seed)

def parse(sfen):
    board = []
    for row in sfen.split()[0].split("/"):
        cells, i = [], 0
        while i < len(row):
            c = row[i]
            if c.isdigit():
                j = i
                while j < len(row) and row[j].isdigit():
                    j += 1
                cells += [None] * int(row[i:j]); i = j
            elif c == "+":
                cells.append(row[i:i + 2]); i += 2
            else:
                cells.append(c); i += 1
        assert len(cells) == 12, row
        board.append(cells)
    return board

def unparse(board):
    out = []
    for cells in board:
        s, empty = "", 0
        for c in cells:
            if c is None:
                empty += 1
            else:
                if empty: s += str(empty); empty = 0
                s += c
        if empty: s += str(empty)
        out.append(s)
    return "/".join(out) + " b - 1"

TOP = ["A", "+L", "L", "A", "+L", None, None, "p", "b", "a", "s", "g", "c", "r", "+l", "t", "f",
       "e", "v", "m", "o", "x", "+a", "+p", "G", "S", "V", "M", "+M", "+V"]
BOTTOM = ["+r", "o", "f", "s", "t", "c", "l", "b", "+b", "a", "g", "m", "v", "+l", "e", "p", "x",
          "+p", "h", "d", "+t", "+m", "+v", "+o", None, None, "A", "M", "+L", "G", "C"]
REGION = [(r, f) for r in (0, 1, 2) for f in range(12)] + [(r, f) for r in (10, 11) for f in range(12)]

def solve(sfen):
    out = subprocess.run([shishi, "mate", "--movetime", "60000", "--sfen", sfen],
                         capture_output=True, text=True).stdout
    m = re.search(r"mate in (\d+) plies \((shortest)?", out)
    if not m:
        return None, False
    return int(m.group(1)), m.group(2) == "shortest"

def mutate(board):
    cand = [row[:] for row in board]
    if rng.random() < 0.2:
        (r1, f1), (r2, f2) = rng.sample(REGION, 2)
        cand[r1][f1], cand[r2][f2] = cand[r2][f2], cand[r1][f1]
        return cand
    for _ in range(rng.choice([1, 1, 1, 2, 2, 3])):
        r, f = rng.choice(REGION)
        if cand[r][f] == "k":
            continue
        cand[r][f] = rng.choice(TOP if r < 3 else BOTTOM)
    return cand

board = parse(start)
cur, sh = solve(unparse(board))
best, best_board, since = cur, board, 0
seen = set()
with open(log, "a") as f:
    f.write(f"# start {cur} shortest={sh} seed={seed} T={temp} {unparse(board)}\n")
step = 0
while True:
    step += 1
    since += 1
    if since > stall:
        board, cur, since = best_board, best, 0
        with open(log, "a") as fl:
            fl.write(f"# restart from best {best}\n")
    cand = mutate(board)
    sfen = unparse(cand)
    if sfen in seen:
        continue
    seen.add(sfen)
    t = time.time()
    n, sh = solve(sfen)
    ok = n is not None and sh and (n >= cur or rng.random() < math.exp((n - cur) / temp))
    with open(log, "a") as fl:
        fl.write(f"{step} {n} {sh} {time.time()-t:.1f}s {sfen}\n")
        if ok:
            board, cur = cand, n
            fl.write(f"# accept {n}\n")
            if n > best:
                best, best_board, since = n, cand, 0
                fl.write(f"# BEST {n} {sfen}\n")
