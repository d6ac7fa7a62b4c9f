// The console's words: the catalogue GET /api/i18n sends (bot/locales/<code>.json), with
// the same placeholders, plural rules and date patterns the bot uses (bot/i18n.py), so a
// date reads the same in a chat and here: 12月1日 23:57 / 1 Dec, 23:57.

const PLURAL_RULES = {
  one_other: (n) => (n === 1 ? "one" : "other"),
  one_upto_1: (n) => (n === 0 || n === 1 ? "one" : "other"),
  other: () => "other",
};
const STORED = "cowdream.language";

let catalogue = { code: "en", plural: "one_other", months: [], formats: {}, messages: {} };
let languages = [];
let thisYear = null;  // the bot's clock's year: a date of another year shows its year

function fill(template, params) {
  return template.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole);
}

// The message `key`; a count's message takes its form from `n`. A missing key shows
// the key itself, so a gap in a catalogue is visible, never an exception.
export function t(key, params = {}) {
  let message = catalogue.messages[key];
  if (message === undefined) return key;
  if (typeof message === "object") {
    const rule = PLURAL_RULES[catalogue.plural] || PLURAL_RULES.other;
    message = message[rule(Number(params.n))] || message.other;
  }
  return fill(message, params);
}

export function code() { return catalogue.code; }
export function available() { return languages; }

// "2026-12-01T23:57:10+08:00" in the offset it was recorded in (never the browser's):
// the bot's clock and the notes say the same hour.
function parts(value) {
  const match = String(value).match(/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/);
  if (!match) return null;
  const [, year, month, day, hour, minute] = match;
  return { year: +year, month: +month, day: +day, hour, minute };
}

export function formatDate(value) {
  const p = parts(value);
  if (!p) return String(value ?? "");
  const months = catalogue.months;
  const params = { year: p.year, month: p.month, day: p.day,
    mon: months.length ? months[p.month - 1] : p.month };
  const sameYear = thisYear === null || thisYear === p.year;
  return fill(catalogue.formats[sameYear ? "date" : "date_year"] || "{year}-{month}-{day}", params);
}

export function formatTime(value) {
  const p = parts(value);
  if (!p || p.hour === undefined) return String(value ?? "");
  return fill(catalogue.formats.time || "{hour}:{minute}", { hour: p.hour, minute: p.minute });
}

export function formatDateTime(value) {
  const p = parts(value);
  if (!p) return String(value ?? "");
  if (p.hour === undefined) return formatDate(value);
  return fill(catalogue.formats.datetime || "{date} {time}",
    { date: formatDate(value), time: formatTime(value) });
}

export function join(items) { return items.join(catalogue.formats.separator || ", "); }

// Every element marked data-i18n="key" gets its text; data-i18n-placeholder,
// data-i18n-title and data-i18n-aria-label set those attributes.
export function apply(rootNode = document) {
  document.documentElement.lang = catalogue.code;
  for (const node of rootNode.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const attr of ["placeholder", "title", "aria-label"]) {
    const data = `i18n${attr.replace(/(^|-)(\w)/g, (_, __, c) => c.toUpperCase())}`;
    for (const node of rootNode.querySelectorAll(`[data-i18n-${attr}]`)) {
      node.setAttribute(attr, t(node.dataset[data]));
    }
  }
}

// Loads the language the user chose before (kept in this browser), else the one the
// bot suggests (the configured one, the owner's chat's, the browser's).
export async function load(wanted) {
  const chosen = wanted || localStorage.getItem(STORED) || "";
  const query = chosen ? `?lang=${encodeURIComponent(chosen)}` : "";
  const response = await fetch(`/api/i18n${query}`, { credentials: "same-origin" });
  if (!response.ok) throw new Error(response.statusText);
  const body = await response.json();
  catalogue = body.catalogue;
  languages = body.languages;
  thisYear = body.today ? parts(body.today).year : null;
  if (wanted) localStorage.setItem(STORED, wanted);
  apply();
  return catalogue.code;
}
