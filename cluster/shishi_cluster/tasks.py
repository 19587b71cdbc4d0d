"""What the SPRT and the datagen driver share about their Ray tasks: waiting for the next one
to finish, and cancelling the rest when one fails."""

import ray


def next_result(pending):
    """Waits for one of `pending` (object ref -> anything) to finish, removes it and returns
    its result; if that task failed, cancels every other pending task and raises its error."""
    ready, _ = ray.wait(list(pending), num_returns=1)
    pending.pop(ready[0])
    try:
        return ray.get(ready[0])
    except Exception:
        cancel_all(pending)
        raise


def cancel_all(pending):
    """Cancels every pending task (its worker's shishi dies with it)."""
    for ref in pending:
        ray.cancel(ref, force=True)
