// The page of a game a person plays against a bot (templates/play_game.html): polls the
// game's state and shows the moves; served as a file so that the pages need no inline script.
(() => {
  const root = document.getElementById("play");
  const id = root.dataset.id, csrf = root.dataset.csrf;
  const board = document.getElementById("board"), moves = document.getElementById("moves");
  const hand = document.getElementById("hand");
  function card(c) {
    const s = document.createElement("span");
    s.className = `card ${c.class}`.trim(); s.textContent = c.text;
    return s;
  }
  const status = document.getElementById("status"), error = document.getElementById("error");
  let shown = Number(root.dataset.shown), sending = false;
  function field(form, name, value) {
    const i = document.createElement("input");
    i.type = "hidden"; i.name = name; i.value = value; form.appendChild(i);
  }
  function show(turn) {
    board.textContent = turn.view;
    hand.replaceChildren(...turn.hand.map(card));
    moves.textContent = "";
    turn.moves.forEach((a, k) => {
      const f = document.createElement("form");
      f.method = "post"; f.setAttribute("action", `/play/${id}/move`); f.className = "inline move";
      field(f, "csrf", csrf); field(f, "n", turn.n); field(f, "action", a.text);
      const b = document.createElement("button");
      b.append(`${k + 1}. `, card(a));
      f.appendChild(b); moves.appendChild(f); moves.appendChild(document.createTextNode(" "));
    });
    shown = turn.n;
  }
  async function poll() {
    try {
      const r = await fetch(`/play/${id}/state`, { headers: { Accept: "application/json" } });
      const s = await r.json();
      if (!r.ok) { error.textContent = s.error || r.statusText; }
      else if (s.waiting === "over") { location.reload(); return; }
      else if (s.waiting === "you") {
        if (s.turn.n !== shown) show(s.turn);
        status.textContent = "Your move.";
      } else {
        moves.textContent = ""; shown = -1;
        status.textContent = s.waiting === "worker" ? "Waiting for a worker to start the match…" : "The bot is thinking…";
      }
    } catch (e) { error.textContent = `cannot reach the ladder: ${e}`; }
    setTimeout(poll, 300);
  }
  moves.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (sending) return;
    sending = true;
    const body = new URLSearchParams(new FormData(e.target));
    try {
      // (the form's `action` property is its input named "action": read the attribute)
      const r = await fetch(e.target.getAttribute("action"), { method: "POST", body, headers: { Accept: "application/json" } });
      if (r.ok) { error.textContent = ""; moves.textContent = ""; shown = -1; status.textContent = "The bot is thinking…"; }
      else { const s = await r.json(); error.textContent = s.error || r.statusText; }
    } finally { sending = false; }
  });
  document.addEventListener("keydown", (e) => {
    const k = Number(e.key);
    if (!Number.isInteger(k) || k < 1) return;
    const b = moves.querySelectorAll("button")[k - 1];
    if (b) b.click();
  });
  setTimeout(poll, 300);
})();
