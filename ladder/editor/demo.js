// demo.html's checks: counts Content-Security-Policy refusals, moves the Python editor's mark with
// the `editor:highlight` event, edits the Lua editor and writes what it sees into #result.
const violations = [];
document.addEventListener("securitypolicyviolation", (e) => violations.push(`${e.violatedDirective} ${e.blockedURI}`));
window.addEventListener("load", () => {
  const lua = document.getElementById("lua"), py = document.getElementById("py");
  if (!lua.editorView) {
    document.getElementById("result").textContent = "no editor (scripts off or no constructed style sheets)";
    return;
  }
  py.dispatchEvent(new CustomEvent("editor:highlight", { detail: { line: 3 } }));
  lua.editorView.dispatch({ changes: { from: 0, insert: "-- edited\n" } });
  setTimeout(() => {
    document.getElementById("result").textContent = JSON.stringify({
      editors: document.querySelectorAll(".cm-editor").length,
      gutters: getComputedStyle(document.querySelector(".cm-gutters")).display,
      font: getComputedStyle(document.querySelector(".cm-scroller")).fontFamily,
      marked: [...document.querySelectorAll(".cm-verdict-line")].map((l) => l.textContent),
      textareaShown: lua.offsetParent !== null,
      textareaStarts: lua.value.split("\n")[0],
      violations,
    }, null, 1);
  }, 200);
});
