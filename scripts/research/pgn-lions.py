#!/usr/bin/env python3
"""Whether an engine's Chu games turned on its Lion, read from a match PGN (`shishi match --pgn`).

Replays every game through shishi (`position sfen ... moves ...` and `d` after each ply) and
counts each side's lions (the Lion and the promoted Kirin). A game is "lion-less against a lion"
once ENGINE has none while the opponent still has one. Prints, per PGN, the games won and lost
with and without that state, and for each loss the ply where it began with ENGINE's scores of
the moves around it.

Usage: scripts/research/pgn-lions.py SHISHI_BINARY ENGINE GAMES.pgn[.gz]...
"""
import collections
import re
import subprocess
import sys

from pgn_games import games, tag



def lions(sfen_board, upper):
    if upper:
        return sfen_board.count("N") + sfen_board.count("+O")
    return sfen_board.count("n") + sfen_board.count("+o")


def boards(binary, fen, moves):
    """The SFEN board after each ply (the start position first)."""
    cmds = ["usi", "setoption name UCI_Variant value chushogi"]
    for k in range(len(moves) + 1):
        cmds.append(f"position sfen {fen} moves {' '.join(moves[:k])}".rstrip())
        cmds.append("d")
    cmds.append("quit")
    out = subprocess.run(
        [binary], input="\n".join(cmds) + "\n", capture_output=True, text=True, check=True
    ).stdout
    found = re.findall(r"^sfen (\S+)", out, re.M)
    if len(found) != len(moves) + 1:
        raise SystemExit(f"replay stopped after {len(found)} of {len(moves) + 1} positions")
    return found


def main():
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    binary, engine = sys.argv[1], sys.argv[2]
    for path in sys.argv[3:]:
        counts = collections.Counter()
        notes = []
        for game in games(path):
            result, white, fen = tag(game, "Result"), tag(game, "White"), tag(game, "FEN")
            lost = (result == "1-0") != (white == engine) and result in ("1-0", "0-1")
            body = game.split("\n\n", 1)[1]
            scored = re.findall(r"(\S+) \{([^/]+)/(\d+) [\d.]+s\}", body)
            moves = [m for m, _, _ in scored]
            # The PGN's White moves first; sente (upper case) is the side to move in the FEN.
            first_is_sente = fen is None or fen.split()[1] == "b"
            engine_upper = (white == engine) == first_is_sente
            start = None
            for ply, board in enumerate(boards(binary, fen, moves)):
                if lions(board, engine_upper) == 0 and lions(board, not engine_upper) > 0:
                    start = ply
                    break
            state = "lion-less against a lion" if start is not None else "never"
            counts[(state, "lost" if lost else "won")] += 1
            if lost and start is not None:
                around = " ".join(
                    f"{m}({s}/{d})"
                    for i, (m, s, d) in enumerate(scored)
                    if start - 6 <= i < start + 2 and ((i % 2 == 0) == (white == engine))
                )
                notes.append(f"  round {tag(game, 'Round')}: from ply {start}; {engine}: {around}")
        print(path)
        for state in ("never", "lion-less against a lion"):
            won, lost = counts[(state, "won")], counts[(state, "lost")]
            print(f"  {state}: {won} won, {lost} lost")
        print("\n".join(notes))


if __name__ == "__main__":
    main()
