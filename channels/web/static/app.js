"use strict";
// CowDream console: plain JavaScript, no build step. Talks to /api/* on the same origin.

const $ = (id) => document.getElementById(id);
let lastMessage = 0;
let chat = "";  // "" is the owner; otherwise the key of the chat whose memory is shown

// The read-only views take ?chat=KEY; chatting and dreaming stay the owner's.
function ofChat(path) {
  if (!chat) return path;
  return `${path}${path.includes("?") ? "&" : "?"}chat=${encodeURIComponent(chat)}`;
}

async function api(path, options = {}) {
  const response = await fetch(path, {
    headers: { "Content-Type": "application/json" },
    credentials: "same-origin",
    ...options,
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.detail || response.statusText);
  return body;
}

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function say(text, who) {
  const log = $("chat-log");
  log.appendChild(el("div", text, `msg ${who}`));
  log.scrollTop = log.scrollHeight;
}

function showError(container, error) {
  container.replaceChildren(el("p", String(error.message || error), "error"));
}

// tabs ------------------------------------------------------------------------------
const loaders = {
  memory: loadMemory, notes: loadNotes, archive: loadArchive, diary: loadDiary,
  dreams: loadDreams,
};
document.querySelectorAll("nav button").forEach((button) => {
  button.addEventListener("click", () => {
    document.querySelectorAll("nav button").forEach((b) => b.classList.remove("active"));
    document.querySelectorAll(".tab").forEach((t) => t.classList.remove("active"));
    button.classList.add("active");
    $(`tab-${button.dataset.tab}`).classList.add("active");
    const load = loaders[button.dataset.tab];
    if (load) load();
  });
});

// chat ------------------------------------------------------------------------------
$("chat-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = $("chat-input").value.trim();
  if (!text) return;
  $("chat-input").value = "";
  say(text, "user");
  try {
    const body = await api("/api/chat", { method: "POST", body: JSON.stringify({ text }) });
    body.replies.forEach((reply) => say(reply, "bot"));
  } catch (error) {
    say(`Error: ${error.message}`, "notice");
  }
  loadDreaming();
});

// The conversation is kept by the bot: show it again after a reload.
async function loadHistory() {
  try {
    const body = await api("/api/history");
    for (const turn of body.turns) say(turn.text, turn.role === "user" ? "user" : "bot");
  } catch (error) { /* a new conversation */ }
}

async function poll() {
  try {
    const body = await api(`/api/messages?after=${lastMessage}`);
    for (const message of body.messages) {
      lastMessage = Math.max(lastMessage, message.id);
      say(message.text, "notice");
      loadDreaming();
      // a dream report: the Dreams tab, when shown, follows
      if ($("tab-dreams").classList.contains("active")) loadDreams();
    }
  } catch (error) { /* the next poll retries */ }
}

// memory ----------------------------------------------------------------------------
function sourceLinks(sources) {
  const span = el("span", undefined, "sources");
  for (const source of sources) {
    const link = el("a", source.ref);
    link.href = "#";
    link.addEventListener("click", (event) => { event.preventDefault(); showSource(source.ref); });
    span.appendChild(link);
  }
  return span;
}

async function showSource(ref) {
  const view = $("source-view");
  view.hidden = false;
  try {
    const body = await api(ofChat(`/api/source?ref=${encodeURIComponent(ref)}`));
    const numbered = body.lines.map((line, i) => `${body.start + i}: ${line}`);
    view.textContent = `${body.ref}\n${numbered.join("\n")}`;
  } catch (error) {
    view.textContent = `${ref}: ${error.message}`;
  }
}

async function loadMemory() {
  const list = $("memory-items");
  try {
    const body = await api(ofChat("/api/memory"));
    list.replaceChildren();
    if (!body.items.length) list.appendChild(el("li", "MEMORY.md is empty."));
    for (const item of body.items) {
      const li = el("li");
      if (item.section) li.appendChild(el("em", `${item.section}: `));
      li.appendChild(el("span", item.text + " "));
      li.appendChild(item.sources.length ? sourceLinks(item.sources) : el("small", "(hand-written)"));
      list.appendChild(li);
    }
  } catch (error) { showError(list, error); }
}

