"""Files a task needs (engine binaries, nets, opening books) on whichever machine runs it.

Each file is put in Ray's object store once and written on a worker machine into a cache
named by its SHA-256, so a binary crosses the network once per machine, not once per task, and
two versions of one file never mix. The cache is a private directory (mode 700, this user's
own), and a cached file is hashed again every time a task uses it: a file that does not match
its name (planted, or cut short) is written afresh from the shipment. Arguments that name a
shipped file are rewritten to its place on the worker."""

import hashlib
import os
import shlex
import stat
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


class UnsafeCache(Exception):
    """The cache directory belongs to another user: nothing in it can be trusted."""


def private_cache(cache=None):
    """The cache directory, made if missing, this user's own and closed to others (mode 700)."""
    cache = Path(cache or CACHE)
    cache.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = cache.lstat()
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        raise UnsafeCache(f"{cache} is not a directory of this user's: set SHISHI_CLUSTER_CACHE")
    if stat.S_IMODE(info.st_mode) != 0o700:
        os.chmod(cache, 0o700)
    return cache


def intact(path, digest):
    """Whether `path` is a regular file whose SHA-256 is `digest`."""
    try:
        if not stat.S_ISREG(path.lstat().st_mode):
            return False
        return hashlib.sha256(path.read_bytes()).hexdigest() == digest
    except OSError:
        return False


def place(cache, digest, name, fetch):
    """The cached copy of a shipped file, written from `fetch()` unless an intact one is there."""
    target = cache / digest / name
    if not intact(target, digest):
        target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        partial = target.with_name(f".{name}.{os.getpid()}.partial")
        partial.write_bytes(fetch())
        os.chmod(partial, 0o700)
        os.replace(partial, target)
    return target


def materialise(files):
    """On a worker: each shipped file in the cache, checked; returns local path -> path on this
    machine."""
    cache = private_cache()
    return {local: str(place(cache, digest, name, lambda ref=ref: ray.get(ref)))
            for local, (digest, name, ref) in files.items()}


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
