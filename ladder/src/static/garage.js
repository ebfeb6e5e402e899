// The garage's autosave. Every three seconds, when the draft (the code, its language and the
// bot's name) differs from what was last saved, the form is posted to its save action, as the
// "Save the draft" button posts it; and once more when the page is left. `#autosave` says when
// it last saved (its `data-saved` attribute counts the saves). Without scripts every button
// saves the draft.
(() => {
  const form = document.getElementById("garage-form");
  const code = document.getElementById("code");
  const status = document.getElementById("autosave");
  if (!form || !code || code.readOnly || !status) return;
  const action = form.getAttribute("action");
  // The fields that make the draft (the opponent's choice is not part of it).
  const draft = () => {
    const fields = new URLSearchParams(new FormData(form));
    fields.delete("opponent");
    return fields;
  };
  let saved = draft().toString();
  let busy = false;
  let saves = 0;
  async function save() {
    const fields = draft();
    const text = fields.toString();
    if (busy || text === saved) return;
    busy = true;
    try {
      // The save action answers with a redirect to the garage page: not followed.
      const r = await fetch(action, { method: "POST", body: fields, redirect: "manual", credentials: "same-origin" });
      if (r.ok || r.type === "opaqueredirect") {
        saved = text;
        saves += 1;
        status.dataset.saved = String(saves);
        status.textContent = `Draft saved automatically at ${new Date().toLocaleTimeString()}.`;
      } else {
        status.textContent = `Not saved automatically (HTTP ${r.status}): press "Save the draft" to see why.`;
      }
    } catch (e) {
      status.textContent = "Not saved automatically: the ladder cannot be reached; trying again.";
    } finally {
      busy = false;
    }
  }
  setInterval(save, 3000);
  window.addEventListener("pagehide", () => {
    const fields = draft();
    if (fields.toString() !== saved) navigator.sendBeacon(action, fields);
  });
})();
