// The read-only memory views: MEMORY.md by section, daily notes, the archive, the diary,
// search, and the source panel every reference opens (only memory files: the server
// refuses anything else).
import { $, api, el, href, loading, ofChat, showError, state } from "./dom.js";
import { formatDate, t } from "./i18n.js";
import { renderInline, renderMarkdown, sourceLink } from "./markdown.js";

// source panel ---------------------------------------------------------------------
export async function showSource(ref) {
  const panel = $("source-view");
  const lines = $("source-lines");
  panel.hidden = false;
  $("source-title").textContent = ref;
  await loading(lines, t("console.loading"), async () => {
    const body = await api(ofChat(`/api/source?ref=${encodeURIComponent(ref)}`));
    lines.replaceChildren();
    if (!body.exists) lines.appendChild(el("p", t("console.source_gone"), "error"));
    body.lines.forEach((line, i) => {
      const row = el("div", undefined, "line");
      row.append(el("span", String(body.start + i), "number"), el("span", line));
      lines.appendChild(row);
    });
  });
}

$("source-close").addEventListener("click", () => { $("source-view").hidden = true; });

function sources(list) {
  const span = el("span", undefined, "sources");
  for (const source of list) span.appendChild(sourceLink(source.ref, showSource));
  return span;
}

const md = (text, headingOffset = 1) => renderMarkdown(text, { headingOffset, onSource: showSource });

// memory -----------------------------------------------------------------------------
export async function loadMemory() {
  const box = $("memory-items");
  loadPeople().catch((error) => showError($("people"), error));
  loadConflicts().catch((error) => showError($("conflicts"), error));
  await loading(box, t("console.loading"), async () => {
    const body = await api(ofChat("/api/memory"));
    box.replaceChildren();
    if (!body.items.length) box.appendChild(el("p", t("console.memory_empty"), "empty"));
    const groups = new Map();
    for (const item of body.items) {
      const name = item.section || "";
      if (!groups.has(name)) groups.set(name, []);
      groups.get(name).push(item);
    }
    for (const [name, items] of groups) {
      const group = el("details", undefined, "section");
      group.open = true;
      const summary = el("summary");
      summary.append(el("span", name || t("console.no_section")),
        el("span", t("console.count_item", { n: items.length }), "count"));
      group.appendChild(summary);
      const list = group.appendChild(el("ul"));
      for (const item of items) {
        const text = item.conflict ? item.text.replace(/\s*\[open conflict [^\]]*\]\s*$/, "") : item.text;
        const li = renderInline(el("li"), text, showSource);
        if (item.conflict) li.append(" ", el("span", t("console.in_conflict"), "count open"));
        li.append(" ");
        li.appendChild(item.sources.length ? sources(item.sources) : el("small", t("console.handwritten"), "hand"));
        list.appendChild(li);
      }
      box.appendChild(group);
    }
  });
}

// open conflicts (two current statements the notes do not decide between) -------------
export async function loadConflicts() {
  const box = $("conflicts");
  const body = await api(ofChat("/api/conflicts"));
  box.replaceChildren();
  if (!body.conflicts.length) return;
  box.appendChild(el("h3", t("console.conflicts", { n: body.conflicts.length })));
  const readOnly = state.chat !== "";
  for (const conflict of body.conflicts) {
    const card = box.appendChild(el("div", undefined, "conflict-card"));
    card.dataset.id = conflict.id;
    for (const side of conflict.sides) {
      const row = card.appendChild(el("div", undefined, "side"));
      renderInline(row.appendChild(el("span", undefined, "text")), side.text, showSource);
      row.append(" ", sources(side.sources.map((ref) => ({ ref }))));
      const keep = row.appendChild(resolveButton(t("console.keep_this"), readOnly));
      keep.dataset.side = String(side.side);
      keep.addEventListener("click", () => resolve(card, { id: conflict.id, action: "keep", side: side.side }));
    }
    const both = card.appendChild(resolveButton(t("console.keep_both"), readOnly));
    both.addEventListener("click", () => resolve(card, { id: conflict.id, action: "both" }));
  }
}

function resolveButton(label, readOnly) {
  const button = el("button", label, "resolve");
  button.type = "button";
  button.disabled = readOnly;
  if (readOnly) button.title = t("console.read_only_action");
  return button;
}

async function resolve(card, body) {
  for (const button of card.querySelectorAll("button")) button.disabled = true;
  try {
    const done = await api("/api/conflicts/resolve", { method: "POST", body: JSON.stringify(body) });
    $("conflict-result").textContent = done.message;
  } catch (error) {
    $("conflict-result").textContent = t("console.error", { error: error.message });
  }
  loadMemory();
}

// people (a group's members: their cards, open conflicts, the ledger's patterns) ---------
export async function loadPeople() {
  const box = $("people");
  box.replaceChildren();
  const body = await api(ofChat("/api/people"));
  if (!body.people.length) return;
  box.appendChild(el("h3", t("console.people")));
  const few = body.people.length <= 6;  // a few cards open; many start folded
  for (const person of body.people) box.appendChild(personCard(person, few));
}

