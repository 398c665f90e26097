// A card question of a live seat: the prompt, its options in words, the deadline, the answer.
import { h, cardOf, countdown } from "./ui.js";
import { fmt, num, list, parkName } from "./i18n.js";

/* global gettext */

const PLACES = { top: gettext("top of deck"), bottom: gettext("bottom of deck") };
// The engine's prompts (matches/engine/questions.py) in this language, by question kind.
const PROMPTS = {
  bench_to_exhaust: gettext("Choose bench cards to move to the exhaust pile."),
  bench_to_deck_top: gettext("Choose bench cards to put on top of the deck."),
  bench_remove: gettext("Choose bench cards to remove from the game."),
  seat_to_exhaust: gettext("Choose a bench seat: every card in it goes to your exhaust pile."),
  power_per_card_in_seat: gettext("Choose a bench seat: this card gets +1 power per card in it."),
  search_deck: gettext("Choose a card of your deck."),
  arrange_top: gettext("Order these cards (first = top)."),
  peek_move: gettext("Put this card on top or at the bottom of your deck."),
  exhaust_to_deck: gettext("Choose a card of your exhaust pile to put into your deck."),
  freeze: gettext("Freeze this card in a frozen seat (choose one) or bench it (choose none)."),
};
// Where a card taken by these kinds goes: the card's own `to` (its effect_params in the catalogue),
// else the engine's default for the kind (matches/engine/effects.py).
const MOVES = {
  search_deck: { from: "top", top: gettext("Choose a card of your deck to put on top of your deck."),
    bottom: gettext("Choose a card of your deck to put at the bottom of your deck.") },
  exhaust_to_deck: { from: "bottom", top: gettext("Choose a card of your exhaust pile to put on top of your deck."),
    bottom: gettext("Choose a card of your exhaust pile to put at the bottom of your deck.") },
};
const ARRANGE = /^Order: the first (\d+) back on top \(first = top\)(?:, then (\d+) to the bottom)?(?:, then (\d+) to your exhaust pile)?$/;

/** The question's prompt in this language (the engine writes it in English). */
function promptWords(question) {
  const move = MOVES[question.kind];
  const params = question.card_key ? cardOf(question.card_key).effect_params : undefined;
  if (move && params) return move[params.to ?? move.from] ?? PROMPTS[question.kind];
  const arrange = ARRANGE.exec(question.prompt ?? "");
  if (!arrange) return PROMPTS[question.kind] ?? question.prompt;
  const [top, bottom, exhaust] = arrange.slice(1).map((n) => Number(n ?? 0));
  return [fmt(gettext("Order: the first %(count)s back on top (first = top)"), { count: num(top) }),
    bottom ? fmt(gettext("then %(count)s to the bottom"), { count: num(bottom) }) : null,
    exhaust ? fmt(gettext("then %(count)s to your exhaust pile"), { count: num(exhaust) }) : null].filter(Boolean).join(", ");
}

const ticks = new Map(); // "match:seq" → the option indexes ticked, so a redraw keeps them
const orders = new Map(); // "match:seq" → an arrange_top order being built

/** What choosing option `i` does, in words: "Bunny → top of deck", "Troll (bench seat 3)". */
export function optionName(question, i) {
  const key = question.option_keys?.[i];
  const option = question.options[i];
  const name = key && key.includes("/") ? cardOf(key).name : key;
  const subject = question.card_key ? cardOf(question.card_key).name : gettext("this card");
  if (PLACES[option]) return `${name ?? subject} → ${PLACES[option]}`;
  if (question.kind === "freeze") return `${subject} → ${fmt(gettext("frozen seat %(seat)s"), { seat: num(option + 1) })}`;
  if (typeof option === "number" && question.kind.includes("seat")) {
    const seat = fmt(gettext("Bench seat %(seat)s"), { seat: num(option + 1) });
    return name ? `${seat} (${name})` : seat;
  }
  return name ?? String(option);
}

/** Names shared by two options say where each card is, as the board shows it: its bench seat
 * (the question's `option_seats`), its place from the top of the deck (a deck's cards are offered
 * top first) or in the exhaust pile (in the pile's order), so "Troll" and "Troll" can be told
 * apart; only a kind that says none of these numbers its options. */
function labels(question) {
  const names = question.options.map((_, i) => optionName(question, i));
  const seats = question.option_seats ?? [];
  return names.map((name, i) => {
    if (names.indexOf(name) === names.lastIndexOf(name)) return name;
    const number = num(i + 1);
    if (typeof seats[i] === "number") return fmt(gettext("%(name)s (bench seat %(seat)s)"), { name, seat: num(seats[i] + 1) });
    if (FROM_TOP.has(question.kind)) return fmt(gettext("%(name)s, card %(number)s from the top of your deck"), { name, number });
    if (question.kind === "exhaust_to_deck") return fmt(gettext("%(name)s, card %(number)s of your exhaust pile"), { name, number });
    return fmt(gettext("%(name)s (option %(number)s)"), { name, number });
  });
}

const FROM_TOP = new Set(["search_deck", "arrange_top"]); // their options: deck cards, top first

/** The order an arrange_top list starts in: the suggested one, so the answer untouched is it. */
function suggestedOrder(question) {
  const order = (question.default ?? []).map((option) => question.options.indexOf(option));
  const whole = order.length === question.options.length && new Set(order).size === order.length && !order.includes(-1);
  return whole ? order : [...question.options.keys()];
}

