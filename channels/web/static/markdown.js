// A small Markdown renderer that builds DOM nodes and never parses HTML: a memory file can
// hold any text, and whatever it holds (<script>, <img onerror>, javascript: links) ends
// up as text. HTML comments (the provenance of MEMORY.md items, the backfill mark) are
// left out, as they are in any Markdown viewer.
//
// Blocks: headings, paragraphs, bullet and numbered lists (nested by indent), quotes,
// fenced code, rules, pipe tables. Inline: `code`, **bold**, *italic*, ~~struck~~,
// [links](https://...) (http, https and mailto only), bare URLs, and source references
// (memory/2026-11-29.md#L4, MEMORY.md#L3-L5), which become source links.

const SAFE_URL = /^(https?:\/\/|mailto:)/i;
const INLINE = new RegExp([
  "(`+)([^`][\\s\\S]*?)\\1(?!`)",                    // 1, 2: code
  "\\*\\*(?=\\S)([\\s\\S]+?)\\*\\*",                   // 3: bold
  "~~(?=\\S)([\\s\\S]+?)~~",                         // 4: struck
  "\\*(?=[^\\s*])([^*]+?)\\*",                        // 5: italic
  "!\\[([^\\]]*)\\]\\(([^)\\s]*)[^)]*\\)",             // 6, 7: image (never loaded)
  "\\[([^\\]]+)\\]\\(([^)\\s]+)[^)]*\\)",              // 8, 9: link
  "(https?:\\/\\/[^\\s<>()\"']+[^\\s<>()\"'.,;:!?。，])", // 10: bare URL
  "((?:MEMORY\\.md|memory\\/[\\w\\-./]+\\.md|sessions\\/[\\w\\-./]+\\.jsonl)#L\\d+(?:-L\\d+)?)", // 11
].join("|"), "g");

function node(tag, text) {
  const element = document.createElement(tag);
  if (text !== undefined) element.textContent = text;
  return element;
}

function link(text, href) {
  const a = node("a", text);
  a.href = href;
  a.rel = "noopener noreferrer nofollow";
  a.target = "_blank";
  return a;
}

// `text` as inline nodes appended to `parent`; `onSource(ref)` opens a source reference.
export function renderInline(parent, text, onSource) {
  let last = 0;
  for (const m of text.matchAll(INLINE)) {  // matchAll: its own copy of the regex
    if (m.index > last) parent.append(text.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[2] !== undefined) parent.append(node("code", m[2]));
    else if (m[3] !== undefined) renderInline(parent.appendChild(node("strong")), m[3], onSource);
    else if (m[4] !== undefined) renderInline(parent.appendChild(node("del")), m[4], onSource);
    else if (m[5] !== undefined) renderInline(parent.appendChild(node("em")), m[5], onSource);
    else if (m[6] !== undefined) parent.append(node("span", `[${m[6] || m[7]}]`));
    else if (m[8] !== undefined) {
      if (SAFE_URL.test(m[9])) renderInline(parent.appendChild(link("", m[9])), m[8], onSource);
      else parent.append(m[8]);  // a javascript:, data: or relative target stays text
    } else if (m[10] !== undefined) parent.append(link(m[10], m[10]));
    else if (m[11] !== undefined) parent.append(sourceLink(m[11], onSource));
  }
  if (last < text.length) parent.append(text.slice(last));
  return parent;
}

export function sourceLink(ref, onSource, label) {
  const a = node("a", label || ref);
  a.href = "#";
  a.className = "source-ref";
  a.dataset.ref = ref;
  a.addEventListener("click", (event) => {
    event.preventDefault();
    if (onSource) onSource(ref, a);
  });
  return a;
}

const LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

function cells(line) {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
}

