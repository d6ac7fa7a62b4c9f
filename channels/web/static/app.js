// CowDream console: plain JavaScript modules, no build step, no other origin. Talks to
// /api/* on the same origin. Each view has its own URL (#/memory, #/notes/2026-12-01,
// #/diary, #/dreams, #/search?q=tea; ?chat=KEY shows another chat's memory), so a view
// can be bookmarked and reloaded.
import { $, api, el, href, ofChat, state } from "./dom.js";
import * as i18n from "./i18n.js";
import { formatDateTime, t } from "./i18n.js";
import { loadDreams } from "./dreams_view.js";
import { renderMarkdown } from "./markdown.js";
import {
  loadArchive, loadDiary, loadIndex, loadMemory, loadNotes, runSearch, showSource,
} from "./memory_views.js";

const VIEWS = ["chat", "memory", "notes", "archive", "diary", "dreams", "search"];
let lastMessage = 0;
let route = { view: "chat", arg: "", params: new URLSearchParams() };

// routing --------------------------------------------------------------------------------
function parse(hash) {
  const [path, query] = hash.replace(/^#\/?/, "").split("?");
  const [view, ...rest] = path.split("/");
  return {
    view: VIEWS.includes(view) ? view : "chat",
    arg: decodeURIComponent(rest.join("/")),
    params: new URLSearchParams(query || ""),
  };
}

function show() {
  route = parse(location.hash);
  const chat = route.params.get("chat") || "";
  if (chat !== state.chat) setChat(chat);
  for (const tab of document.querySelectorAll("nav a[data-tab]")) {
    const active = tab.dataset.tab === route.view;
    tab.classList.toggle("active", active);
    tab.setAttribute("aria-selected", String(active));
    tab.href = href(tab.dataset.tab);
  }
  for (const view of VIEWS) $(`tab-${view}`).classList.toggle("active", view === route.view);
  $("source-view").hidden = true;
  const load = {
    memory: () => loadMemory(),
    notes: () => loadNotes(route.arg),
    archive: () => loadArchive(),
    diary: () => loadDiary(),
    dreams: () => loadDreams(),
    search: () => { runSearch(route.params.get("q") || ""); loadIndex(); },
  }[route.view];
  if (load) load();
}

window.addEventListener("hashchange", show);

// whose memory ---------------------------------------------------------------------------
function setChat(key) {
  state.chat = key;
  const picker = $("chat-picker");
  if ([...picker.options].some((o) => o.value === key)) picker.value = key;
  const banner = $("read-only");
  banner.hidden = key === "";
  const title = picker.selectedOptions[0] ? picker.selectedOptions[0].textContent : key;
  banner.textContent = key ? t("console.read_only", { chat: title }) : "";
  loadDreaming();
}

$("chat-picker").addEventListener("change", () => {
  const search = route.view === "search";
  location.hash = href(route.view, search ? "" : route.arg,
    search ? { q: route.params.get("q") || "" } : {}, $("chat-picker").value);
});

async function loadChats() {
  try {
    const body = await api("/api/chats");
    const picker = $("chat-picker");
    for (const item of body.chats) {
      const label = item.title ? `${item.title} (${item.key})` : item.key;
      picker.appendChild(Object.assign(el("option", label), { value: item.key }));
    }
  } catch (error) { /* the owner's memory still shows */ }
}

// chat ---------------------------------------------------------------------------------------
function say(text, who, time) {
  const log = $("chat-log");
  const message = el("div", undefined, `msg ${who}`);
  if (who === "user") message.appendChild(el("div", text, "text"));
  else message.appendChild(renderMarkdown(text, { headingOffset: 2, onSource: showSource }));
  if (time) message.appendChild(el("time", formatDateTime(time)));
  log.appendChild(message);
  log.scrollTop = log.scrollHeight;
  return message;
}

function pending(label) {
  const message = el("div", undefined, "msg pending");
  message.setAttribute("role", "status");
  message.append(el("span", undefined, "spinner"), el("span", label));
  $("chat-log").appendChild(message);
  $("chat-log").scrollTop = $("chat-log").scrollHeight;
  return message;
}

$("chat-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = $("chat-input");
  const text = input.value.trim();
  if (!text || $("chat-send").disabled) return;
  input.value = "";
  say(text, "user");
  $("chat-send").disabled = true;
  const waiting = pending(t("console.thinking"));
  try {
    const body = await api("/api/chat", { method: "POST",
      body: JSON.stringify({ text, language: i18n.code() }) });
    waiting.remove();
    body.replies.forEach((reply) => say(reply, "bot"));
  } catch (error) {
    waiting.remove();
    say(t("console.error", { error: error.message }), "notice");
  } finally {
    $("chat-send").disabled = false;
    input.focus();
  }
  loadDreaming();
});

