"""A stand-in for os in the arena's sandbox, not the standard module: `random` imports it for
urandom. There are no files, processes or environment to reach, and a bot cannot import it."""

name = "arena"


def urandom(n):
    raise NotImplementedError("os.urandom is not available to bots: random is seeded by the arena")
