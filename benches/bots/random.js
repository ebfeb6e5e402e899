// The bench's JavaScript bot for starts (`arena bench`, start_js_ns): a random legal action.
function act(obs) {
  return obs.legal[Math.floor(Math.random() * obs.legal.length)];
}