// The conversation is kept by the bot: show it again after a reload.
async function loadHistory() {
  try {
    const body = await api("/api/history");
    $("chat-log").replaceChildren();
    for (const turn of body.turns) say(turn.text, turn.role === "user" ? "user" : "bot", turn.time);
  } catch (error) { /* a new conversation */ }
}

async function poll() {
  try {
    const body = await api(`/api/messages?after=${lastMessage}`);
    for (const message of body.messages) {
      lastMessage = Math.max(lastMessage, message.id);
      say(message.text, "notice");
      loadDreaming();
      if (route.view === "dreams") loadDreams();  // a dream report: the view follows
    }
  } catch (error) { /* the next poll retries */ }
}

// dreaming -------------------------------------------------------------------------------------
let dreamingTimer = null;
let wasRunning = false;

function lastResult(info) {
  const last = info.last_dream;
  if (!last) return t("console.never");
  return t("console.last_result", { status: t(`result.status.${last.status}`),
    when: formatDateTime(last.at) });
}

async function loadDreaming() {
  clearTimeout(dreamingTimer);
  const line = $("dream-state");
  try {
    const info = await api(ofChat("/api/dreaming"));
    const next = info.enabled ? t("console.next_run", { when: formatDateTime(info.next_run) })
      : t("console.nightly_off");
    line.textContent = [
      next,
      lastResult(info),
      t("console.count_item", { n: info.counts.items }),
      t("console.count_archived", { n: info.counts.archive_items }),
      t("console.count_note", { n: info.counts.notes }),
    ].join(" · ");
    setRunning(info.running);
    if (wasRunning && !info.running && route.view === "dreams") loadDreams();
    wasRunning = info.running;
  } catch (error) {
    line.textContent = t("console.status_unavailable", { error: error.message });
    setRunning(false);
  }
  dreamingTimer = setTimeout(loadDreaming, wasRunning ? 1000 : 5000);  // a nightly dream shows soon
}

function setRunning(running) {
  const button = $("run-dream");
  button.classList.toggle("running", running);
  $("run-dream-label").textContent = running ? t("console.dreaming_now") : t("console.run_dream");
  const readOnly = state.chat !== "";
  button.disabled = running || readOnly;
  button.title = readOnly ? t("console.read_only_action") : running ? t("console.dreaming_now") : "";
}

$("run-dream").addEventListener("click", async () => {
  const raw = $("dream-days").value.trim();
  const days = raw === "" ? undefined : Number(raw);  // 0 or 99 are refused by the server
  setRunning(true);
  try {
    const body = await api("/api/dream", { method: "POST",
      body: JSON.stringify({ days, language: i18n.code() }) });
    body.replies.forEach((reply) => say(reply, "notice"));
  } catch (error) {
    say(t("console.error", { error: error.message }), "notice");
  }
  loadDreaming();
});

// search ---------------------------------------------------------------------------------------
$("search-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const query = $("search-input").value.trim();
  const target = href("search", "", query ? { q: query } : {});
  if (location.hash === target) runSearch(query);
  else location.hash = target;
});

// language -------------------------------------------------------------------------------------
function languagePicker() {
  const picker = $("language-picker");
  picker.replaceChildren();
  for (const language of i18n.available()) {
    picker.appendChild(Object.assign(el("option", language.name), { value: language.code }));
  }
  picker.value = i18n.code();
}

$("language-picker").addEventListener("change", async () => {
  await i18n.load($("language-picker").value);
  languagePicker();
  setChat(state.chat);
  await loadHistory();
  show();
});

async function start() {
  try {
    await i18n.load();
  } catch (error) { /* the page's own English stays */ }
  languagePicker();
  route = parse(location.hash);
  state.chat = route.params.get("chat") || "";
  await loadChats();
  setChat(state.chat);
  show();
  loadHistory();
  setInterval(poll, 1000);
  document.body.classList.add("ready");
}

start();
