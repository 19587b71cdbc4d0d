"""`shishi-cluster sprt`: a match of `shishi match` played as slices of game pairs, one Ray
task each (`--pairs START..END`: the openings and colours of a slice are the whole match's, so
the slices add up to the match). Pentanomials are summed as slices finish and judged by
`shishi sprt` after each, so the Elo, interval and LLR are printed by the same code as a
single-machine match's; the run stops at the SPRT's decision or after the last slice."""

import os
import re
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import ray

from .journal import Journal, write_atomically
from .process import TransientFailure, UsageFailure, run_shishi
from .shipping import engine_files, materialise, rewrite, ship
from .tasks import cancel_all, next_result

# Arguments the driver owns: a slice gets its own.
DRIVER_OWNED = ("--pairs", "--pgn", "--resume", "--games", "--sprt", "--concurrency")

_PENTA = re.compile(r"pentanomial \[(\d+) (\d+) (\d+) (\d+) (\d+)\]")
_NAMES = re.compile(r"^Elo of (.*?) vs (.*?): [-+]", re.M)


class SliceOutputError(TransientFailure):
    """A slice's output that cannot be counted: no pentanomial line, no results table, or a
    pentanomial that does not sum to the slice's pairs. Retried, never journalled."""


def parse_match_output(stdout, pairs=None):
    """The pentanomial, the first engine's wins, losses and draws, and the two names from
    `shishi match`'s summary; `pairs`, when given, is how many pairs the pentanomial must count."""
    found = _PENTA.search(stdout)
    if not found:
        raise SliceOutputError("the slice's output has no pentanomial line")
    penta = [int(c) for c in found.groups()]
    if pairs is not None and sum(penta) != pairs:
        raise SliceOutputError(f"the slice's pentanomial {penta} counts {sum(penta)} pairs, "
                               f"not its {pairs}")
    lines = stdout.splitlines()
    header = next((i for i, line in enumerate(lines) if line.split()[:2] == ["engine", "wins"]),
                  None)
    if header is None or header + 1 >= len(lines):
        raise SliceOutputError("the slice's output has no results table")
    wins, losses, draws = (int(w) for w in lines[header + 1].split()[-7:-4])
    names = _NAMES.search(stdout)
    return penta, [wins, losses, draws], (names.groups() if names else None)


def _await_go(pid_dir, label):
    """Test hook: announce this worker's pid and wait until the test says go."""
    # Written under a hidden name and renamed, so the test never reads a half-written file.
    hidden = Path(pid_dir, f".{label}-{os.getpid()}")
    hidden.write_text(str(os.getpid()))
    hidden.rename(Path(pid_dir, f"{label}-{os.getpid()}"))
    deadline = time.time() + 30
    while not Path(pid_dir, "go").exists() and time.time() < deadline:
        time.sleep(0.05)


@ray.remote(num_cpus=1, max_retries=5, retry_exceptions=[TransientFailure])
def play_slice(files, shishi, match_args, games, start, end, pid_dir=None):
    """Plays pairs `start..end` of the match on this worker; returns its slice."""
    if pid_dir:
        _await_go(pid_dir, f"pairs-{start}")
    places = materialise(files)
    with tempfile.TemporaryDirectory(prefix="shishi-slice-") as work:
        pgn = Path(work, "slice.pgn")
        args = [places[shishi], "match", *rewrite(match_args, places),
                "--games", str(games), "--pairs", f"{start}..{end}", "--concurrency", "1",
                "--pgn", str(pgn)]
        stdout = run_shishi(args, cwd=work)
        penta, wld, names = parse_match_output(stdout, pairs=end - start)
        return {"slice": f"{start}..{end}", "start": start, "end": end, "penta": penta,
                "wld": wld, "names": names, "host": socket.gethostname(),
                "pgn": pgn.read_text() if pgn.exists() else ""}


def judge(shishi, penta, sprt, names):
    """`shishi sprt`'s lines for `penta`, and its decision ('H1', 'H0' or None)."""
    args = [shishi, "sprt", "--pentanomial", ",".join(map(str, penta)),
            "--names", ",".join(names or ("first", "second"))]
    if sprt:
        args += ["--sprt", sprt]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    decision = "H1" if "H1 accepted" in out else "H0" if "H0 accepted" in out else None
    return out, decision