function personCard(person, open) {
  const card = el("details", undefined, "section person");
  card.open = open;
  card.dataset.id = person.id;
  const summary = card.appendChild(el("summary"));
  summary.append(el("span", person.name),
    el("span", t("console.count_item", { n: person.card.length }), "count"));
  if (person.open) summary.appendChild(el("span", t("console.open_conflicts", { n: person.open }), "count open"));
  if (person.unreadable) card.appendChild(el("p", t("console.person_unreadable"), "error"));
  const list = card.appendChild(el("ul"));
  for (const line of person.card) {
    const li = renderInline(el("li"), line.text, showSource);
    li.append(" ", sources(line.sources.map((ref) => ({ ref }))));
    for (const other of line.open) {
      const open = li.appendChild(el("div", undefined, "conflict"));
      open.append(el("strong", t("console.open_conflict")), " ");
      renderInline(open, other.text, showSource);
      open.append(" ", sources(other.sources.map((ref) => ({ ref }))));
    }
    list.appendChild(li);
  }
  if (person.inductions.length) {
    card.appendChild(el("p", t("console.patterns"), "why"));
    const patterns = card.appendChild(el("ul", undefined, "patterns"));
    for (const p of person.inductions) {
      patterns.appendChild(el("li", t("console.pattern", { text: p.text,
        confidence: Math.round(p.confidence * 100) })));
    }
  }
  card.appendChild(el("small", t("console.person_counts",
    { observations: person.observations, archived: person.archived }), "why"));
  return card;
}

// daily notes --------------------------------------------------------------------------
export async function loadNotes(day) {
  const list = $("note-dates");
  try {
    const body = await api(ofChat("/api/notes"));
    list.replaceChildren();
    if (!body.dates.length) list.appendChild(el("li", t("console.no_notes"), "empty"));
    for (const date of body.dates) {
      const link = el("a", formatDate(date));
      link.href = href("notes", date);
      link.dataset.date = date;
      if (date === day) link.className = "current";
      list.appendChild(el("li")).appendChild(link);
    }
  } catch (error) { showError(list, error); }
  const text = $("note-text");
  if (!day) { text.replaceChildren(); return; }
  await loading(text, t("console.loading"), async () => {
    const note = await api(ofChat(`/api/notes/${encodeURIComponent(day)}`));
    text.replaceChildren(md(note.text, 1));
  });
}

// archive ----------------------------------------------------------------------------------
export async function loadArchive() {
  const list = $("archive-items");
  await loading(list, t("console.loading"), async () => {
    const body = await api(ofChat("/api/archive"));
    list.replaceChildren();
    if (!body.items.length) list.appendChild(el("li", t("console.archive_empty"), "empty"));
    for (const item of body.items) {
      const li = renderInline(el("li"), item.text, showSource);
      const why = t("console.archived_why", {
        reason: item.reason || t("console.archived"), date: formatDate(item.archived) });
      li.append(" ", el("small", why, "why"), " ", sources(item.sources));
      list.appendChild(li);
    }
  });
}

// diary ------------------------------------------------------------------------------------
// A diary file without its own "# Dream Diary: DATE" title: the entry's heading says it.
export function diaryBody(text) { return text.replace(/^# [^\n]*\n/, ""); }

export async function loadDiary() {
  const box = $("diary-entries");
  await loading(box, t("console.loading"), async () => {
    const body = await api(ofChat("/api/diary"));
    box.replaceChildren();
    if (!body.entries.length) box.appendChild(el("p", t("console.no_dreams"), "empty"));
    for (const entry of body.entries) {
      const article = el("article", undefined, "diary-entry");
      const title = article.appendChild(el("h3", formatDate(entry.date)));
      title.dataset.date = entry.date;
      article.appendChild(md(diaryBody(entry.text), 2));
      box.appendChild(article);
    }
  });
}

// search -----------------------------------------------------------------------------------
const SOURCE_KEYS = { keyword: "console.src_keyword", vector: "console.src_vector",
  hybrid: "console.src_both" };

export async function runSearch(query) {
  const list = $("search-hits");
  $("search-input").value = query;
  if (!query) { list.replaceChildren(); return; }
  const button = $("search-button");
  button.disabled = true;
  await loading(list, t("console.searching"), async () => {
    try {
      const body = await api(ofChat(`/api/search?q=${encodeURIComponent(query)}`));
      list.replaceChildren();
      if (!body.hits.length) list.appendChild(el("li", t("console.no_hits"), "empty"));
      for (const hit of body.hits) list.appendChild(searchHit(hit));
    } finally { button.disabled = false; }
  });
  loadIndex();
}

function searchHit(hit) {
  const ref = hit.start_line === hit.end_line
    ? `${hit.path}#L${hit.start_line}` : `${hit.path}#L${hit.start_line}-L${hit.end_line}`;
  const li = el("li", undefined, "hit");
  const head = li.appendChild(el("div", undefined, "hit-head"));
  head.append(sourceLink(ref, showSource),
    el("span", t(SOURCE_KEYS[hit.source] || "console.src_keyword"), `badge ${hit.source}`),
    el("span", hit.score.toFixed(2), "score"));
  head.lastChild.title = t("console.score");
  const snippet = li.appendChild(el("div", undefined, "snippet"));
  snippet.appendChild(renderInline(el("span"), hit.snippet.replace(/<!--[\s\S]*?-->/g, ""), showSource));
  li.addEventListener("click", (event) => {
    if (event.target.closest("a")) return;
    showSource(ref);
  });
  return li;
}

// The index's state under the search box: chunks, and vectors still being computed.
let indexTimer = null;
export async function loadIndex() {
  const line = $("index-state");
  clearTimeout(indexTimer);
  try {
    const info = await api(ofChat("/api/index"));
    line.classList.toggle("working", info.pending > 0);
    if (info.pending > 0) {
      line.textContent = t("console.indexing", { n: info.pending, chunks: info.chunks });
      indexTimer = setTimeout(loadIndex, 1500);
    } else if (info.state !== "ready") {
      line.textContent = t("console.index_keyword", { chunks: info.chunks, files: info.files });
    } else {
      line.textContent = t("console.index_ready", { chunks: info.chunks, files: info.files });
    }
  } catch (error) { line.textContent = t("console.error", { error: error.message }); }
}

