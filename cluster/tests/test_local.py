"""The driver on a local Ray instance (two CPUs) with tiny fixed-node workloads: its summed
slices equal one `shishi match` / `shishi datagen` process, a worker killed mid-run is
retried and counted once, and an interrupted run resumes without counting anything twice.

Needs the shishi binary: SHISHI_BIN, else target/release/shishi."""

import os
import re
import signal
import subprocess
import tempfile
import threading
import time
import unittest
from pathlib import Path

import ray

from shishi_cluster.datagen import run_datagen
from shishi_cluster.journal import Journal, JournalMismatch
from shishi_cluster.sprt import SliceOutputError, parse_match_output, run_sprt

ROOT = Path(__file__).resolve().parents[2]
SHISHI = os.environ.get("SHISHI_BIN", str(ROOT / "target/release/shishi"))
BOOK = str(ROOT / "positions/openings-heian.epd")
GAMES = 12


def match_args(nodes=300):
    engine = f"cmd={SHISHI},nodes={nodes}"
    return ["--engine", engine, "--engine", engine, "--variant", "heian", "--tc", "100+1",
            "--openings", BOOK, "--max-moves", "20"]


def single_match_penta():
    out = subprocess.run([SHISHI, "match", *match_args(), "--games", str(GAMES)],
                         capture_output=True, text=True, check=True).stdout
    found = re.search(r"pentanomial \[(\d+) (\d+) (\d+) (\d+) (\d+)\]", out)
    return [int(c) for c in found.groups()]


def games_of(pgn_text):
    """Each game's round, start position, moves and result, without the timed comments."""
    games = []
    for game in pgn_text.split("[Event")[1:]:
        tags = [l for l in game.splitlines() if l.startswith(("[Round", "[FEN"))]
        body = re.sub(r"\{[^}]*\}", "", "\n".join(l for l in game.splitlines()
                                                    if not l.startswith("[")))
        games.append((tuple(tags), tuple(body.split())))
    return sorted(games)


