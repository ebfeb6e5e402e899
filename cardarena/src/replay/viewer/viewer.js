// The cardarena replay viewer (src/replay/viewer/, docs/replay.md "The web viewer").
// It draws frames the engine made (boards, views, hands, moves, faults): no game rules here.
// mount(root, frames, options): options.replayText (the replay JSON, offered for download) or
// options.replayUrl (a link to it), options.replayName, options.verifyCommand, options.analysis
// (one seat's `arena analyse --json`: the analysis strip).

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

function card(c) {
  return el("span", { class: `card ${c.class}`.trim() }, c.text);
}

// What a decision did, as `arena replay` prints it.
function moveText(m) {
  const quoted = (s) => JSON.stringify(s);
  if (m.played !== null && m.reply === m.played) return m.played;
  if (m.played !== null && m.reply !== null) return `${quoted(m.reply)} refused; the arena played ${m.played}`;
  if (m.played !== null) return `no reply; the arena played ${m.played}`;
  if (m.reply !== null) return `${quoted(m.reply)} (the match ends)`;
  return "no reply (the match ends)";
}

function parseHash() {
  const out = {};
  for (const part of location.hash.replace(/^#/, "").split("&")) {
    const [key, value] = part.split("=");
    if (key) out[key] = decodeURIComponent(value || "");
  }
  return out;
}

export function mount(root, frames, options = {}) {
  const last = frames.frames.length - 1;
  const seats = [...Array(frames.players).keys()];
  const botName = (s) => frames.bots[s].name;
  // Frames made for one seat (Frames::for_seat) hold nothing else: that seat's view only.
  const only = frames.seat ?? null;
  let step = 0;
  let pov = only; // null: the spectator; else a seat

  let download = null;
  if (options.replayUrl || options.replayText) {
    download = el("a", { class: "rv-download" }, "download the replay (JSON)");
    download.href = options.replayUrl ||
      URL.createObjectURL(new Blob([options.replayText], { type: "application/json" }));
    if (options.replayName) download.setAttribute("download", options.replayName);
  }

  const head = el("header", { class: "rv-head" },
    el("h1", {}, `${frames.game} (${frames.variant}), seed ${frames.seed}`),
    el("ol", { class: "rv-bots", start: "0" },
      seats.map((s) => el("li", {}, `seat ${s}: ${botName(s)} `,
        el("code", { title: `SHA-256 ${frames.bots[s].hash}` }, frames.bots[s].hash.slice(0, 12))))),
    download ? el("p", { class: "rv-links" }, download,
      options.verifyCommand ? [" · check it by playing it again: ", el("code", {}, options.verifyCommand)] : null) : null);

  const prev = el("button", { class: "rv-prev", type: "button", title: "previous step (←)" }, "◀ prev");
  const next = el("button", { class: "rv-next", type: "button", title: "next step (→)" }, "next ▶");
  const slider = el("input", { class: "rv-slider", type: "range", min: "0", max: String(last), value: "0", "aria-label": "step" });
  const counter = el("span", { class: "rv-counter" });
  const select = el("select", { class: "rv-pov" },
    only === null ? el("option", { value: "" }, "spectator (every card)") : null,
    seats.filter((s) => only === null || s === only)
      .map((s) => el("option", { value: String(s) }, `seat ${s}: ${botName(s)}`)));
  const controls = el("nav", { class: "rv-controls" }, prev, slider, next, counter,
    el("label", {}, "point of view ", select));

  // The analysis strip: one cell per step, an analysed decision's bar as high as its loss
  // (against the match's largest), coloured by its mark; a click goes to the step.
  const analysis = options.analysis || null;
  const analysed = new Map((analysis ? analysis.decisions : []).map((d) => [d.decision, d]));
  let strip = null;
  if (analysis) {
    const most = Math.max(1e-9, ...analysis.decisions.map((d) => d.loss));
    const markClass = (d) => ({ "??": "rv-blunder", "?": "rv-mistake", "?!": "rv-inaccuracy" })[d.mark] || "";
    strip = el("div", { class: "rv-strip", title: `analysis of seat ${analysis.seat}` },
      el("span", { class: "rv-strip-label" }, `seat ${analysis.seat}: loss ${analysis.total_loss.toFixed(2)}`),
      el("div", { class: "rv-strip-cells" }, [...Array(last + 1).keys()].map((i) => {
        const d = analysed.get(i);
        if (!d) return el("span", { class: "rv-cell" });
        const bar = el("span", { class: `rv-bar ${markClass(d)}` });
        bar.style.height = `${Math.max(8, 100 * d.loss / most)}%`;
        const cell = el("span", { class: "rv-cell rv-analysed", "data-step": String(i),
          title: `#${i}: ${d.chosen}${d.loss > 0 ? `, ${d.best} better by ${d.loss.toFixed(2)}` : ""} ${d.mark || ""}` },
        bar, d.mark ? el("span", { class: "rv-mark" }, d.mark) : null);
        cell.addEventListener("click", () => go(i));
        return cell;
      })));
  }

  const body = el("section", { class: "rv-step" });
  root.replaceChildren(el("div", { class: "rv" }, head, controls, strip, body));

  // The analysed decision of this step: every valued action, best first, the one played marked.
  function values(frame) {
    const d = frame.decision ? analysed.get(frame.decision.index) : undefined;
    if (!d) return null;
    const sign = frames.fewer_points_better ? 1 : -1;
    const rows = Object.entries(d.values).sort((a, b) => sign * (a[1].value - b[1].value));
    return el("div", { class: "rv-analysis" },
      el("p", {}, el("strong", {}, `analysis: ${d.chosen} ${d.mark || ""}`),
        d.loss > 0 ? ` ${d.best} was better by ${d.loss.toFixed(2)} points` : " the best move found"),
      el("table", {}, el("tr", {}, el("th", {}, "action"), el("th", {}, "expected value"), el("th", {}, "±")),
        rows.map(([action, e]) => el("tr", { class: action === d.chosen ? "rv-chosen" : "" },
          el("td", {}, action), el("td", {}, e.value.toFixed(2)), el("td", {}, e.se.toFixed(2))))));
  }

  function badges(frame) {
    const shown = frame.badges ? frame.badges.filter((b) => pov === null || b.seat === pov) : [];
    if (shown.length === 0) return null;
    return el("div", { class: "rv-badges" }, shown.map((b) =>
      el("div", { class: `rv-badge rv-v-${b.verdict}` },
        el("strong", {}, b.verdict), ` seat ${b.seat} (${botName(b.seat)}) `,
        b.decision === null ? "at start" : `at decision #${b.decision}`, ": ", b.message,
        b.trace ? el("pre", { class: "rv-trace" }, b.trace) : null)));
  }

  function move(frame) {
    const m = frame.decision;
    if (!m) {
      return el("p", { class: "rv-move" }, el("strong", {}, "end of the match"),
        frame.note ? ` (${frame.note})` : null);
    }
    const who = `#${m.index} seat ${m.seat} (${botName(m.seat)})`;
    if (pov !== null && pov !== m.seat) {
      // Another seat's move, as far as this seat learns it.
      const what = m.simultaneous ? "decides at the same time (not seen yet)" : (m.public ?? "faults; the match ends");
      return el("p", { class: "rv-move" }, `${who}: ${what}`);
    }
    return el("p", { class: "rv-move" }, `${who}: `, el("strong", {}, moveText(m)),
      m.fuel !== undefined ? el("span", { class: "rv-fuel" }, ` fuel ${m.fuel}`) : null,
      m.log ? el("pre", { class: "rv-log" }, m.log.join("\n")) : null);
  }

  function hands(frame) {
    const rows = (pov === null ? seats : [pov]).map((s) =>
      el("div", { class: "rv-hand", "data-seat": String(s) },
        el("span", { class: "rv-who" }, pov === null ? `seat ${s}` : `your hand (seat ${s})`),
        frame.hands[s].length ? frame.hands[s].map(card) : el("span", { class: "rv-empty" }, "no cards")));
    return el("div", { class: "rv-hands" }, rows);
  }

  function observation(frame) {
    const m = frame.decision;
    const seat = pov === null ? m && m.seat : pov;
    const seen = seat === null || seat === undefined ? null : frame.seats[seat];
    if (!seen || !seen.observation) return null;
    if (seen.stdin !== undefined) {
      return el("details", { class: "rv-obs" },
        el("summary", {}, `the stdin seat ${seat}'s program received`), el("pre", {}, seen.stdin));
    }
    return el("details", { class: "rv-obs" },
      el("summary", {}, `the observation seat ${seat}'s bot received (JSON)`), el("pre", {}, seen.observation));
  }

  // The board: laid out with its cards as cards when the game gives a table (Lost Cities),
  // else the game's text board, as `arena replay` prints it.
  function board(frame) {
    const seen = pov === null ? frame : frame.seats[pov];
    const text = pov === null ? frame.board : frame.seats[pov].view;
    const t = seen.table;
    if (!t) return el("pre", { class: "rv-board" }, text);
    const cell = (c) => el("td", {}, c.cards.map(card),
      c.note ? el("span", { class: "rv-note" }, c.note) : null);
    return el("div", { class: "rv-table" },
      t.head.map((line) => el("p", { class: "rv-line" }, line)),
      el("table", {},
        el("thead", {}, el("tr", {}, t.columns.map((c) => el("th", {}, c)))),
        el("tbody", {}, t.rows.map((r) => el("tr", {}, el("th", {}, card(r.label)), r.cells.map(cell))))),
      t.foot.map((line) => el("p", { class: "rv-line" }, line)));
  }

  function result() {
    return el("table", { class: "rv-result" },
      el("tr", {}, el("th", {}, "seat"), el("th", {}, "bot"), el("th", {}, frames.points_word), el("th", {}, "rank")),
      seats.map((s) => el("tr", {}, el("td", {}, String(s)), el("td", {}, botName(s)),
        el("td", {}, String(frames.outcome.points[s])), el("td", {}, String(frames.outcome.ranks[s])))));
  }

  function draw() {
    const frame = frames.frames[step];
    counter.textContent = `step ${step} / ${last}`;
    slider.value = String(step);
    prev.disabled = step === 0;
    next.disabled = step === last;
    select.value = pov === null ? "" : String(pov);
    if (strip) {
      for (const c of strip.querySelectorAll(".rv-analysed")) c.classList.toggle("rv-here", Number(c.dataset.step) === step);
    }
    const parts = [
      move(frame),
      values(frame),
      badges(frame),
      hands(frame),
      board(frame),
      observation(frame),
      step === last ? result() : null,
    ];
    body.replaceChildren(...parts.filter((part) => part !== null));
    const hash = `#step=${step}` + (pov === null ? "" : `&pov=${pov}`);
    if (location.hash !== hash) {
      try { history.replaceState(null, "", hash); } catch (_) { /* a sandboxed frame: no deep link */ }
    }
  }

  function go(to) {
    step = Math.max(0, Math.min(last, to));
    draw();
  }

  function fromHash() {
    const h = parseHash();
    const s = Number.parseInt(h.step, 10);
    const p = Number.parseInt(h.pov, 10);
    pov = only ?? (seats.includes(p) ? p : null);
    go(Number.isNaN(s) ? step : s);
  }

  prev.addEventListener("click", () => go(step - 1));
  next.addEventListener("click", () => go(step + 1));
  slider.addEventListener("input", () => go(Number(slider.value)));
  select.addEventListener("change", () => {
    pov = select.value === "" ? null : Number(select.value);
    draw();
  });
  document.addEventListener("keydown", (e) => {
    const tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "ArrowRight") { go(step + 1); e.preventDefault(); }
    if (e.key === "ArrowLeft") { go(step - 1); e.preventDefault(); }
  });
  window.addEventListener("hashchange", fromHash);
  fromHash();
}
