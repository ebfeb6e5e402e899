// The ladder's code editor: turns every `<textarea data-editor="lua|python|javascript|wat">` into a
// CodeMirror editor once the page has loaded. The textarea stays in the form (hidden) and always
// holds the editor's text, so the form posts the code as it does without scripts.
//
// The textarea's attributes drive it:
//   data-editor="lua"         the language (changing the attribute switches it)
//   data-highlight-line="12"  the line marked with the class `cm-verdict-line` and scrolled to
//                             (changing or removing the attribute moves or clears the mark)
//   readonly                  the code can be read and selected, not changed
// and the event `editor:highlight` dispatched on the textarea with `detail: {line}` moves the mark
// (`line` null or 0 clears it). The textarea's `editorView` property is its CodeMirror view (for
// scripts and tests that read or set the text: `textarea.editorView.state.doc`).
//
// Tab indents; Escape then Tab (or Ctrl-M / Shift-Alt-M) leaves the editor, as CodeMirror's
// accessibility guide has it.
import { EditorView, lineNumbers, keymap, Decoration, drawSelection, highlightActiveLineGutter, highlightSpecialChars } from "@codemirror/view";
import { EditorState, StateField, StateEffect, Compartment } from "@codemirror/state";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { StreamLanguage, syntaxHighlighting, defaultHighlightStyle, indentOnInput, bracketMatching, indentUnit } from "@codemirror/language";
import { lua } from "@codemirror/legacy-modes/mode/lua";
import { wast } from "@codemirror/legacy-modes/mode/wast";
import { pythonLanguage } from "@codemirror/lang-python";
import { javascriptLanguage } from "@codemirror/lang-javascript";

const languages = {
  lua: () => [StreamLanguage.define(lua), indentUnit.of("  ")],
  python: () => [pythonLanguage, indentUnit.of("    ")],
  javascript: () => [javascriptLanguage, indentUnit.of("  ")],
  wat: () => [StreamLanguage.define(wast), indentUnit.of("  ")],
};

function language(name) {
  const make = languages[name];
  return make ? make() : [];
}

// The marked line (a 1-based line number, or null for none).
const setMark = StateEffect.define();
const verdictLine = Decoration.line({ class: "cm-verdict-line" });
const mark = StateField.define({
  create: () => Decoration.none,
  update(marks, tr) {
    marks = marks.map(tr.changes);
    for (const e of tr.effects) {
      if (!e.is(setMark)) continue;
      const n = e.value;
      marks = n && n >= 1 && n <= tr.state.doc.lines
        ? Decoration.set([verdictLine.range(tr.state.doc.line(n).from)])
        : Decoration.none;
    }
    return marks;
  },
  provide: (f) => EditorView.decorations.from(f),
});

function lineNumber(value) {
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) && n >= 1 ? n : null;
}

function highlight(view, line) {
  const effects = [setMark.of(line)];
  if (line && line <= view.state.doc.lines) {
    effects.push(EditorView.scrollIntoView(view.state.doc.line(line).from, { y: "center" }));
  }
  view.dispatch({ effects });
}

const theme = EditorView.theme({
  "&": { border: "1px solid #999", backgroundColor: "#fff", fontSize: "0.95rem" },
  "&.cm-focused": { outline: "2px solid #36c" },
  ".cm-scroller": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", lineHeight: "1.4" },
  ".cm-content, .cm-gutter": { minHeight: "var(--editor-min-height, 20em)" },
  ".cm-gutters": { backgroundColor: "#f3f3f3", color: "#666", borderRight: "1px solid #ddd" },
  ".cm-verdict-line": { backgroundColor: "#ffd8d8", boxShadow: "inset 3px 0 0 #c00" },
});

function upgrade(textarea) {
  const lang = new Compartment();
  const readOnly = textarea.readOnly;
  const rows = Number(textarea.getAttribute("rows")) || 20;
  const view = new EditorView({
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightSpecialChars(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        EditorState.tabSize.of(4),
        EditorState.readOnly.of(readOnly),
        EditorView.editable.of(!readOnly),
        lang.of(language(textarea.dataset.editor)),
        mark,
        theme,
        EditorView.contentAttributes.of({ "aria-label": label(textarea) }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) textarea.value = u.state.doc.toString();
        }),
      ],
    }),
  });
  view.dom.style.setProperty("--editor-min-height", `${rows * 1.4}em`);
  textarea.after(view.dom);
  textarea.hidden = true;
  textarea.style.display = "none";
  for (const l of textarea.labels || []) {
    l.addEventListener("click", () => view.focus());
  }
  const form = textarea.form;
  if (form) form.addEventListener("submit", () => { textarea.value = view.state.doc.toString(); });
  textarea.addEventListener("editor:highlight", (e) => {
    highlight(view, lineNumber(e.detail && e.detail.line));
  });
  new MutationObserver((changes) => {
    for (const c of changes) {
      if (c.attributeName === "data-editor") {
        view.dispatch({ effects: lang.reconfigure(language(textarea.dataset.editor)) });
      } else if (c.attributeName === "data-highlight-line") {
        highlight(view, lineNumber(textarea.dataset.highlightLine));
      }
    }
  }).observe(textarea, { attributes: true, attributeFilter: ["data-editor", "data-highlight-line"] });
  const first = lineNumber(textarea.dataset.highlightLine);
  if (first) highlight(view, first);
  textarea.editorView = view;
}

function label(textarea) {
  const l = textarea.labels && textarea.labels[0];
  return (l && l.textContent.trim()) || textarea.getAttribute("aria-label") || "Code";
}

// CodeMirror styles a document through a `<style>` element, which the ladder's
// Content-Security-Policy (no inline style) refuses; it styles a shadow root through a
// constructed style sheet, which the policy allows. While the first editor mounts its styles the
// document is made to look like a shadow root (no `head`), so that its styles go to a constructed
// sheet too; later editors reuse that sheet. Without constructed sheets the textareas stay.
function mountAll() {
  const areas = document.querySelectorAll("textarea[data-editor]");
  if (!areas.length || !document.adoptedStyleSheets || typeof CSSStyleSheet === "undefined") return;
  Object.defineProperty(document, "head", { value: null, configurable: true });
  try {
    for (const t of areas) upgrade(t);
  } finally {
    delete document.head;
  }
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mountAll);
else mountAll();
