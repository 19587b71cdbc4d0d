#!/usr/bin/env python3
"""Nodes a USI engine searches to a fixed depth on each position of a file, their total, and
the speed: the nodes over the searches' own times (the last `info ... time` of each).

One engine process per position (a fresh table each time), Chu under HaChu's rules unless
options say otherwise; NAME=VALUE pairs are sent as `setoption`. A fixed-depth search on one
thread is deterministic, so two builds or option values compare exactly, even on a busy machine; the speed wants an idle one.

Usage: scripts/research/usi-nodes.py ENGINE DEPTH POSITIONS [NAME=VALUE...]
POSITIONS holds USI `position` lines (scripts/research/pgn-positions.py writes them).
"""
import subprocess
import sys


def nodes(engine, depth, position, options):
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    commands = ["usi", "setoption name USI_Variant value chushogi",
                "setoption name RuleSet value hachu"]
    commands += ["setoption name %s value %s" % (k, v) for k, v in options]
    commands += ["isready", position, "go depth %d" % depth]
    p.stdin.write("\n".join(commands) + "\n")
    p.stdin.flush()
    count = millis = 0
    for line in p.stdout:
        words = line.split()
        if words[:1] == ["info"] and "nodes" in words:
            count = int(words[words.index("nodes") + 1])
            if "time" in words:
                millis = int(words[words.index("time") + 1])
        if words[:1] == ["bestmove"]:
            break
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    return count, millis


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    engine, depth, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    options = [o.split("=", 1) for o in sys.argv[4:]]
    runs = [nodes(engine, depth, line.strip(), options) for line in open(path) if line.strip()]
    counts = [n for n, _ in runs]
    millis = sum(t for _, t in runs)
    print("total", sum(counts), "median", sorted(counts)[len(counts) // 2], counts)
    print("time %d ms, %.0f k nodes/s" % (millis, sum(counts) / max(millis, 1)))


if __name__ == "__main__":
    main()
