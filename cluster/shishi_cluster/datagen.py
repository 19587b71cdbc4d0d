"""`shishi-cluster datagen`: a seeded `shishi datagen` run cut into shards (`--shard K/N`), one
Ray task each. A shard's file comes back to the driver, is kept under the state folder and
journalled; when every shard is in, they are concatenated in order into the output, which is
byte for byte the file one `shishi datagen` process with the same seed would write."""

import hashlib
import os
import socket
import tempfile
import time
from pathlib import Path

import ray

from .journal import Journal, write_atomically
from .process import TransientFailure, UsageFailure, run_shishi
from .shipping import materialise, rewrite, ship
from .tasks import next_result

DRIVER_OWNED = ("--shard", "--out", "--games", "--seed", "--threads")


@ray.remote(num_cpus=1, max_retries=5, retry_exceptions=[TransientFailure])
def play_shard(files, shishi, datagen_args, games, seed, shard, shards):
    """Writes shard `shard` of `shards` on this worker; returns its bytes."""
    places = materialise(files)
    with tempfile.TemporaryDirectory(prefix="shishi-shard-") as work:
        data = Path(work, "shard.spk")
        run_shishi([places[shishi], "datagen", *rewrite(datagen_args, places),
                    "--games", str(games), "--seed", str(seed), "--threads", "1",
                    "--shard", f"{shard}/{shards}", "--out", str(data)], cwd=work)
        return {"slice": str(shard), "host": socket.gethostname(), "data": data.read_bytes()}


def files_to_ship(shishi, datagen_args):
    """The files the run needs on a worker (the binary, an `--eval-file` net), and the
    arguments with their paths absolute."""
    files, args = [str(Path(shishi).resolve())], []
    it = iter(datagen_args)
    for arg in it:
        if arg in DRIVER_OWNED:
            raise UsageFailure(f"{arg} is the driver's to set (see shishi-cluster datagen --help)")
        args.append(arg)
        if arg == "--eval-file":
            value = str(Path(next(it, "")).resolve())
            files.append(value)
            args.append(value)
    return files, args


def run_datagen(shishi, datagen_args, games, seed, shards, state, output, workers=None,
                out=print):
    """Plays (or resumes) the run and writes `output`; returns a summary dict."""
    shishi = str(Path(shishi).resolve())
    local_files, datagen_args = files_to_ship(shishi, datagen_args)
    settings = {"kind": "datagen", "args": datagen_args, "games": games, "seed": seed,
                "shards": shards}
    journal = Journal(state, settings)
    shard_dir = Path(state, "shards")
    shard_dir.mkdir(exist_ok=True)
    todo = [k for k in range(shards) if str(k) not in journal.done]
    if journal.done:
        out(f"resumed {len(journal.done)} finished shard(s) from {journal.path}")
    files = ship(local_files)
    in_flight = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
    pending, started = {}, time.time()
    while todo or pending:
        while todo and len(pending) < in_flight:
            k = todo.pop(0)
            pending[play_shard.remote(files, shishi, datagen_args, games, seed, k, shards)] = k
        result = next_result(pending)
        data = result.pop("data")
        write_atomically(shard_dir / f"{int(result['slice']):05}.spk", data)
        result.update(bytes=len(data), sha256=hashlib.sha256(data).hexdigest())
        if journal.record(result):
            out(f"shard {result['slice']}/{shards} on {result['host']}: {len(data)} bytes; "
                f"{len(journal.done)} of {shards} done")
    partial = Path(str(output) + ".partial")
    with open(partial, "wb") as f:
        for k in range(shards):
            entry = journal.done[str(k)]
            data = (shard_dir / f"{k:05}.spk").read_bytes()
            if hashlib.sha256(data).hexdigest() != entry["sha256"]:
                raise RuntimeError(f"shard {k} under {shard_dir} changed since it was journalled")
            f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(partial, output)
    elapsed = time.time() - started
    out(f"wrote {output}: {games} games in {shards} shards, {os.path.getsize(output)} bytes, "
        f"{elapsed:.1f} s")
    return {"output": str(output), "elapsed": elapsed}
