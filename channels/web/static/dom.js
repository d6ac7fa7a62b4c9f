// Shared by the console's views: the API client, element helpers, whose memory is shown.
import { code, t } from "./i18n.js";

export const $ = (id) => document.getElementById(id);

// "" is the owner; otherwise the key of the chat whose memory is shown (read only).
export const state = { chat: "" };

// The read-only views take ?chat=KEY; chatting and dreaming stay the owner's.
export function ofChat(path) {
  if (!state.chat) return path;
  return `${path}${path.includes("?") ? "&" : "?"}chat=${encodeURIComponent(state.chat)}`;
}

// The URL of `view` (with `arg` and `params`), keeping the chat whose memory is shown.
export function href(view, arg = "", params = {}, chat = state.chat) {
  const query = new URLSearchParams(params);
  if (chat) query.set("chat", chat);
  const tail = query.toString();
  return `#/${view}${arg ? `/${encodeURIComponent(arg)}` : ""}${tail ? `?${tail}` : ""}`;
}

// JSON from the console's API; errors come worded in the console's language.
export async function api(path, options = {}) {
  const response = await fetch(path, {
    headers: { "Content-Type": "application/json", "Accept-Language": code() },
    credentials: "same-origin",
    ...options,
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.detail || response.statusText);
  return body;
}

export function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (className) node.className = className;
  return node;
}

export function showError(container, error) {
  container.replaceChildren(el("p", t("console.error", { error: error.message || error }), "error"));
}

// A spinner with a label, for whatever is on its way.
export function busy(label) {
  const box = el("p", undefined, "busy");
  box.setAttribute("role", "status");
  box.append(el("span", undefined, "spinner"), el("span", label));
  return box;
}

// `load()` with `container` showing a spinner meanwhile and the error when it fails.
export async function loading(container, label, load) {
  container.replaceChildren(busy(label));
  try {
    await load();
  } catch (error) {
    showError(container, error);
  }
}
