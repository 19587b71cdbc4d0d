"""The command line: `shishi-cluster sprt ... -- MATCH ARGS` and
`shishi-cluster datagen ... -- DATAGEN ARGS`. Everything after `--` goes to `shishi match` or
`shishi datagen` as written, except the arguments the driver sets itself."""

import argparse
import shutil
import sys

import ray

from .datagen import run_datagen
from .journal import JournalMismatch
from .process import PanicFailure, UsageFailure
from .shipping import UnsafeCache
from .sprt import run_sprt


def _common(p):
    p.add_argument("--address", help="Ray cluster to join (`auto`, or HOST:PORT); "
                   "without it a local Ray instance on this machine's cores")
    p.add_argument("--num-cpus", type=int, help="CPUs of the local instance (no --address)")
    p.add_argument("--workers", type=int, help="slices in flight at once (default: the "
                   "cluster's CPUs)")
    p.add_argument("--shishi", default=shutil.which("shishi") or "target/release/shishi",
                   help="the shishi binary, shipped to every worker (default: shishi on the "
                   "PATH, else target/release/shishi)")
    p.add_argument("--state", required=True, help="folder of the run's journal and finished "
                   "slices; the same folder resumes the run")


def parser():
    top = argparse.ArgumentParser(prog="shishi-cluster", description=__doc__)
    sub = top.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sprt", help="a match or SPRT of shishi match, slices on Ray")
    _common(s)
    s.add_argument("--games", type=int, required=True, help="games of the whole match (even)")
    s.add_argument("--slice-pairs", type=int, default=4, help="game pairs per task")
    s.add_argument("--sprt", help="elo0=..,elo1=..,alpha=..,beta=.. as shishi match --sprt; "
                   "without it every slice is played")
    s.add_argument("--pgn", help="the games, in match order, written at the end")
    s.add_argument("match_args", nargs=argparse.REMAINDER,
                   help="-- then shishi match's arguments (--engine, --variant, --tc, ...)")
    d = sub.add_parser("datagen", help="a seeded shishi datagen run, shards on Ray")
    _common(d)
    d.add_argument("--games", type=int, required=True)
    d.add_argument("--seed", type=int, required=True)
    d.add_argument("--shards", type=int, required=True, help="tasks the run is cut into")
    d.add_argument("--out", required=True, help="the whole run's data file")
    d.add_argument("datagen_args", nargs=argparse.REMAINDER,
                   help="-- then shishi datagen's arguments (--variant, --nodes, ...)")
    return top


def _rest(args):
    return args[1:] if args[:1] == ["--"] else args


def main(argv=None):
    args = parser().parse_args(argv)
    if args.address:
        ray.init(address=args.address, log_to_driver=False)
    else:
        ray.init(num_cpus=args.num_cpus, include_dashboard=False, log_to_driver=False)
    try:
        if args.command == "sprt":
            if args.games < 2 or args.games % 2:
                raise UsageFailure("--games must be even and at least 2 (games come in pairs)")
            run_sprt(args.shishi, _rest(args.match_args), args.games, args.state,
                     slice_pairs=args.slice_pairs, sprt=args.sprt, workers=args.workers,
                     pgn=args.pgn)
        else:
            run_datagen(args.shishi, _rest(args.datagen_args), args.games, args.seed,
                        args.shards, args.state, args.out, workers=args.workers)
    except (UsageFailure, JournalMismatch, UnsafeCache) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except PanicFailure as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    finally:
        ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
