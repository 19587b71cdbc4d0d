#!/usr/bin/env python3
"""Which games went which way between two match runs over the same openings (`shishi match --pgn`).

Two runs of one command with different builds (or nets) play the same openings with the same
colours; a game is matched with its twin by its start position (the FEN tag) and the side
ENGINE played, the k-th such game of one run with the k-th of the other. Prints how many games
ENGINE won in one run and not in the other, and how many it lost in both: a change that helps
wins more twins than it loses; losses shared by both runs point to openings, not builds.

Usage: scripts/research/pgn-pairs.py ENGINE RUN_A.pgn[.gz] RUN_B.pgn[.gz]
"""
import collections
import sys

from pgn_games import games, tag



def outcomes(path, engine):
    """ENGINE's score (1, 0.5, 0) of each game, keyed by (start FEN, ENGINE's colour tag)."""
    by_start = collections.defaultdict(list)
    for game in games(path):
        white, black, result = tag(game, "White"), tag(game, "Black"), tag(game, "Result")
        if engine not in (white, black) or result not in ("1-0", "0-1", "1/2-1/2"):
            continue
        colour = "White" if white == engine else "Black"
        score = 0.5 if result == "1/2-1/2" else float((result == "1-0") == (colour == "White"))
        by_start[(tag(game, "FEN"), colour)].append(score)
    return by_start


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    engine, path_a, path_b = sys.argv[1:]
    a, b = outcomes(path_a, engine), outcomes(path_b, engine)
    twins = a_better = b_better = both_lost = 0
    for key in a.keys() & b.keys():
        for score_a, score_b in zip(a[key], b[key]):
            twins += 1
            a_better += score_a > score_b
            b_better += score_b > score_a
            both_lost += score_a == score_b == 0
    unmatched = sum(len(v) for v in a.values()) + sum(len(v) for v in b.values()) - 2 * twins
    print(f"{twins} twin games ({unmatched} without a twin)")
    print(f"  better for {engine} in {path_a}: {a_better}")
    print(f"  better for {engine} in {path_b}: {b_better}")
    print(f"  lost in both: {both_lost}")


if __name__ == "__main__":
    main()