function renderList(lines, start, onSource) {
  // A stack of open lists by indent; an item deeper than its list opens a child list.
  const top = { indent: -1, list: null, item: null };
  const stack = [top];
  let i = start;
  let root = null;
  for (; i < lines.length; i += 1) {
    const m = lines[i].match(LIST_ITEM);
    if (!m) {
      const open = stack[stack.length - 1];
      if (lines[i].trim() && /^\s{2,}/.test(lines[i]) && open.item) {  // a continued item
        open.item.append(" ");
        renderInline(open.item, lines[i].trim(), onSource);
        continue;
      }
      break;
    }
    const indent = m[1].replace(/\t/g, "    ").length;
    const ordered = /\d/.test(m[2]);
    while (stack.length > 1 && indent < stack[stack.length - 1].indent) stack.pop();
    let level = stack[stack.length - 1];
    if (indent > level.indent) {
      const list = node(ordered ? "ol" : "ul");
      if (ordered && parseInt(m[2], 10) !== 1) list.start = parseInt(m[2], 10);
      if (level.item) level.item.appendChild(list);
      else root = list;
      level = { indent, list, item: null };
      stack.push(level);
    }
    level.item = renderInline(node("li"), m[3], onSource);
    level.list.appendChild(level.item);
  }
  return [root, i];
}

function renderTable(lines, start, onSource) {
  const table = node("table");
  const head = table.appendChild(node("thead")).appendChild(node("tr"));
  for (const cell of cells(lines[start])) head.appendChild(renderInline(node("th"), cell, onSource));
  const body = table.appendChild(node("tbody"));
  let i = start + 2;
  for (; i < lines.length && lines[i].includes("|") && lines[i].trim(); i += 1) {
    const row = body.appendChild(node("tr"));
    for (const cell of cells(lines[i])) row.appendChild(renderInline(node("td"), cell, onSource));
  }
  return [table, i];
}

// `text` rendered into a new <div class="markdown">. `headingOffset` shifts heading
// levels (a note's `#` title under the view's own heading); `onSource` opens references.
export function renderMarkdown(text, { headingOffset = 0, onSource = null } = {}) {
  const box = node("div");
  box.className = "markdown";
  const lines = String(text ?? "").replace(/<!--[\s\S]*?(-->|$)/g, "").split(/\r?\n/);
  let paragraph = null;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const fence = line.match(/^\s*(```|~~~)/);
    const heading = line.match(/^(#{1,6})\s+(.*?)\s*#*\s*$/);
    if (!line.trim()) { paragraph = null; i += 1; continue; }
    if (fence) {
      const code = [];
      for (i += 1; i < lines.length && !lines[i].trim().startsWith(fence[1]); i += 1) code.push(lines[i]);
      box.appendChild(node("pre")).appendChild(node("code", code.join("\n")));
      paragraph = null; i += 1; continue;
    }
    if (heading) {
      const level = Math.min(6, heading[1].length + headingOffset);
      box.appendChild(renderInline(node(`h${level}`), heading[2], onSource));
      paragraph = null; i += 1; continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      box.appendChild(node("hr")); paragraph = null; i += 1; continue;
    }
    if (LIST_ITEM.test(line)) {
      const [list, next] = renderList(lines, i, onSource);
      box.appendChild(list); paragraph = null; i = next; continue;
    }
    if (line.includes("|") && i + 1 < lines.length && TABLE_RULE.test(lines[i + 1])) {
      const [table, next] = renderTable(lines, i, onSource);
      box.appendChild(table); paragraph = null; i = next; continue;
    }
    if (/^\s*>/.test(line)) {
      const quoted = [];
      for (; i < lines.length && /^\s*>/.test(lines[i]); i += 1) quoted.push(lines[i].replace(/^\s*>\s?/, ""));
      const inner = renderMarkdown(quoted.join("\n"), { headingOffset, onSource });
      box.appendChild(node("blockquote")).append(...inner.childNodes);
      paragraph = null; continue;
    }
    if (paragraph) paragraph.appendChild(node("br"));
    else paragraph = box.appendChild(node("p"));
    renderInline(paragraph, line.trim(), onSource);
    i += 1;
  }
  return box;
}