class LocalCluster(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        cls.whole = single_match_penta()

    @classmethod
    def tearDownClass(cls):
        ray.shutdown()

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="shishi-cluster-test-")
        self.dir = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def test_slices_sum_to_the_single_machine_match(self):
        pgn = self.dir / "all.pgn"
        lines = []
        summary = run_sprt(SHISHI, match_args(), GAMES, self.dir / "state", slice_pairs=2,
                           sprt="elo0=-500,elo1=500", pgn=pgn, out=lines.append)
        self.assertEqual(summary["penta"], self.whole)
        self.assertEqual(sum(summary["wld"]), GAMES)
        # The same games as one process plays (the slices' PGNs against the whole match's).
        whole_pgn = self.dir / "whole.pgn"
        subprocess.run([SHISHI, "match", *match_args(), "--games", str(GAMES),
                        "--pgn", str(whole_pgn)], capture_output=True, check=True)
        self.assertEqual(games_of(pgn.read_text()), games_of(whole_pgn.read_text()))
        # The summary is shishi's own: the Elo line names the pentanomial.
        self.assertTrue(any("pentanomial [" + " ".join(map(str, self.whole)) + "]" in l
                            for l in lines), lines)

    def test_a_killed_worker_is_retried_and_counted_once(self):
        pid_dir = self.dir / "pids"
        pid_dir.mkdir()
        killed = []

        def kill_first_worker():
            try:
                deadline = time.time() + 60
                while time.time() < deadline:
                    announced = sorted(pid_dir.glob("pairs-*"))
                    if announced:
                        pid = int(announced[0].read_text())
                        os.kill(pid, signal.SIGKILL)
                        killed.append((announced[0].name, pid))
                        break
                    time.sleep(0.02)
            finally:
                (pid_dir / "go").write_text("")

        killer = threading.Thread(target=kill_first_worker)
        killer.start()
        summary = run_sprt(SHISHI, match_args(), GAMES, self.dir / "state", slice_pairs=2,
                           out=lambda _: None, pid_dir=str(pid_dir))
        killer.join()
        self.assertEqual(len(killed), 1)
        # The killed slice ran again: its label was announced by two worker processes.
        label = killed[0][0].rsplit("-", 1)[0]
        self.assertGreaterEqual(len(list(pid_dir.glob(label + "-*"))), 2)
        self.assertEqual(summary["penta"], self.whole)
        journal = (self.dir / "state" / "journal.jsonl").read_text().splitlines()
        self.assertEqual(len(journal), 1 + GAMES // 4, "one settings line, one per slice")

    def test_an_interrupted_run_resumes_and_counts_nothing_twice(self):
        state = self.dir / "state"
        first = run_sprt(SHISHI, match_args(), GAMES, state, slice_pairs=2,
                         out=lambda _: None, stop_after=1)
        self.assertLess(sum(first["penta"]), GAMES // 2)
        journal = state / "journal.jsonl"
        entries = journal.read_text().splitlines()
        # A slice written twice and a torn last line, as a killed driver may leave them.
        with open(journal, "a") as f:
            f.write(entries[1] + "\n" + entries[1][:25])
        lines = []
        resumed = run_sprt(SHISHI, match_args(), GAMES, state, slice_pairs=2,
                           out=lines.append)
        self.assertTrue(lines[0].startswith("resumed 1 finished slice"), lines[0])
        self.assertEqual(resumed["penta"], self.whole)
        # Another match in the same state folder is refused, not mixed in.
        with self.assertRaises(JournalMismatch):
            run_sprt(SHISHI, match_args(nodes=301), GAMES, state, slice_pairs=2,
                     out=lambda _: None)

    def test_datagen_shards_make_the_single_process_file(self):
        variants = ["--variant", "heian,heian8x8", "--nodes", "200", "--random-plies", "4"]
        single = self.dir / "single.spk"
        subprocess.run([SHISHI, "datagen", *variants, "--games", "6", "--seed", "11",
                        "--threads", "1", "--out", str(single)], capture_output=True,
                       check=True)
        merged = self.dir / "merged.spk"
        run_datagen(SHISHI, variants, 6, 11, 3, self.dir / "state", merged,
                    out=lambda _: None)
        self.assertGreater(single.stat().st_size, 100)
        self.assertEqual(merged.read_bytes(), single.read_bytes())

    def test_journal_keeps_the_first_record_of_a_slice(self):
        journal = Journal(self.dir / "j", {"kind": "x"})
        self.assertTrue(journal.record({"slice": "0..2", "penta": [1, 0, 0, 0, 0]}))
        self.assertFalse(journal.record({"slice": "0..2", "penta": [0, 0, 0, 0, 1]}))
        again = Journal(self.dir / "j", {"kind": "x"})
        self.assertEqual(again.done["0..2"]["penta"], [1, 0, 0, 0, 0])


if __name__ == "__main__":
    unittest.main()


class SliceOutput(unittest.TestCase):
    """A slice's output is counted only when it is whole (issue 73: a missing pentanomial was
    journalled as [0, 0, 0, 0, 0] and counted as done, a missing table raised a traceback)."""

    TABLE = ("engine                         wins losses  draws   score  illegal crashes timeouts\n"
             "a                                 3      1      0   75.0%        0       0        0\n"
             "b                                 1      3      0   25.0%        0       0        0\n")
    ELO = "Elo of a vs b: +190.8 +/- inf (95%: -inf to +inf, 2 pairs, pentanomial [0 0 1 1 0])\n"

    def test_a_whole_output_is_read(self):
        penta, wld, names = parse_match_output(self.TABLE + self.ELO, pairs=2)
        self.assertEqual((penta, wld, names), ([0, 0, 1, 1, 0], [3, 1, 0], ("a", "b")))

    def test_output_without_pentanomial_or_table_or_with_a_wrong_count_is_refused(self):
        for stdout, pairs in [(self.TABLE, 2), (self.ELO, 2), (self.TABLE + self.ELO, 3)]:
            with self.assertRaises(SliceOutputError):
                parse_match_output(stdout, pairs=pairs)


class ExitCodes(unittest.TestCase):
    """shishi's exit code sorted (issue 73: a panic was retried five times while exit code 2,
    which also meant "engine did not start", stopped the run)."""

    def test_each_code_means_its_failure(self):
        from shishi_cluster.process import (PanicFailure, TransientFailure, UsageFailure,
                                            failure_of)
        self.assertIsNone(failure_of(0, "shishi match", ""))
        for code, kind in [(2, UsageFailure), (-signal.SIGABRT, PanicFailure),
                           (134, PanicFailure), (3, TransientFailure),
                           (-signal.SIGKILL, TransientFailure), (1, TransientFailure)]:
            self.assertIsInstance(failure_of(code, "shishi match", "why\n"), kind, code)

    def test_a_real_panic_and_a_real_start_failure(self):
        from shishi_cluster.process import PanicFailure, TransientFailure, run_shishi
        with self.assertRaises(TransientFailure):
            run_shishi([SHISHI, "match", "--engine", "/nonexistent/engine", "--engine", SHISHI,
                        "--games", "2", "--variant", "heian", "--tc", "1+0.01", "--proto", "usi"])
        with self.assertRaises(PanicFailure):
            run_shishi(["sh", "-c", "kill -ABRT $$"])


class Cache(unittest.TestCase):
    """The worker's file cache (issue 73: a cached binary was trusted without re-hashing, in a
    directory anyone could write)."""

    def test_the_cache_is_private_and_a_planted_file_is_replaced(self):
        import hashlib
        import stat
        from shishi_cluster.shipping import place, private_cache
        with tempfile.TemporaryDirectory() as tmp:
            cache = Path(tmp, "cache")
            cache.mkdir(mode=0o777)
            os.chmod(cache, 0o777)
            self.assertEqual(stat.S_IMODE(private_cache(cache).stat().st_mode), 0o700)
            good = b"the real engine"
            digest = hashlib.sha256(good).hexdigest()
            planted = cache / digest / "shishi"
            planted.parent.mkdir()
            planted.write_bytes(b"a planted engine")
            fetched = []

            def fetch():
                fetched.append(1)
                return good

            self.assertEqual(place(cache, digest, "shishi", fetch).read_bytes(), good)
            self.assertEqual(place(cache, digest, "shishi", fetch).read_bytes(), good)
            self.assertEqual(len(fetched), 1, "an intact copy is used as it is")

    def test_a_cache_of_another_user_is_refused(self):
        from shishi_cluster.shipping import UnsafeCache, private_cache
        if os.getuid() != 0:
            self.skipTest("only root can make a directory of another user here")
        with tempfile.TemporaryDirectory() as tmp:
            cache = Path(tmp, "cache")
            cache.mkdir()
            os.chown(cache, 65534, 65534)
            with self.assertRaises(UnsafeCache):
                private_cache(cache)
