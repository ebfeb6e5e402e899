# The bench's Python bot for starts (`arena bench`, start_python_ns): a random legal action.
import random


def act(obs):
    return random.choice(obs["legal"])
