#!/usr/bin/env python3
"""Writes the historic Chu tsume suites (positions/tsume-chu-historic*.epd) from the problem
records of jh85/chushogi (tests/tsume/*.json: the position as SFEN and the published solution
as USI moves, transcribed from chushogi-renmei.com, asahi-net.or.jp and toybox.a.la9.jp).

Each line is `SFEN ; N  # id, published N: title`, N the length of the published solution in
plies (the published convention: the line ends with the mating move). A problem without a
published line, or with the defender to move (a retro problem), gets no length and a comment
saying so. A problem composed under other rules than lishogi's gets them as further fields
(`; RuleSet=jcsa ; CounterStrikeRecapture=false`, USI's option names, which `shishi mate --file`
applies to that line). Problems of at most MAX plies go to the first file, longer ones to the
second.

Usage: scripts/research/historic-tsume.py DIR [MAX]   (DIR holds the .json records; MAX 101)
"""

import json
import pathlib
import re
import sys

SERIES = ["kinu", "tukurimono", "tsukuri", "tumechu"]

# The rules a problem was composed under, where they are not lishogi's (docs/tsume.md, "The
# historic collections"): tumechu59's page asks for the JCSA's rules, and its solution needs
# their counter-strike rule without lishogi's recapture exception.
CONDITIONS = {"tumechu59": "RuleSet=jcsa ; CounterStrikeRecapture=false"}


def order(path):
    """Series first, then the problem number."""
    stem = path.stem
    series = re.match(r"[a-z]+", stem).group(0)
    number = int(re.search(r"\d+", stem).group(0))
    return (SERIES.index(series) if series in SERIES else len(SERIES), number)


def main():
    folder = pathlib.Path(sys.argv[1])
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 101
    short, long = [], []
    for path in sorted(folder.glob("*.json"), key=order):
        record = json.loads(path.read_text(encoding="utf-8"))
        sfen = record["sfen"]
        plies = len(record["solution"]["moves"])
        # The title, without the hint some pages add and any character lost in transcription.
        title = record.get("title", "").replace("\n", " ")
        title = re.split("ヒント|\ufffd", title)[0].strip()
        if record.get("to_move") != "sente":
            line = f"# {sfen}  # {record['id']}: defender to move (retro), left out: {title}"
            short.append(line)
            continue
        if plies == 0:
            short.append(f"{sfen}  # {record['id']}, no published line: {title}")
            continue
        conditions = f" ; {CONDITIONS[record['id']]}" if record["id"] in CONDITIONS else ""
        line = f"{sfen} ; {plies}{conditions}  # {record['id']}, published {plies}: {title}"
        (short if plies <= limit else long).append(line)
    stem = "positions/tsume-chu-historic"
    header = (
        "# Historic Chu tsume: 中将棊絹篩 (kinu), 中象戯作物図五十 (tukurimono), 中将棊作物収録作品\n"
        "# (tsukuri) and asahi-net 詰め中将棋 (tumechu), as transcribed in jh85/chushogi\n"
        "# tests/tsume/*.json; written by scripts/research/historic-tsume.py. Lengths are the\n"
        "# published solutions' in plies; docs/tsume.md says where they are wrong.\n"
    )
    pathlib.Path(f"{stem}.epd").write_text(header + "\n".join(short) + "\n", encoding="utf-8")
    pathlib.Path(f"{stem}-long.epd").write_text(header + "\n".join(long) + "\n", encoding="utf-8")
    print(f"{stem}.epd: {len(short)} lines; {stem}-long.epd: {len(long)} lines")


if __name__ == "__main__":
    main()
