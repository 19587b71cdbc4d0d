"""Running `shishi` on a worker: a child that dies with the worker (a killed Ray worker leaves
no match or datagen behind playing on), its exit code sorted into what would fail the same way
again (never retried) or a failure worth retrying:

- 0: done;
- 2: shishi refused its arguments, or an engine refused an option: the user's to fix;
- a panic (shishi aborts: SIGABRT, or 134 from a shell): the same input panics again;
- 3: an engine of the match did not start or failed its handshake (a busy or short machine);
  retried, as is any other exit or signal (a killed or out-of-memory worker)."""

import ctypes
import signal
import subprocess
import sys


class UsageFailure(Exception):
    """shishi refused its arguments (exit code 2): every retry would fail the same way."""


class PanicFailure(Exception):
    """shishi panicked: a bug, which another attempt would hit again."""


class TransientFailure(Exception):
    """shishi crashed or was killed, or an engine did not start: another attempt may succeed."""


def failure_of(returncode, what, stderr):
    """The failure an exit code means (None for success), with `what` ran and its stderr."""
    tail = stderr.strip()[-2000:]
    if returncode == 0:
        return None
    if returncode == 2:
        return UsageFailure(f"{what}: {tail}")
    if returncode in (-signal.SIGABRT, 128 + signal.SIGABRT):
        return PanicFailure(f"{what} panicked: {tail}")
    if returncode == 3:
        return TransientFailure(f"{what}: an engine did not start: {tail}")
    return TransientFailure(f"{what} exited with {returncode}: {tail}")


def _die_with_parent():
    # PR_SET_PDEATHSIG (1): the kernel sends SIGKILL to the child when its parent dies.
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)


def run_shishi(args, cwd=None):
    """Runs `args` and returns its standard output; raises the failure its exit code means."""
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True,
                          preexec_fn=_die_with_parent if sys.platform == "linux" else None)
    failure = failure_of(proc.returncode, " ".join(args[:2]), proc.stderr)
    if failure:
        raise failure
    return proc.stdout