async function loadNotes() {
  const list = $("note-dates");
  try {
    const body = await api(ofChat("/api/notes"));
    list.replaceChildren();
    if (!body.dates.length) list.appendChild(el("li", "No daily notes yet."));
    for (const day of body.dates) {
      const link = el("a", day);
      link.href = "#";
      link.addEventListener("click", async (event) => {
        event.preventDefault();
        const note = await api(ofChat(`/api/notes/${day}`));
        $("note-text").textContent = note.text;
      });
      const li = el("li");
      li.appendChild(link);
      list.appendChild(li);
    }
  } catch (error) { showError(list, error); }
}

async function loadArchive() {
  const list = $("archive-items");
  try {
    const body = await api(ofChat("/api/archive"));
    list.replaceChildren();
    if (!body.items.length) list.appendChild(el("li", "The archive is empty."));
    for (const item of body.items) {
      const li = el("li", `${item.text} — ${item.reason || "archived"} (${item.archived}) `);
      li.appendChild(sourceLinks(item.sources));
      list.appendChild(li);
    }
  } catch (error) { showError(list, error); }
}

async function loadDiary() {
  const box = $("diary-entries");
  try {
    const body = await api(ofChat("/api/diary"));
    box.replaceChildren();
    if (!body.entries.length) box.appendChild(el("p", "No dreams yet."));
    for (const entry of body.entries) {
      const article = el("article", undefined, "diary-entry");
      article.appendChild(el("h3", entry.date));
      article.appendChild(el("pre", entry.text));
      box.appendChild(article);
    }
  } catch (error) { showError(box, error); }
}

// dreaming --------------------------------------------------------------------------
async function loadDreaming() {
  try {
    const info = await api(ofChat("/api/dreaming"));
    const last = info.last_dream ? `${info.last_dream.status} at ${info.last_dream.at}` : "never";
    const next = info.enabled ? `next run ${info.next_run}` : "nightly dreaming off";
    const running = info.running ? " · dreaming now…" : "";
    $("dream-state").textContent =
      `${next} · last: ${last} · ${info.counts.items} items, ` +
      `${info.counts.archive_items} archived, ${info.counts.notes} notes${running}`;
  } catch (error) {
    $("dream-state").textContent = `status unavailable: ${error.message}`;
  }
}

$("run-dream").addEventListener("click", async () => {
  const raw = $("dream-days").value.trim();
  const days = raw === "" ? undefined : Number(raw);  // 0 or 99 are refused by the server
  try {
    const body = await api("/api/dream", { method: "POST", body: JSON.stringify({ days }) });
    body.replies.forEach((reply) => say(reply, "notice"));
  } catch (error) {
    say(`Error: ${error.message}`, "notice");
  }
  loadDreaming();
});