def files_to_ship(shishi, match_args):
    """The files the match needs on a worker, and its arguments with their paths absolute."""
    files, args = [str(Path(shishi).resolve())], []
    it = iter(match_args)
    for arg in it:
        if arg in DRIVER_OWNED:
            raise UsageFailure(f"{arg} is the driver's to set (see shishi-cluster sprt --help)")
        args.append(arg)
        if arg in ("--engine", "--openings"):
            value = next(it, "")
            if arg == "--engine":
                named, value = engine_files(value)
            else:
                named = [str(Path(value).resolve())] if os.path.isfile(value) else []
                value = named[0] if named else value
            files += named
            args.append(value)
    return files, args


def run_sprt(shishi, match_args, games, state, slice_pairs=4, sprt=None, workers=None,
             pgn=None, out=print, pid_dir=None, stop_after=None):
    """Plays (or resumes) the match; returns its summary as a dict."""
    shishi = str(Path(shishi).resolve())
    local_files, match_args = files_to_ship(shishi, match_args)
    pairs = games // 2
    settings = {"kind": "sprt", "args": match_args, "games": games, "slice_pairs": slice_pairs}
    journal = Journal(state, settings)
    slices = [(s, min(s + slice_pairs, pairs)) for s in range(0, pairs, slice_pairs)]
    todo = [s for s in slices if f"{s[0]}..{s[1]}" not in journal.done]
    penta, wld, names = [0] * 5, [0] * 3, None
    for entry in journal.done.values():
        penta = [a + b for a, b in zip(penta, entry["penta"])]
        wld = [a + b for a, b in zip(wld, entry["wld"])]
        names = names or entry["names"]
    if journal.done:
        out(f"resumed {len(journal.done)} finished slice(s) from {journal.path}: "
            f"{sum(penta)} pairs {penta}")
    decision = judge(shishi, penta, sprt, names)[1] if sprt and journal.done else None
    files = ship(local_files)
    in_flight = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
    pending, started, recorded, new_games = {}, time.time(), 0, 0
    slices_dir = Path(state, "slices")
    slices_dir.mkdir(exist_ok=True)
    while decision is None and (todo or pending):
        while todo and len(pending) < in_flight:
            start, end = todo.pop(0)
            ref = play_slice.remote(files, shishi, match_args, games, start, end, pid_dir)
            pending[ref] = (start, end)
        result = next_result(pending)
        write_atomically(slices_dir / f"{result['start']:06}-{result['end']:06}.pgn",
                         result.pop("pgn").encode())
        if not journal.record(result):
            continue
        penta = [a + b for a, b in zip(penta, result["penta"])]
        wld = [a + b for a, b in zip(wld, result["wld"])]
        names = names or result["names"]
        lines, decision = judge(shishi, penta, sprt, names)
        out(f"pairs {result['slice']} on {result['host']}: {result['penta']}; "
            f"total {sum(penta)} pairs, +{wld[0]} -{wld[1]} ={wld[2]}: "
            + lines.strip().replace("\n", "; "))
        recorded += 1
        new_games += sum(result["wld"])
        if stop_after is not None and recorded >= stop_after:
            break
    cancel_all(pending)
    elapsed = time.time() - started
    lines, decision = judge(shishi, penta, sprt, names)
    out(f"{sum(wld)} games, +{wld[0]} -{wld[1]} ={wld[2]}; this run played {new_games} in "
        f"{elapsed:.1f} s on {in_flight} worker(s), {60 * new_games / max(elapsed, 1e-9):.1f} games/min")
    out(lines.rstrip())
    if decision:
        out(f"SPRT decided: {decision} accepted")
    if pgn:
        with open(pgn, "w") as f:
            for s, e in slices:
                part = slices_dir / f"{s:06}-{e:06}.pgn"
                if f"{s}..{e}" in journal.done and part.exists():
                    f.write(part.read_text())
    return {"penta": penta, "wld": wld, "decision": decision, "names": names,
            "slices": len(journal.done), "elapsed": elapsed, "new_games": new_games}

