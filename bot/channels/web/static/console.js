// The console's live figures (refreshed every 2 s) and the retraining / promotion buttons.
(function () {
  "use strict";
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const shares = new Set(["like", "dislike", "skip", "fallbacks", "questions_per_turn"]);

  async function refresh() {
    try {
      const r = await fetch("/console/api/figures", { credentials: "same-origin" });
      if (!r.ok) return;
      const data = await r.json();
      for (const [key, value] of Object.entries(data.figures)) {
        const el = document.getElementById("fig-" + key);
        if (el) el.textContent = shares.has(key) ? Number(value).toFixed(3) : String(value);
      }
    } catch (e) { /* the next refresh tries again */ }
  }
  setInterval(refresh, 2000);

  const state = document.getElementById("retrain-state");
  const tail = document.getElementById("retrain-tail");
  async function poll() {
    const r = await fetch("/console/api/retrain", { credentials: "same-origin" });
    if (!r.ok) return;
    const s = await r.json();
    state.textContent = s.state + (s.reloading ? " (dialog workers restarting)" : "");
    tail.textContent = s.tail;
    document.getElementById("model-live").textContent = s.models.live;
    document.getElementById("model-candidate").textContent = s.models.candidate || "none";
    if (s.state === "running" || s.reloading) setTimeout(poll, 1000);
  }

  async function post(url) {
    const body = new URLSearchParams({ csrf: csrf });
    return fetch(url, { method: "POST", headers: { "X-CSRF-Token": csrf, Accept: "application/json" }, body: body });
  }

  const retrain = document.getElementById("retrain-button");
  if (retrain) retrain.addEventListener("click", async () => {
    const r = await post("/console/retrain");
    state.textContent = r.ok ? "running" : "already running";
    setTimeout(poll, 500);
  });
  const promote = document.getElementById("promote-button");
  if (promote) promote.addEventListener("click", async () => {
    if (!window.confirm("Make the candidate model live?")) return;
    const r = await post("/console/promote");
    const s = await r.json();
    state.textContent = r.ok ? "promoted: was " + s.previous + "; now " + s.live : (s.error || "failed");
    setTimeout(poll, 500);
  });
})();
