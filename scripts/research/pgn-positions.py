#!/usr/bin/env python3
"""Positions from a match PGN (`shishi match --pgn`) as USI `position` lines, for node counts.

Picks COUNT games at random (fixed seed 5), one position from each: ENGINE to move at one of its
moves LO..HI (0-based), chosen at random. Prints `position sfen ... moves ...` per line.

Usage: scripts/research/pgn-positions.py GAMES.pgn[.gz] ENGINE COUNT LO HI
The 24 positions of docs/search.md's quiescence-promotion row:
`scripts/research/pgn-positions.py results/hachu-thirtieth-oh10-e4109c4.pgn.gz shishi 24 50 150`.
"""
import random
import re
import sys

from pgn_games import games, tag



def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    path, engine = sys.argv[1], sys.argv[2]
    count, lo, hi = map(int, sys.argv[3:6])
    rng = random.Random(5)
    played = games(path)
    picked = 0
    for n in rng.sample(range(len(played)), len(played)):
        game = played[n]
        fen = tag(game, "FEN")
        white_first = fen.split()[1] == "b"
        engine_is_white = tag(game, "White") == engine
        body = game.split("\n\n", 1)[1]
        moves = [m for m, _ in re.findall(r"(\S+) \{([^}]*)\}", body)]
        ours = [i for i in range(len(moves)) if ((i % 2 == 0) == white_first) == engine_is_white]
        if len(ours) <= lo:
            continue
        k = ours[rng.randrange(lo, min(hi, len(ours)))]
        print("position sfen %s moves %s" % (fen, " ".join(moves[:k])))
        picked += 1
        if picked == count:
            break


if __name__ == "__main__":
    main()
