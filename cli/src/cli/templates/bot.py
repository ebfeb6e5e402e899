# {{NAME}}: a cardarena bot for {{GAME}}, in Python (run by the arena's own RustPython 0.5:
# nothing to install).
#
#   arena play --game {{GAME}} --bots {{BOTS}}      # one match, with the game log
#   arena play --game {{GAME}} --bots {{HUMAN_BOTS}}      # you against it, in the terminal
#   arena check bot.py --game {{GAME}}                  # hundreds of matches: faults, fuel, win rate
#
# The arena calls act(obs) for every decision of your seat and plays the string you return,
# which must be one of obs["legal"] (anything else loses the match: `arena docs bot-api`,
# verdicts). The rules, the action notation and every field: `arena docs {{GAME}}`.
# {{MODULE}}_types.py describes the observation for your editor (VS Code with the Python
# extension completes `obs["` from it); the arena itself never imports it.
#
# The observation ({{CLASS}}), a dict:
{{FIELDS}}
#
# Lists are 0-based: the entry of seat s is at index s. JSON null is None.
# Module-level variables keep their values between the decisions of one match; every match
# starts afresh. print(...) writes to the bot's log (shown by `arena play`).
# Imports: math, random, json, re, collections, itertools, functools, heapq, bisect, string.
import random

TYPE_CHECKING = False
if TYPE_CHECKING:  # read by editors and type checkers only, never run
    from {{MODULE}}_types import {{CLASS}}


def init(info: dict) -> None:
    """Called once before the first decision (optional)."""
    # random is seeded from the match seed and your seat: the same match plays the same way.


def act(obs: "{{CLASS}}") -> str:
    """Called for every decision of your seat: return one string of obs["legal"]."""
    # A first strategy: any legal action, at random. Replace it with something clever.
    return random.choice(obs["legal"])
