"""The journal of a run: one JSON line per finished slice, appended after the slice's files are
safely on disk, so an interrupted run resumes from it. Its first line is the run's settings: a
journal of other settings is refused rather than mixed. A slice is counted once however often
it was written (a task Ray ran twice) and a torn last line (a driver killed while writing) is
ignored, so nothing is counted twice and nothing half-written counts."""

import json
import os
from pathlib import Path


class JournalMismatch(Exception):
    """The journal in the state folder belongs to a run of other settings."""


class Journal:
    def __init__(self, folder, settings):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path = self.folder / "journal.jsonl"
        self.done = {}
        if self.path.exists():
            self._load(settings)
        else:
            self._append({"settings": settings})

    def _load(self, settings):
        lines = self.path.read_text().split("\n")
        try:
            first = json.loads(lines[0])
        except json.JSONDecodeError:
            first = {}
        if first.get("settings") != settings:
            raise JournalMismatch(
                f"{self.path} is the journal of another run ({first.get('settings')}); "
                "give another --state folder or the same settings")
        for line in lines[1:]:
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            self.done.setdefault(entry["slice"], entry)
        # A torn last line would glue itself to the next entry: end the file on a newline.
        text = self.path.read_bytes()
        if text and not text.endswith(b"\n"):
            with open(self.path, "ab") as f:
                f.write(b"\n")

    def _append(self, entry):
        with open(self.path, "a") as f:
            f.write(json.dumps(entry, sort_keys=True) + "\n")
            f.flush()
            os.fsync(f.fileno())

    def record(self, entry):
        """Records a finished slice (`entry["slice"]` names it); False if it was already."""
        if entry["slice"] in self.done:
            return False
        self._append(entry)
        self.done[entry["slice"]] = entry
        return True


def write_atomically(path, data):
    """Writes `data` (bytes) to `path` through a temporary file, synced, then renamed."""
    path = Path(path)
    partial = path.with_name(path.name + ".partial")
    with open(partial, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(partial, path)
