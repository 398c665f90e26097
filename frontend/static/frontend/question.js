// A card question of a live seat: the prompt, its options in words, the deadline, the answer.
import { h, cardOf, countdown } from "./ui.js";

const PLACES = { top: "top of deck", bottom: "bottom of deck" };
const ticks = new Map(); // "match:seq" → the option indexes ticked, so a redraw keeps them
const orders = new Map(); // "match:seq" → an arrange_top order being built

/** What choosing option `i` does, in words: "Bunny → top of deck", "Troll (bench seat 3)". */
export function optionName(question, i) {
  const key = question.option_keys?.[i];
  const option = question.options[i];
  const name = key && key.includes("/") ? cardOf(key).name : key;
  const subject = question.card_key ? cardOf(question.card_key).name : "this card";
  if (PLACES[option]) return `${name ?? subject} → ${PLACES[option]}`;
  if (question.kind === "freeze") return `${subject} → frozen seat ${option + 1}`;
  if (typeof option === "number" && question.kind.includes("seat")) {
    return `Bench seat ${option + 1}${name ? ` (${name})` : ""}`;
  }
  return name ?? String(option);
}

/** Names shared by two options get their number, so "Troll" and "Troll" can be told apart (the
 * match's events are not out while it waits, so the client does not know their bench seats). */
function labels(question) {
  const names = question.options.map((_, i) => optionName(question, i));
  return names.map((name, i) => (names.indexOf(name) !== names.lastIndexOf(name) ? `${name} (option ${i + 1})` : name));
}

const isSuggested = (question, i) => (question.default ?? []).includes(question.options[i]);

function howMany(question) {
  if (question.kind === "freeze") return "Choose one seat, or none to bench the card.";
  if (question.min === question.max) return `Choose ${question.min}.`;
  return `Choose ${question.min} to ${question.max}.`;
}

function deadlineLine(question) {
  return question.deadline
    ? h("p", {}, countdown(question.deadline, "left"), " to answer; then the suggested answer is taken.")
    : null;
}

export function questionPanel({ match, question }, answer) {
  const id = `${match.id}:${question.seq}`;
  const title = h("h2", { id: "question-title" }, `Your ${cardOf(question.card_key).name} asks — ${match.park} park`);
  const buttons = h("div", { class: "row" },
    h("button", { type: "submit", class: "primary", "data-key": "q-answer" }, "Answer"),
    h("button", { type: "button", "data-key": "q-default", onclick: () => answer(question.default) }, "Take the suggested answer"));
  const form = h("form", {
    // The data-key lets a redraw hand the focus back to the new prompt (ui.mount).
    class: "panel question", role: "dialog", "aria-labelledby": "question-title", tabindex: "-1", "data-key": `question-${id}`,
    dataset: { question: id, min: String(question.min), max: String(question.max) },
  }, title, h("p", { class: "prompt" }, question.prompt), deadlineLine(question));
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
    ` ${names[i]}`, isSuggested(question, i) ? h("span", { class: "badge suggested-badge" }, "suggested") : null));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    answer([...ticked].sort((a, b) => a - b).map((i) => question.options[i]));
  });
  form.append(h("p", { class: "muted q-count" }, howMany(question)), h("div", { class: "options" }, boxes), buttons);
  return form;
}

function arrange(form, id, question, answer, buttons) {
  if (!orders.has(id)) orders.set(id, [...question.options.keys()]);
  const order = orders.get(id);
  const names = labels(question);
  const list = h("ol", { class: "arrange" });
  const swap = (a, b) => { [order[a], order[b]] = [order[b], order[a]]; draw(); };
  const draw = () => list.replaceChildren(...order.map((i, at) => h("li", {}, names[i], " ",
    h("button", { type: "button", class: "small", disabled: at === 0, "aria-label": `Move ${names[i]} up`,
      onclick: () => swap(at - 1, at) }, "↑"),
    h("button", { type: "button", class: "small", disabled: at === order.length - 1, "aria-label": `Move ${names[i]} down`,
      onclick: () => swap(at + 1, at) }, "↓"))));
  draw();
  const suggested = (question.default ?? []).map((option) => names[question.options.indexOf(option)]);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    answer(order.map((i) => question.options[i]));
  });
  form.append(h("p", { class: "muted" }, "First = the new top card."), list,
    suggested.length ? h("p", { class: "muted suggested" }, "Suggested: ", suggested.join(", ")) : null, buttons);
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
    } }), " Play a sound when a card asks me");
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
