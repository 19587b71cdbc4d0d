"""The games of a match PGN (`shishi match --pgn`) and their tags, for the pgn-*.py scripts.

A module of its own so that each script imports it by name: the scripts' hyphenated names
cannot be imported.
"""
import gzip
import re


def games(path):
    """Each game's text after its `[Event ` tag, from a PGN file, gzipped or not."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return f.read().split("[Event ")[1:]


def tag(game, name):
    """A tag's value in one game's text, or None."""
    m = re.search(r'\[%s "(.*?)"\]' % name, game)
    return m.group(1) if m else None
