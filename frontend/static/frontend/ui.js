// Small DOM helpers, the error banner, the card catalogue and card tiles.
import { get } from "./api.js";
import { fmt, labelled, num, duration, clock, setName, glossed, term } from "./i18n.js";
import { effectParts, effectSentence } from "./cardtext.js";

/* global gettext, ngettext */

/** h("button", {class: "x", onclick}, "text", child…): an element; strings become text. */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(element.dataset, value);
    // Styles as properties, never a style="" attribute (the Content-Security-Policy refuses those).
    else if (name === "style") Object.assign(element.style, value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/* A click is a press and a release on the same element: a redraw between the two replaces the
 * button and the click is lost (it goes to their container). So while a control is pressed,
 * redraws wait for its release: each container is drawn once then, with its newest content, in
 * the order first asked, and `afterDraw` steps after them. A press held longer than HELD_MS (or
 * released off the window) lets them through anyway. */
const HELD_MS = 3000;
const CONTROLS = "button, a, label, summary, select, input[type=checkbox], input[type=radio]";
let held = null; // the timer that ends a long press, while a control is pressed
const waiting = new Map(); // container → its newest children, or a step → null

function release() {
  clearTimeout(held);
  held = null;
  // After the click: it is dispatched with the release, in the same task.
  setTimeout(() => {
    if (held !== null) return; // pressed again already: the next release draws
    const due = [...waiting];
    waiting.clear();
    for (const [target, children] of due) typeof target === "function" ? target() : replace(target, children);
  });
}

document.addEventListener("pointerdown", (event) => {
  if (!event.target.closest?.(CONTROLS)) return;
  clearTimeout(held);
  held = setTimeout(release, HELD_MS);
}, true);
document.addEventListener("pointerup", () => held !== null && release(), true);
document.addEventListener("pointercancel", () => held !== null && release(), true);

const FOCUSABLE = "button:not([disabled]), input:not([disabled]), select:not([disabled]), a[href]";

function replace(container, children) {
  const inside = container.contains(document.activeElement) && document.activeElement !== container;
  const focused = document.activeElement?.dataset?.key;
  container.replaceChildren(...children.flat(Infinity).filter(Boolean));
  if (focused) container.querySelector(`[data-key="${CSS.escape(focused)}"]`)?.focus();
  if (!inside || container.contains(document.activeElement)) return;
  // The control that had the focus is gone (an action done): the focus goes to what replaced it,
  // not back to the page's start.
  const next = container.querySelector(FOCUSABLE);
  if (next) return void next.focus();
  if (!container.hasAttribute("tabindex")) container.setAttribute("tabindex", "-1");
  container.focus();
}

/** Replace a container's content, keeping the focus on the element with the same data-key (once
 * no control is pressed). */
export function mount(container, ...children) {
  if (held !== null) return void waiting.set(container, children);
  waiting.delete(container); // drawn from before the release, it would land over this
  replace(container, children);
}

/** Run `step` once what `mount` was asked to draw is on the page. */
export function afterDraw(step) {
  if (held !== null) return void waiting.set(step, null);
  step();
}

export function showError(error) {
  const box = document.getElementById("errors");
  const words = error.code ? `${error.message} (${error.code})` : String(error.message || error);
  // The same refusal again is shown once: the old line goes, the new one is last.
  for (const shown of [...box.children]) if (shown.dataset.words === words) shown.remove();
  const item = h("p", { dataset: { words } }, words, " ", h("button", {
    class: "link", "aria-label": gettext("Dismiss this message"), onclick: () => item.remove(),
  }, "×"));
  box.append(item);
  setTimeout(() => item.remove(), 12000);
}

export function clearErrors() {
  document.getElementById("errors").replaceChildren();
}

/** Run an action; its refusal is shown in words, never swallowed. */
export async function attempt(action) {
  try {
    return await action();
  } catch (error) {
    showError(error);
    return undefined;
  }
}

let catalogue = null;

/** Every card design keyed by its "Set/Name" key. */
export async function cards() {
  if (!catalogue) {
    const list = await get("cards/");
    catalogue = new Map(list.map((card) => [card.key, card]));
  }
  return catalogue;
}

export function cardOf(key) {
  return catalogue?.get(key) ?? { key, name: key.split("/").pop(), set: key.split("/")[0] };
}

/** ngettext's text for `count` with %(count)s filled in this language's digits:
 * plural(count, ngettext("%(count)s design", "%(count)s designs", count)). */
export function plural(count, text, values = {}) {
  return fmt(text, { ...values, count: num(count) });
}

export const STATUS_WORDS = { lobby: gettext("open lobby"), deck: gettext("building decks"),
  match: gettext("matches being played"), finished: gettext("finished"), cancelled: gettext("cancelled") };

export function setClass(set) {
  return "set-" + String(set || "").toLowerCase().replace(/[^a-z]+/g, "-");
}

// The timings the glossary names are its words; the others are the catalogue's.
const TIMING = {
  on_reveal: () => gettext("On reveal"), takes_flag: () => gettext("Takes the flag"), flag_loss: () => term("flag_loss"),
  no_flag_win: () => term("no_flag_win"), in_flag_possession: () => term("in_flag_possession"),
  during_attack: () => term("during_the_attack"), from_bench: () => term("from_the_bench"), when_picked: () => term("when_picked"),
  special: () => term("special"),
};

export function timingWords(timing) {
  return TIMING[timing]?.() || (timing ? timing.replaceAll("_", " ") : "");
}

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

// One outline per set, so sets differ by shape as well as by colour.
const SHAPES = [
  "M8 1l7 7-7 7-7-7z", "M8 1l2 5h5l-4 3.5 1.5 5.5L8 12l-4.5 3L5 9.5 1 6h5z", "M1 1h14v14H1z",
  "M8 1l7 13H1z", "M4 1h8l4 7-4 7H4L0 8z", "M8 1a7 7 0 1 0 .01 0z",
];

function shapeOf(set) {
  let sum = 0;
  for (const letter of String(set)) sum = (sum * 31 + letter.charCodeAt(0)) % 9973;
  return SHAPES[sum % SHAPES.length];
}

/** The set icon: the set's shape in its colour with the initial of its name in this language
 * (城 for City in Chinese, Г for Город in Russian; drawn here, no image). */
export function setIcon(set) {
  return svg("svg", { viewBox: "0 0 16 16", class: "set-icon", "aria-hidden": "true" },
    svg("path", { d: shapeOf(set), fill: "var(--set, #7a8594)" }),
    svg("text", { x: 8, y: 11.2, "text-anchor": "middle", "font-size": 7, "font-weight": 700, fill: "#fff" },
      [...String(setName(set) || "?")][0].toUpperCase()));
}

/** The level badge: a shield with the level letter. */
export function levelBadge(level) {
  return svg("svg", { viewBox: "0 0 20 22", class: "level-badge", role: "img", "aria-label": fmt(gettext("level %(level)s"), { level: level ?? "?" }) },
    svg("path", { d: "M10 1l8 3v7c0 5-4 8.5-8 10C6 19.5 2 16 2 11V4z", fill: "#fff", stroke: "var(--set, #7a8594)", "stroke-width": 2 }),
    svg("text", { x: 10, y: 15, "text-anchor": "middle", "font-size": String(level ?? "?").length > 2 ? 6 : 9,
      "font-weight": 700, fill: "#1b1f24" }, String(level ?? "?")));
}

function effectLine(card) {
  const [label, text] = effectParts(card, timingWords);
  return h("p", { class: "effect" }, label ? h("strong", {}, labelled(label)) : null, text);
}

/** A card tile with every fact a player reads on the physical card; a compact tile (a deck)
 * keeps the effect one tap or hover away. */
export function cardTile(key, { extra = [], compact = false, uid = null } = {}) {
  const card = cardOf(key);
  const power = card.power_is_round ? "R" : card.power ?? "?";
  return h("article", {
    class: `card ${setClass(card.set)} ${compact ? "compact" : ""}`,
    dataset: uid === null ? {} : { uid: String(uid) },
    "aria-label": fmt(gettext("%(name)s, power %(power)s, level %(level)s, %(set)s"),
      { name: card.name, power, level: card.level ?? "?", set: setName(card.set) }),
    title: compact && card.effect ? effectSentence(card, timingWords) : null,
  },
    h("div", { class: "card-head" },
      h("span", { class: "power", title: term("power") }, power),
      h("span", { class: "name" }, card.name),
      levelBadge(card.level),
    ),
    h("div", { class: "card-set" }, setIcon(card.set), compact ? null : setName(card.set),
      card.keyword && !compact ? h("span", { class: "keyword" }, glossed(card.keyword)) : null),
    !card.effect ? null : compact
      ? h("details", { class: "effect-more" }, h("summary", {}, gettext("Effect")), effectLine(card))
      : effectLine(card),
    extra,
  );
}

/** A live "m:ss left" text for a deadline (`bare`: "m:ss" only); updates itself until the element
 * leaves the page. Its title says the deadline's clock time. */
export function countdown(deadline, bare = false) {
  const span = h("span", { class: "countdown", role: "timer",
    title: fmt(gettext("until %(time)s"), { time: clock(deadline) }) });
  const tick = () => {
    const seconds = Math.max(0, Math.round((new Date(deadline) - Date.now()) / 1000));
    const time = duration(seconds);
    span.textContent = bare ? time : fmt(gettext("%(time)s left"), { time });
    span.classList.toggle("urgent", seconds <= 10);
    if (span.isConnected || !span.dataset.started) {
      span.dataset.started = "1";
      setTimeout(tick, 1000);
    }
  };
  tick();
  return span;
}

export const PARK_COLOURS = { green: "#2e7d32", red: "#c62828", purple: "#6a1b9a", yellow: "#f9a825" };

/** A trophy drawn in SVG (no emoji font is needed). */
export function trophy(label = term("trophy")) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "trophy-icon");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", "M7 3h10v2h3v3a4 4 0 0 1-4 4h-.3A5 5 0 0 1 13 14.9V18h3v3H8v-3h3v-3.1A5 5 0 0 1 8.3 12H8a4 4 0 0 1-4-4V5h3V3zm0 4H6v1a2 2 0 0 0 1 1.7V7zm10 0v2.7A2 2 0 0 0 18 8V7h-1z");
  svg.append(path);
  return svg;
}