// dreams ----------------------------------------------------------------------------
// A diary section as elements (never as HTML): headings, bullets, nested bullets, text.
function renderMarkdown(text) {
  const box = el("div", undefined, "rendered");
  let list = null;
  let inner = null;
  for (const raw of text.split("\n")) {
    const line = raw.replace(/<!--.*?-->/g, "").trimEnd();
    const heading = line.match(/^(#{2,4})\s+(.*)$/);
    const nested = line.match(/^\s{2,}[-*]\s+(.*)$/);
    const bullet = line.match(/^[-*]\s+(.*)$/);
    if (heading) {
      box.appendChild(el(`h${heading[1].length + 2}`, heading[2]));
      list = null;
    } else if (nested && list) {
      if (!inner) { inner = el("ul"); list.lastChild.appendChild(inner); }
      inner.appendChild(el("li", nested[1]));
    } else if (bullet) {
      if (!list) { list = el("ul"); box.appendChild(list); }
      list.appendChild(el("li", bullet[1]));
      inner = null;
    } else if (line.trim()) {
      box.appendChild(el("p", line));
      list = null;
    }
  }
  return box;
}

const PHASES = [
  ["light", "Light", ["candidates", "staged"]],
  ["rem", "REM", ["themes", "truths"]],
  ["deep", "Deep", ["ranked", "promoted"]],
];

async function loadDreams() {
  const state = $("dreams-state");
  try {
    const info = await api(ofChat("/api/dreams"));
    state.textContent = info.enabled
      ? `Nightly dreaming is on; next run ${info.next_run} (${info.timezone}).`
      : "Nightly dreaming is off for this chat.";
    const rows = $("dreams-phases").querySelector("tbody");
    rows.replaceChildren();
    for (const [key, name, counts] of PHASES) {
      const last = info.phases[key];
      const row = el("tr");
      row.dataset.phase = key;
      row.appendChild(el("td", name));
      row.appendChild(el("td", last ? counts.map((c) => `${last[c]} ${c}`).join(", ") : "not run yet"));
      row.appendChild(el("td", last ? last.time : ""));
      rows.appendChild(row);
    }
    const short = info.short_term;
    $("dreams-counts").textContent =
      `Staged candidates: ${short.staged || 0} · promoted: ${short.promoted || 0} · ` +
      `signals: ${info.signals.light || 0} light, ${info.signals.rem || 0} REM · ` +
      `promoted today: ${info.promoted_today}`;
    const diary = $("dreams-diary");
    diary.replaceChildren();
    if (!info.diary.length) diary.appendChild(el("p", "No dreams yet."));
    for (const entry of info.diary) {
      const box = renderMarkdown(entry.text);
      box.prepend(el("small", entry.date));
      diary.appendChild(box);
    }
    const staged = $("backfill-candidates");
    staged.replaceChildren();
    for (const c of info.backfill.candidates) {
      staged.appendChild(el("li", `${c.text} (${c.refs.join(", ")}; ${c.status})`));
    }
    const replayed = $("backfill-diary");
    replayed.replaceChildren();
    for (const entry of info.backfill.entries) replayed.appendChild(renderMarkdown(entry.text));
    if (!info.backfill.candidates.length && !info.backfill.entries.length) {
      staged.appendChild(el("li", "No backfilled entries."));
    }
    $("backfill-remove").disabled = chat !== "" || !info.backfill.candidates.length;
  } catch (error) { showError(state, error); }
}

$("backfill-remove").addEventListener("click", async () => {
  try {
    const body = await api("/api/dreams/backfill/remove", { method: "POST", body: "{}" });
    $("backfill-result").textContent = `removed ${body.removed_candidates} backfill-staged entries`;
  } catch (error) {
    $("backfill-result").textContent = `Error: ${error.message}`;
  }
  loadDreams();
});

// search ----------------------------------------------------------------------------
$("search-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const list = $("search-hits");
  const query = $("search-input").value.trim();
  if (!query) return;
  try {
    const body = await api(ofChat(`/api/search?q=${encodeURIComponent(query)}`));
    list.replaceChildren();
    if (!body.hits.length) list.appendChild(el("li", "No hits."));
    for (const hit of body.hits) {
      const li = el("li");
      li.appendChild(el("span", hit.score.toFixed(2), "score"));
      li.appendChild(el("code", `${hit.path}#L${hit.start_line}-L${hit.end_line} `));
      li.appendChild(el("span", hit.snippet));
      list.appendChild(li);
    }
  } catch (error) { showError(list, error); }
});

// whose memory -----------------------------------------------------------------------
async function loadChats() {
  try {
    const body = await api("/api/chats");
    for (const item of body.chats) {
      const label = item.title ? `${item.title} (${item.key})` : item.key;
      $("chat-picker").appendChild(Object.assign(el("option", label), { value: item.key }));
    }
  } catch (error) { /* the owner's memory still shows */ }
}

$("chat-picker").addEventListener("change", () => {
  chat = $("chat-picker").value;
  $("run-dream").disabled = chat !== "";  // a chat's own admins dream it from that chat
  $("source-view").hidden = true;
  const active = document.querySelector("nav button.active");
  const load = active && loaders[active.dataset.tab];
  if (load) load();
  loadDreaming();
});

loadChats();
loadHistory();
loadDreaming();
setInterval(poll, 1000);
