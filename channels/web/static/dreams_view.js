// The Dreams view: the dreaming state, each phase's last result, the timeline, the diary,
// and the backfill lane (its button removes only the backfill-staged candidates).
import { $, api, el, ofChat, showError, state } from "./dom.js";
import { formatDateTime, join, t } from "./i18n.js";
import { renderMarkdown } from "./markdown.js";
import { showSource } from "./memory_views.js";
import { CHANGES, drawTimeline } from "./timeline.js";

const PHASES = [
  ["light", ["candidates", "staged"]],
  ["rem", ["themes", "truths"]],
  ["deep", ["ranked", "promoted"]],
];

const md = (text) => renderMarkdown(text, { headingOffset: 2, onSource: showSource });

function phaseRows(phases) {
  const rows = $("dreams-phases").querySelector("tbody");
  rows.replaceChildren();
  for (const [key, counts] of PHASES) {
    const last = phases[key];
    const row = el("tr");
    row.dataset.phase = key;
    row.appendChild(el("td", t(`console.phase_${key}`)));
    const said = last ? join(counts.map((c) => t(`console.n_${c}`, { n: last[c] || 0 }))) : null;
    row.appendChild(el("td", said || t("console.not_run")));
    row.appendChild(el("td", last ? formatDateTime(last.time) : ""));
    rows.appendChild(row);
  }
}

function timeline(data) {
  const box = $("dreams-timeline");
  box.replaceChildren();
  if (!data.dreams.length) {
    box.appendChild(el("p", t("console.tl_empty"), "empty"));
    return;
  }
  const scroller = box.appendChild(el("div", undefined, "timeline-scroll"));
  scroller.appendChild(drawTimeline(data, scroller.clientWidth));
  scroller.scrollLeft = scroller.scrollWidth;  // the newest dreams first in view
  const legend = box.appendChild(el("ul", undefined, "legend"));
  legend.appendChild(el("li", t("console.tl_items_line"), "items"));
  for (const name of CHANGES) legend.appendChild(el("li", t(`console.tl_${name}`), name));
  const known = data.dreams.filter((d) => d.tokens !== null);
  if (known.length) {
    const last = known[known.length - 1].tokens;
    legend.appendChild(el("li", data.budget
      ? t("console.tl_tokens_of", { tokens: last, budget: data.budget })
      : t("console.tl_tokens", { tokens: last }), "tokens"));
  }
}

export async function loadDreams() {
  const status = $("dreams-state");
  try {
    const info = await api(ofChat("/api/dreams"));
    status.textContent = info.enabled
      ? t("console.dreams_on", { when: formatDateTime(info.next_run), zone: info.timezone })
      : t("console.dreams_off");
    phaseRows(info.phases);
    const short = info.short_term;
    $("dreams-counts").textContent = t("console.dreams_counts", {
      staged: short.staged || 0, promoted: short.promoted || 0,
      light: info.signals.light || 0, rem: info.signals.rem || 0, today: info.promoted_today });
    timeline(info.timeline);
    const diary = $("dreams-diary");
    diary.replaceChildren();
    if (!info.diary.length) diary.appendChild(el("p", t("console.no_dreams"), "empty"));
    for (const entry of info.diary) {
      const box = md(entry.text);
      box.classList.add("rendered");
      box.prepend(el("small", formatDateTime(entry.date)));
      diary.appendChild(box);
    }
    backfill(info.backfill);
  } catch (error) { showError(status, error); }
}

function backfill(data) {
  const staged = $("backfill-candidates");
  staged.replaceChildren();
  for (const c of data.candidates) {
    staged.appendChild(el("li", t("console.backfill_candidate", {
      text: c.text, refs: join(c.refs), status: c.status })));
  }
  const replayed = $("backfill-diary");
  replayed.replaceChildren();
  for (const entry of data.entries) replayed.appendChild(md(entry.text));
  if (!data.candidates.length && !data.entries.length) {
    staged.appendChild(el("li", t("console.no_backfill"), "empty"));
  }
  const button = $("backfill-remove");
  button.disabled = state.chat !== "" || !data.candidates.length;
  button.title = state.chat !== "" ? t("console.read_only_action") : "";
}

$("backfill-remove").addEventListener("click", async () => {
  const result = $("backfill-result");
  $("backfill-remove").disabled = true;
  try {
    const body = await api("/api/dreams/backfill/remove", { method: "POST", body: "{}" });
    result.textContent = t("console.backfill_removed", { n: body.removed_candidates });
  } catch (error) {
    result.textContent = t("console.error", { error: error.message });
  }
  loadDreams();
});
