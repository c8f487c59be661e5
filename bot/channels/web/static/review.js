// The review queue with the keyboard (as annotation tools do): j/k move, i intent, o entities,
// Enter saves and moves on, a accepts the turn as logged, u undoes, Esc leaves a field.
(function () {
  "use strict";
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const items = Array.from(document.querySelectorAll("#queue li.item"));
  let current = 0;

  function select(i) {
    if (!items.length) return;
    current = Math.max(0, Math.min(items.length - 1, i));
    items.forEach((el, k) => el.classList.toggle("current", k === current));
    items[current].scrollIntoView({ block: "nearest" });
    if (!items[current].contains(document.activeElement)) items[current].focus();
  }

  async function save(item, fields) {
    const form = item.querySelector("form.relabel");
    const status = item.querySelector(".status");
    const body = new URLSearchParams(fields || new FormData(form));
    body.set("csrf", csrf);
    const r = await fetch(form.action, {
      method: "POST", headers: { "X-CSRF-Token": csrf, Accept: "application/json" }, body: body,
    });
    const answer = await r.json();
    if (!r.ok) {
      status.textContent = answer.error || "error";
      status.className = "status error";
      return false;
    }
    status.className = "status";
    status.textContent = answer.undone !== undefined ? (answer.undone ? "undone" : "nothing to undo") : "corrected: " + answer.intent + " " + answer.objects;
    item.classList.toggle("done", answer.undone === undefined);
    return true;
  }

  items.forEach((item, i) => {
    item.querySelector("form.relabel").addEventListener("submit", async (event) => {
      event.preventDefault();
      if (await save(item)) select(i + 1);
    });
    item.addEventListener("focusin", () => { current = i; items.forEach((el, k) => el.classList.toggle("current", k === i)); });
  });

  document.addEventListener("keydown", async (event) => {
    if (!items.length) return;
    const item = items[current];
    const inField = event.target.matches("input, select, textarea");
    if (inField) {
      if (event.key === "Escape") { event.target.blur(); item.focus(); }
      return; // Enter in a field submits its form
    }
    if (event.metaKey || event.ctrlKey || event.altKey) return;
    const key = event.key;
    if (key === "j") select(current + 1);
    else if (key === "k") select(current - 1);
    else if (key === "i") { event.preventDefault(); const f = item.querySelector("input.intent"); f.focus(); f.select(); }
    else if (key === "o") { event.preventDefault(); const f = item.querySelector("input.objects"); f.focus(); f.select(); }
    else if (key === "a") {
      if (await save(item, { intent: item.dataset.intent, objects: item.dataset.objects, note: "accepted as logged" })) select(current + 1);
    } else if (key === "u") await save(item, { undo: "1" });
    else return;
    event.preventDefault();
  });
  select(0);
})();
