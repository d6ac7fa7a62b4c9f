// The dream timeline, drawn as inline SVG from what each dream recorded: per dream a
// stacked bar of what it did (added, merged, superseded, archived, rejected), the items
// MEMORY.md held after it (a line), and underneath MEMORY.md's estimated tokens against
// its budget. Every mark has a <title> with the numbers; no library, no network.
import { formatDate, formatDateTime, formatTime, t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
export const CHANGES = ["added", "merged", "superseded", "archived", "rejected"];
const MIN_COLUMN = 46;
const MAX_COLUMN = 180;
const LEFT = 34;
const RIGHT = 14;
const TOP = 16;
const CHART = 120;  // the counts' panel
const GAP = 34;  // room for the dates between the panels
const TOKENS = 48;  // the tokens' panel

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

function niceMax(value) {
  if (value <= 5) return 5;
  const step = 10 ** Math.floor(Math.log10(value));
  return Math.ceil(value / step) * step;
}

function describe(dream, budget) {
  const lines = [formatDateTime(dream.time)];
  if (dream.status !== "done") lines.push(t("result.status.failed"));
  lines.push(t("console.tl_items", { n: dream.items }));
  for (const name of CHANGES) lines.push(`${t(`console.tl_${name}`)}: ${dream[name]}`);
  if (dream.tokens !== null) {
    lines.push(budget ? t("console.tl_tokens_of", { tokens: dream.tokens, budget })
      : t("console.tl_tokens", { tokens: dream.tokens }));
  }
  return lines.join("\n");
}

// An <svg> for `timeline` ({dreams, budget}), filling `room` pixels when the dreams are
// few, scrolling sideways (in its own box) when they are many.
export function drawTimeline(timeline, room = 0) {
  const dreams = timeline.dreams;
  const budget = timeline.budget;
  const fit = (room - LEFT - RIGHT) / Math.max(1, dreams.length);
  const column = Math.max(MIN_COLUMN, Math.min(MAX_COLUMN, fit));
  const width = Math.max(300, LEFT + RIGHT + dreams.length * column);
  const height = TOP + CHART + GAP + TOKENS + 6;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, width, height,
    class: "timeline", role: "img" });
  root.appendChild(svg("title", {}, t("console.timeline")));
  const most = Math.max(1, ...dreams.map((d) => Math.max(d.items,
    CHANGES.reduce((sum, name) => sum + d[name], 0))));
  const top = niceMax(most);
  const y = (value) => TOP + CHART - (value / top) * CHART;
  // the counts' axis: 0, half, top
  for (const value of [0, top / 2, top]) {
    root.appendChild(svg("line", { x1: LEFT, x2: width - RIGHT, y1: y(value), y2: y(value),
      class: "grid" }));
    root.appendChild(svg("text", { x: LEFT - 4, y: y(value) + 4, class: "axis",
      "text-anchor": "end" }, String(Math.round(value))));
  }
  const tokensKnown = dreams.filter((d) => d.tokens !== null);
  const tokenTop = Math.max(budget || 0, ...tokensKnown.map((d) => d.tokens), 1);
  const tokensBase = TOP + CHART + GAP + TOKENS;
  const tokenHeight = (value) => (value / tokenTop) * TOKENS;
  if (budget) {
    const at = tokensBase - tokenHeight(budget);
    root.appendChild(svg("line", { x1: LEFT, x2: width - RIGHT, y1: at, y2: at, class: "budget" }));
    root.appendChild(svg("text", { x: LEFT - 4, y: at + 4, class: "axis", "text-anchor": "end" },
      String(budget)));
  }
  let lastDay = "";
  const itemsLine = [];
  dreams.forEach((dream, i) => {
    const x = LEFT + i * column + column / 2;
    const group = svg("g", { class: `dream ${dream.status}` });
    group.dataset.time = dream.time;
    group.appendChild(svg("title", {}, describe(dream, budget)));
    group.appendChild(svg("rect", { x: x - column / 2, y: TOP, width: column,
      height: CHART + GAP + TOKENS, class: "hover" }));
    let base = 0;
    for (const name of CHANGES) {
      if (!dream[name]) continue;
      group.appendChild(svg("rect", { x: x - 9, y: y(base + dream[name]), width: 18,
        height: y(base) - y(base + dream[name]), class: `bar ${name}` }));
      base += dream[name];
    }
    if (dream.status !== "done") {
      group.appendChild(svg("text", { x, y: y(0) - 4, class: "failed-mark",
        "text-anchor": "middle" }, "×"));
    }
    const day = dream.time.slice(0, 10);
    group.appendChild(svg("text", { x, y: TOP + CHART + 13, class: "axis",
      "text-anchor": "middle" }, day === lastDay ? "" : formatDate(dream.time)));
    group.appendChild(svg("text", { x, y: TOP + CHART + 25, class: "axis small",
      "text-anchor": "middle" }, formatTime(dream.time)));
    lastDay = day;
    if (dream.tokens !== null) {
      const over = budget && dream.tokens > budget;
      const barTop = tokensBase - tokenHeight(dream.tokens);
      group.appendChild(svg("rect", { x: x - 9, y: barTop, width: 18,
        height: tokenHeight(dream.tokens), class: over ? "tokens over" : "tokens" }));
      const share = budget ? `${Math.round((100 * dream.tokens) / budget)}%` : String(dream.tokens);
      group.appendChild(svg("text", { x, y: Math.min(barTop, tokensBase - 2) - 3, class: "value",
        "text-anchor": "middle" }, share));
    }
    if (dream.status === "done") itemsLine.push([x, y(dream.items), dream.items]);
    root.appendChild(group);
  });
  if (itemsLine.length) {
    root.appendChild(svg("polyline", { points: itemsLine.map(([x, yy]) => `${x},${yy}`).join(" "),
      class: "items-line" }));
    for (const [x, yy, value] of itemsLine) {
      root.appendChild(svg("circle", { cx: x, cy: yy, r: 3.5, class: "items-dot" }));
      root.appendChild(svg("text", { x, y: yy - 7, class: "value", "text-anchor": "middle" },
        String(value)));
    }
  }
  root.appendChild(svg("line", { x1: LEFT, x2: width - RIGHT, y1: tokensBase, y2: tokensBase,
    class: "grid" }));
  return root;
}
