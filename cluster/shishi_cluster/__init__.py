"""shishi on a Ray cluster: an SPRT whose game pairs are played as Ray tasks (`sprt`), and a
datagen run whose shards are (`datagen`). The engine's own tools cut the work
(`shishi match --pairs`, `shishi datagen --shard`) and judge it (`shishi sprt`); this package
only ships the files, schedules the slices, retries the lost ones, and keeps a journal so an
interrupted run resumes without counting anything twice."""

__version__ = "0.2.0"
