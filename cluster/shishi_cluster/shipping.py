"""Files a task needs (engine binaries, nets, opening books) on whichever machine runs it.

Each file is put in Ray's object store once and written on a worker machine into a cache
named by its SHA-256, so a binary crosses the network once per machine, not once per task, and
two versions of one file never mix. Arguments that name a shipped file are rewritten to its
place on the worker."""

import hashlib
import os
import shlex
import tempfile
from pathlib import Path

import ray

CACHE = Path(os.environ.get("SHISHI_CLUSTER_CACHE",
                            Path(tempfile.gettempdir()) / "shishi-cluster-cache"))


def ship(paths):
    """The shipment of `paths` (local paths): path -> (sha256, file name, object ref)."""
    files = {}
    for path in paths:
        path = str(Path(path).resolve())
        if path in files:
            continue
        data = Path(path).read_bytes()
        files[path] = (hashlib.sha256(data).hexdigest(), Path(path).name, ray.put(data))
    return files


def materialise(files):
    """On a worker: writes each shipped file into the cache unless it is there already, and
    returns local path -> path on this machine."""
    places = {}
    for local, (digest, name, ref) in files.items():
        target = CACHE / digest / name
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            partial = target.with_name(f".{name}.{os.getpid()}.partial")
            partial.write_bytes(ray.get(ref))
            os.chmod(partial, 0o755)
            os.replace(partial, target)
        places[local] = str(target)
    return places


def rewrite(args, places):
    """`args` with every shipped path replaced by its place on this machine (longest first, so
    a path never matches inside a longer one)."""
    order = sorted(places, key=len, reverse=True)
    out = []
    for arg in args:
        for local in order:
            arg = arg.replace(local, places[local])
        out.append(arg)
    return out


def _file_value(value):
    """The absolute path `value` names if it is an existing file, else None."""
    return str(Path(value).resolve()) if value and os.path.isfile(value) else None


def engine_files(spec):
    """The files an `--engine` value of `shishi match` names (its command and any option
    value that is a file), and the value with those paths made absolute."""
    if "cmd=" not in spec:
        words = shlex.split(spec)
        path = _file_value(words[0]) if words else None
        if path is None:
            return [], spec
        return [path], shlex.join([path] + words[1:])
    files, parts = [], []
    for part in spec.split(","):
        key, equals, value = part.partition("=")
        if key == "cmd":
            words = value.split(" ")
            path = _file_value(words[0])
            if path:
                files.append(path)
                value = " ".join([path] + words[1:])
        elif key.startswith("option."):
            path = _file_value(value)
            if path:
                files.append(path)
                value = path
        parts.append(f"{key}={value}" if equals else part)
    return files, ",".join(parts)
