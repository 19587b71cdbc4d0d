"""Running `shishi` on a worker: a child that dies with the worker (a killed Ray worker leaves
no match or datagen behind playing on), its exit code sorted into a user's mistake (never
retried) or a failure worth retrying."""

import ctypes
import signal
import subprocess
import sys


class UsageFailure(Exception):
    """shishi refused its arguments (exit code 2): every retry would fail the same way."""


class TransientFailure(Exception):
    """shishi crashed or was killed: another attempt may succeed."""


def _die_with_parent():
    # PR_SET_PDEATHSIG (1): the kernel sends SIGKILL to the child when its parent dies.
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)


def run_shishi(args, cwd=None):
    """Runs `args` and returns its standard output; raises UsageFailure or TransientFailure."""
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True,
                          preexec_fn=_die_with_parent if sys.platform == "linux" else None)
    if proc.returncode == 2:
        raise UsageFailure(f"{' '.join(args[:2])}: {proc.stderr.strip()[-2000:]}")
    if proc.returncode != 0:
        raise TransientFailure(
            f"{' '.join(args[:2])} exited with {proc.returncode}: {proc.stderr.strip()[-2000:]}")
    return proc.stdout
