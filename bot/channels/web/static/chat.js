// The participant's chat without page reloads: posts with fetch, appends bubbles with textContent
// (never innerHTML: every text stays text). Without JavaScript the forms post and redirect.
(function () {
  "use strict";
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const chat = document.getElementById("chat");
  if (!chat) return;
  const pid = chat.dataset.pid;
  const list = document.getElementById("messages");
  const choices = document.getElementById("choices");
  const sendForm = document.getElementById("send");
  const input = document.getElementById("text");
  const progress = document.getElementById("progress");
  const finish = document.getElementById("finish");
  let busy = false;

  function bubble(kind, text, image) {
    const li = document.createElement("li");
    li.className = "msg " + kind;
    if (image && /^https?:\/\//.test(image)) {
      const img = document.createElement("img");
      img.className = "card-image";
      img.alt = "picture of the item";
      img.addEventListener("error", () => img.remove());
      img.src = image;
      li.appendChild(img);
    }
    const span = document.createElement("span");
    span.className = "text";
    span.textContent = text;
    li.appendChild(span);
    list.appendChild(li);
    li.scrollIntoView({ block: "end" });
    return li;
  }

  function setChoices(items) {
    choices.querySelectorAll("button.choice").forEach((b) => b.remove());
    for (const c of items) {
      const b = document.createElement("button");
      b.type = "submit";
      b.name = "payload";
      b.value = c.payload;
      b.className = "choice";
      b.textContent = c.label;
      choices.appendChild(b);
    }
  }

  function setBusy(on) {
    document.body.classList.toggle("busy", on);
    input.disabled = on;
    choices.querySelectorAll("button").forEach((b) => (b.disabled = on));
  }

  function showProgress(reply) {
    const min = Number(progress.dataset.min || 0);
    progress.textContent = reply.typed + (min && reply.typed < min ? " / " + min : "") + " messages";
    if (reply.can_finish && finish) finish.hidden = false;
  }

  async function post(fields, shown) {
    if (busy) return;
    busy = true;
    setBusy(true);
    bubble("user", shown);
    const typing = bubble("bot typing", "…");
    try {
      const body = new URLSearchParams(fields);
      body.set("csrf", csrf);
      body.set("pid", pid);
      const r = await fetch("/chat/send", {
        method: "POST",
        headers: { Accept: "application/json", "X-CSRF-Token": csrf },
        body: body,
        credentials: "same-origin",
      });
      typing.remove();
      if (!r.ok) {
        let said = null;  // the server's readable message ({"error": ...}), when it sent one
        try { said = (await r.json()).error; } catch (e) { said = null; }
        bubble("bot error", typeof said === "string" && said ? said
          : r.status === 429 ? "You are going a bit fast: wait a moment and send it again."
          : "That did not work (" + r.status + "); please try again.");
        return;
      }
      const reply = await r.json();
      if (reply.reply) {
        bubble("bot", reply.reply.text, reply.reply.image);
        setChoices(reply.reply.choices);
      }
      showProgress(reply);
    } catch (e) {
      typing.remove();
      bubble("bot error", "The connection failed; please send it again.");
    } finally {
      busy = false;
      setBusy(false);
      input.focus();
    }
  }

  sendForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    input.value = "";
    post({ text: text }, text);
  });

  choices.addEventListener("click", (event) => {
    const button = event.target.closest("button.choice");
    if (!button) return;
    event.preventDefault();
    post({ payload: button.value }, button.textContent);
  });

  const feedback = document.getElementById("feedback");
  if (feedback) {
    feedback.addEventListener("click", async (event) => {
      const button = event.target.closest("button");
      if (!button) return;
      event.preventDefault();
      const body = new URLSearchParams({ csrf: csrf, pid: pid, value: button.value });
      const r = await fetch("/chat/feedback", { method: "POST", headers: { Accept: "application/json" }, body: body });
      if (r.ok) {
        feedback.hidden = true;
        document.getElementById("feedback-thanks").hidden = false;
      }
    });
  }
  // a picture that cannot be loaded (offline, gone) is left out rather than shown broken
  document.querySelectorAll("img.card-image").forEach((img) => {
    if (img.complete && img.naturalWidth === 0) img.remove();
    else img.addEventListener("error", () => img.remove());
  });
  const end = document.getElementById("end");
  if (end) end.scrollIntoView({ block: "end" });
})();