const isSuggested = (question, i) => (question.default ?? []).includes(question.options[i]);

function howMany(question) {
  if (question.kind === "freeze") return gettext("Choose one seat, or none to bench the card.");
  if (question.min === question.max) return fmt(gettext("Choose %(count)s."), { count: num(question.min) });
  return fmt(gettext("Choose %(min)s to %(max)s."), { min: num(question.min), max: num(question.max) });
}

function deadlineLine(question) {
  return question.deadline
    ? h("p", {}, countdown(question.deadline), " ", gettext("to answer; then the suggested answer is taken."))
    : null;
}

export function questionPanel({ match, question }, answer) {
  const id = `${match.id}:${question.seq}`;
  const title = h("h2", { id: "question-title" }, fmt(gettext("Your %(card)s asks — %(park)s"),
    { card: cardOf(question.card_key).name, park: parkName(match.park) }));
  // The answer row: on a phone it stays at the foot of the sheet while the options scroll (style.css).
  const buttons = h("div", { class: "row answer-row" },
    h("button", { type: "submit", class: "primary", "data-key": "q-answer" }, gettext("Answer")),
    h("button", { type: "button", "data-key": "q-default", onclick: () => answer(question.default) }, gettext("Take the suggested answer")));
  const form = h("form", {
    // The data-key lets a redraw hand the focus back to the new prompt (ui.mount).
    class: "panel question", role: "dialog", "aria-labelledby": "question-title", tabindex: "-1", "data-key": `question-${id}`,
    dataset: { question: id, min: String(question.min), max: String(question.max) },
  }, title, h("p", { class: "prompt" }, promptWords(question)), deadlineLine(question));
  if (question.kind === "arrange_top") return arrange(form, id, question, answer, buttons);
  if (!ticks.has(id)) ticks.set(id, new Set());
  const ticked = ticks.get(id);
  const one = question.max === 1 && question.min === 1;
  const names = labels(question);
  const boxes = question.options.map((option, i) => h("label", { class: `check option ${isSuggested(question, i) ? "suggested" : ""}` },
    h("input", { type: one ? "radio" : "checkbox", name: "q-option", value: String(i), "data-key": `q-${question.seq}-${i}`,
      checked: ticked.has(i), onchange: () => {
        if (one) ticked.clear();
        form.querySelectorAll("input[name=q-option]").forEach((box) => (box.checked ? ticked.add(Number(box.value)) : ticked.delete(Number(box.value))));
      } }),
    ` ${names[i]}`, isSuggested(question, i) ? h("span", { class: "badge suggested-badge" }, gettext("suggested")) : null));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    answer([...ticked].sort((a, b) => a - b).map((i) => question.options[i]));
  });
  form.append(h("p", { class: "muted q-count" }, howMany(question)), h("div", { class: "options" }, boxes), buttons);
  return form;
}

function arrange(form, id, question, answer, buttons) {
  if (!orders.has(id)) orders.set(id, suggestedOrder(question));
  const order = orders.get(id);
  const names = labels(question);
  const ordered = h("ol", { class: "arrange" });
  const swap = (a, b) => { [order[a], order[b]] = [order[b], order[a]]; draw(); };
  const draw = () => ordered.replaceChildren(...order.map((i, at) => h("li", {}, names[i], " ",
    h("button", { type: "button", class: "small", disabled: at === 0, "aria-label": fmt(gettext("Move %(name)s up"), { name: names[i] }),
      onclick: () => swap(at - 1, at) }, "↑"),
    h("button", { type: "button", class: "small", disabled: at === order.length - 1, "aria-label": fmt(gettext("Move %(name)s down"), { name: names[i] }),
      onclick: () => swap(at + 1, at) }, "↓"))));
  draw();
  const suggested = (question.default ?? []).map((option) => names[question.options.indexOf(option)]);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    answer(order.map((i) => question.options[i]));
  });
  form.append(h("p", { class: "muted" }, gettext("First = the new top card.")), ordered,
    suggested.length ? h("p", { class: "muted suggested" }, gettext("Suggested:"), " ", list(suggested, true)) : null, buttons);
  return form;
}

/** Forget the ticks of questions that are over. */
export function forgetQuestions(keep = null) {
  for (const map of [ticks, orders]) for (const id of [...map.keys()]) if (id !== keep) map.delete(id);
}

let sound = localStorage.getItem("challengers.sound") === "on";

export function soundToggle() {
  return h("label", { class: "check" }, h("input", { type: "checkbox", id: "question-sound", "data-key": "question-sound",
    checked: sound, onchange: (event) => {
      sound = event.target.checked;
      localStorage.setItem("challengers.sound", sound ? "on" : "off");
    } }), " ", gettext("Play a sound when a card asks me"));
}

/** Tell the player a question came: the tab title, and a short tone if they turned it on. */
export function announce() {
  if (!document.title.startsWith("(!) ")) document.title = `(!) ${document.title}`;
  if (!sound) return;
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    tone.frequency.value = 660;
    tone.connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.15);
  } catch {
    // no audio device: the title still says it
  }
}

export function unannounce() {
  document.title = document.title.replace(/^\(!\) /, "");
}
