#!/usr/bin/env python3
"""What a longer search would have played before a lost game turned.

For game ROUND of a match PGN (`shishi match --pgn`), steps back from ply PLY (0-based: the
position before the PLY-th move) by two plies at a time, COUNT times, and at each position prints
the move played there with its `{score/depth time}` comment, and what BINARY answers with
`go movetime MS` on one thread under RuleSet hachu. Where the played move came from a shallow
search and the longer one chooses another, keeps the advantage, and calls the played move's
successor lost, the game was lost to depth.

Usage: scripts/research/pgn-walkback.py GAMES.pgn[.gz] ROUND PLY COUNT [BINARY] [MS]
BINARY defaults to target/release/shishi, MS to 1500.
"""
import gzip
import re
import subprocess
import sys


def game_text(path, round_number):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        for game in f.read().split("[Event ")[1:]:
            m = re.search(r'\[Round "(\d+)"\]', game)
            if m and int(m.group(1)) == round_number:
                return game
    sys.exit(f"no game with Round {round_number} in {path}")


def moves_of(game):
    body = game.split("\n\n", 1)[1]
    return re.findall(r"(\S+) \{(\S+)/(\d+) ([\d.]+)s\}", body)


def search(binary, fen, moves, ms):
    script = (
        "usi\nsetoption name RuleSet value hachu\nsetoption name Threads value 1\nisready\n"
        f"position sfen {fen} moves {' '.join(moves)}\ngo movetime {ms}\n"
    )
    engine = subprocess.Popen(
        [binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    engine.stdin.write(script)
    engine.stdin.flush()
    last = ""
    for line in engine.stdout:
        if line.startswith("info depth"):
            last = line
        if line.startswith("bestmove"):
            best = line.split()[1]
            break
    engine.stdin.write("quit\n")
    engine.stdin.close()
    engine.wait()
    words = last.split()
    depth = words[words.index("depth") + 1]
    at = words.index("score")
    return best, " ".join(words[at + 1 : at + 3]), depth


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    path, round_number, ply, count = sys.argv[1], *map(int, sys.argv[2:5])
    binary = sys.argv[5] if len(sys.argv) > 5 else "target/release/shishi"
    ms = int(sys.argv[6]) if len(sys.argv) > 6 else 1500
    game = game_text(path, round_number)
    fen = re.search(r'\[FEN "([^"]+)"\]', game).group(1)
    played = moves_of(game)
    for k in range(count):
        at = ply - 2 * k
        if at < 0:
            break
        move, score, depth, seconds = played[at]
        best, answer, answer_depth = search(binary, fen, [m[0] for m in played[:at]], ms)
        print(
            f"ply {at}: played {move} ({score} at depth {depth}, {seconds} s); "
            f"{ms} ms: {best} {answer} at depth {answer_depth}"
        )


if __name__ == "__main__":
    main()
