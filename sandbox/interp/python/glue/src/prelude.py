# The arena's side of a Python bot, run once when the interpreter boots (before the snapshot).
# The host calls seed/load/init/act through the glue (lib.rs); each returns (status, text) as the
# interpreter module ABI says: 0 ok, 1 an uncaught error, 2 an interface mistake, 3 recursion too
# deep, 4 out of memory. The bot's module is its own dict; nothing here is in its namespace.
import sys
import builtins
import encodings  # the codec search function (re's parser decodes latin-1)
import math, random, json, re, collections, itertools, functools, heapq, bisect, string

# `_emit(line)`, one line of the bot's log, is set by the glue before this runs.
_name = "bot.py"
_bot = None
_MAX_LINE = 4096
_MAX_FRAMES = 12


class _Log:
    """sys.stdout and sys.stderr: whole lines go to the bot's log."""

    def __init__(self):
        self._buf = ""

    def write(self, s):
        s = self._buf + str(s)
        lines = s.split("\n")
        self._buf = lines.pop()
        for line in lines:
            _emit(line)
        if len(self._buf) > _MAX_LINE:
            self.flush()
        return len(s)

    def flush(self):
        if self._buf:
            _emit(self._buf)
            self._buf = ""


_out = _Log()
sys.stdout = _out
sys.stderr = _out
# A RecursionError (the `stack` verdict, with a traceback) well before the wasm stack runs out.
sys.setrecursionlimit(500)


def _unavailable(what):
    def f(*args, **kwargs):
        raise RuntimeError(f"{what}() is not available to bots (no files, no console, no exit)")

    f.__name__ = what
    return f


for _what in ("open", "input", "breakpoint", "exit", "quit", "help"):
    setattr(builtins, _what, _unavailable(_what))


def _describe(v):
    if v is None:
        return "None (is a return statement missing?)"
    if isinstance(v, bool):
        return f"a bool ({v!r})"
    if isinstance(v, (int, float)):
        return f"a number ({v!r})"
    return f"a {type(v).__name__} ({repr(v)[:60]})"


def _fail(e):
    status = 3 if isinstance(e, RecursionError) else 4 if isinstance(e, MemoryError) else 1
    where = None
    if isinstance(e, SyntaxError) and e.filename == _name:
        where = e.lineno
    frames = []
    tb = e.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename != "<arena>":
            frames.append(f'  File "{code.co_filename}", line {tb.tb_lineno}, in {code.co_name}')
            if code.co_filename == _name:
                where = tb.tb_lineno
        tb = tb.tb_next
    msg = f"{type(e).__name__}: {e}"
    if isinstance(e, AttributeError) and str(e).startswith("'dict' object has no attribute"):
        msg += " (the observation is a dict: write obs[\"legal\"], not obs.legal)"
    head = f"{_name}:{where}: {msg}" if where is not None else msg
    if not frames:
        return status, head
    if len(frames) > _MAX_FRAMES:
        cut = len(frames) - _MAX_FRAMES
        frames = frames[:2] + [f"  ... {cut} more frames"] + frames[-(_MAX_FRAMES - 2):]
    return status, head + "\nTraceback (most recent call last):\n" + "\n".join(frames)


def _no_act(g):
    funcs = sorted(k for k, v in g.items() if callable(v) and not k.startswith("__"))
    near = [k for k in funcs if k.lower() in ("act", "acts", "action", "play", "move", "decide")]
    if near:
        return f"{_name}: no function act(obs); found {', '.join(near)}: the arena calls act"
    if funcs:
        return f"{_name}: no function act(obs) (defined: {', '.join(funcs[:8])})"
    return f"{_name}: no function act(obs): define def act(obs): ... returning the action string"


def seed(n):
    random.seed(n)
    return 0, ""


def load(src, name):
    global _bot, _name
    _name = name
    g = {"__name__": "bot", "__builtins__": builtins}
    try:
        exec(compile(src, name, "exec"), g)
    except BaseException as e:
        return _fail(e)
    finally:
        _out.flush()
    if not callable(g.get("act")):
        return 2, _no_act(g)
    _bot = g
    return 0, ""


def init(info_json):
    f = _bot.get("init")
    if not callable(f):
        return 0, ""
    try:
        f(json.loads(info_json))
    except BaseException as e:
        return _fail(e)
    finally:
        _out.flush()
    return 0, ""


def act(obs_json):
    try:
        r = _bot["act"](json.loads(obs_json))
    except BaseException as e:
        return _fail(e)
    finally:
        _out.flush()
    if type(r) is str:
        return 0, r
    hint = f'"{r}"' if isinstance(r, int) and not isinstance(r, bool) else '"3"'
    return 2, f"act returned {_describe(r)}; return the action string, e.g. {hint}"
