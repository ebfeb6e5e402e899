// The bench's trivial JavaScript bot: the first legal action (`arena bench`, decision_js_ns).
function act(obs) {
  return obs.legal[0];
}
