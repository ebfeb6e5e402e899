# The bench's trivial Python bot: the first legal action (`arena bench`, decision_python_ns).
def act(obs):
    return obs["legal"][0]
