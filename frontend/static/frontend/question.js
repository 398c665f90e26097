// A card question of a live seat: the prompt, its options, the deadline, the answer.
import { h, cardOf, countdown } from "./ui.js";

function optionName(question, i) {
  const key = question.option_keys?.[i];
  const option = question.options[i];
  const name = key && key.includes("/") ? cardOf(key).name : key;
  if (question.kind === "freeze") return `Frozen seat ${option + 1}`;
  if (typeof option === "number" && question.kind.includes("seat")) {
    return `Seat ${option + 1}${name ? ` (${name})` : ""}`;
  }
  return name ?? String(option);
}

export function questionPanel({ match, question }, answer) {
  const title = h("h2", { id: "question-title" }, `Your ${cardOf(question.card_key).name} asks — ${match.park} park`);
  const deadline = question.deadline ? h("p", {}, "Answer within ", countdown(question.deadline), " or the suggested answer is taken.") : null;
  if (question.kind === "arrange_top") return arrange(question, answer, title, deadline);
  const boxes = question.options.map((option, i) => h("label", { class: "check option" },
    h("input", { type: question.max === 1 && question.min === 1 ? "radio" : "checkbox", name: "q-option", value: String(i),
      "data-key": `q-${question.seq}-${i}` }), ` ${optionName(question, i)}`));
  const form = h("form", { class: "panel question", role: "dialog", "aria-labelledby": "question-title", onsubmit: (e) => {
    e.preventDefault();
    const picked = [...form.querySelectorAll("input:checked")].map((box) => question.options[Number(box.value)]);
    answer(picked);
  } }, title, h("p", { class: "prompt" }, question.prompt), deadline,
    h("p", { class: "muted" }, `Choose ${question.min === question.max ? question.min : `${question.min} to ${question.max}`}.`),
    h("div", { class: "options" }, boxes),
    h("div", { class: "row" }, h("button", { type: "submit", class: "primary", "data-key": "q-answer" }, "Answer"),
      h("button", { type: "button", "data-key": "q-default", onclick: () => answer(question.default) }, "Take the suggested answer")));
  return form;
}

function arrange(question, answer, title, deadline) {
  const order = [...question.options.keys()];
  const list = h("ol", { class: "arrange" });
  const draw = () => list.replaceChildren(...order.map((i, at) => h("li", {}, optionName(question, i), " ",
    h("button", { type: "button", class: "small", disabled: at === 0, "aria-label": `Move ${optionName(question, i)} up`,
      onclick: () => { [order[at - 1], order[at]] = [order[at], order[at - 1]]; draw(); } }, "↑"),
    h("button", { type: "button", class: "small", disabled: at === order.length - 1, "aria-label": `Move ${optionName(question, i)} down`,
      onclick: () => { [order[at + 1], order[at]] = [order[at], order[at + 1]]; draw(); } }, "↓"))));
  draw();
  return h("form", { class: "panel question", role: "dialog", "aria-labelledby": "question-title", onsubmit: (e) => {
    e.preventDefault();
    answer(order.map((i) => question.options[i]));
  } }, title, h("p", { class: "prompt" }, question.prompt), deadline, h("p", { class: "muted" }, "First = the new top card."), list,
    h("div", { class: "row" }, h("button", { type: "submit", class: "primary", "data-key": "q-answer" }, "Answer"),
      h("button", { type: "button", "data-key": "q-default", onclick: () => answer(question.default) }, "Take the suggested answer")));
}
