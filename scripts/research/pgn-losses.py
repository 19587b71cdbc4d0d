#!/usr/bin/env python3
"""Where an engine's lost games turned, read from a match PGN (`shishi match --pgn`).

For each game ENGINE lost: its moves, its best score and at which of its moves, and its last
move with a score of zero or better; then how many losses had been ahead by 5 and by 10 pawns,
and ENGINE's mean time and depth by its move number over all games.

Usage: scripts/research/pgn-losses.py GAMES.pgn[.gz] ENGINE
Scores are the `{score/depth time}` comments the match runner writes, in pawns; a mate counts
as +/-1000.
"""
import collections
import re
import sys

from pgn_games import games, tag


def pawns(text):
    if "M" in text:
        return -1000.0 if text.startswith("-") else 1000.0
    return float(text)


def engine_moves(game, engine):
    """(score in pawns, depth, seconds) of each of ENGINE's moves, in order."""
    fen = tag(game, "FEN")
    white_first = fen is None or fen.split()[1] == "b"
    engine_is_white = tag(game, "White") == engine
    body = game.split("\n\n", 1)[1]
    out = []
    for i, (_, comment) in enumerate(re.findall(r"(\S+) \{([^}]*)\}", body)):
        if ((i % 2 == 0) == white_first) != engine_is_white:
            continue
        m = re.match(r"([+-]?[\d.M#]+)/(\d+) ([\d.]+)s", comment)
        if m:
            out.append((pawns(m.group(1)), int(m.group(2)), float(m.group(3))))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    path, engine = sys.argv[1], sys.argv[2]
    by_move = collections.defaultdict(list)
    losses = []
    for game in games(path):
        moves = engine_moves(game, engine)
        for n, move in enumerate(moves):
            by_move[n // 20].append(move)
        result = tag(game, "Result")
        won = result == ("1-0" if tag(game, "White") == engine else "0-1")
        if won or result == "1/2-1/2" or not moves:
            continue
        best = max(range(len(moves)), key=lambda n: moves[n][0])
        last_even = max((n for n, m in enumerate(moves) if m[0] >= 0), default=None)
        losses.append((len(moves), moves[best][0], best, last_even))
        print(f"lost: {len(moves)} moves, best {moves[best][0]:+.1f} at move {best}, "
              f"last score >= 0 at move {last_even}")
    ahead = lambda p: sum(1 for loss in losses if loss[1] >= p)
    print(f"{len(losses)} losses; ahead by 5 pawns or more in {ahead(5)}, by 10 in {ahead(10)}")
    for k in sorted(by_move):
        moves = by_move[k]
        print(f"moves {20 * k}-{20 * k + 19}: {len(moves)} moves, "
              f"{1000 * sum(m[2] for m in moves) / len(moves):.1f} ms, "
              f"depth {sum(m[1] for m in moves) / len(moves):.2f}")


if __name__ == "__main__":
    main()
