// The Deck Phase of one seat: options, the secret display, picks, When picked prompts, removal.
import { h, cardTile, cardOf, countdown } from "./ui.js";

const chosen = new Set(); // uids ticked for removal or to pay a When picked effect

/** A deck card with a checkbox whose name says what ticking it does ("Remove Bunny"). */
function tickable(page, card, verb) {
  const id = `tick-${card.uid}`;
  return cardTile(card.card, { compact: true, uid: card.uid, extra: h("label", { class: "tick", for: id },
    h("input", { type: "checkbox", id, "data-key": id, checked: chosen.has(card.uid),
      onchange: (e) => { e.target.checked ? chosen.add(card.uid) : chosen.delete(card.uid); page.renderPhase(); } }),
    ` ${verb} `, h("span", { class: "visually-hidden" }, cardOf(card.card).name)) });
}

function ticked(page) {
  const deck = new Set(page.me.deck.map((card) => card.uid));
  return [...chosen].filter((uid) => deck.has(uid));
}

function send(page, path, body = {}) {
  chosen.clear();
  return page.act(path, { ...body, version: page.me.version });
}

function optionsPart(page, turn, actions) {
  if (!turn.options.length) return h("p", {}, "Before the Final there is no draft: remove cards if you wish, then finish.");
  if (actions.includes("choose")) {
    return h("div", { class: "options", role: "group", "aria-label": "Options" }, h("p", {}, "Choose this round's option:"),
      turn.options.map((label, i) => h("button", { class: "primary", "data-key": `option-${i}`,
        onclick: () => send(page, "draft/choose/", { option: i }) }, label)));
  }
  return h("p", {}, "Option: ", h("strong", {}, turn.options[turn.option] ?? "—"),
    ` · ${turn.picks_left} pick${turn.picks_left === 1 ? "" : "s"} left`, turn.redraw_used ? " · redraw used" : "");
}

function displayPart(page, turn, actions) {
  if (actions.includes("draw")) {
    return h("button", { class: "primary", "data-key": "draw", onclick: () => send(page, "draft/draw/") }, "Draw your display");
  }
  if (!turn.display.length) return null;
  const canPick = actions.includes("pick");
  return h("div", { class: "display" }, h("h3", {}, "Your secret display"),
    h("div", { class: "card-grid" }, turn.display.map((card) => cardTile(card.card, { uid: card.uid,
      extra: canPick ? h("button", { class: "primary pick", "data-key": `pick-${card.uid}`,
        onclick: () => send(page, "draft/pick/", { card: card.uid }) }, `Pick ${cardOf(card.card).name}`) : null }))),
    actions.includes("redraw") ? h("button", { "data-key": "redraw", onclick: () => send(page, "draft/redraw/") },
      "Redraw (once per Deck Phase)") : null);
}

const PENDING_WORDS = {
  remove_for_pick: (p) => `${cardOf(p.card).name}: remove ${p.count} card${p.count > 1 ? "s" : ""} of your deck to pick one more card, or decline.`,
  must_remove: (p) => `${cardOf(p.card).name}: remove ${p.count} card${p.count > 1 ? "s" : ""} of your deck, as the card says.`,
  draw_keep: (p) => `${cardOf(p.card).name}: keep one of these cards.`,
};

function pendingPart(page, pending) {
  const words = h("p", { class: "prompt" }, PENDING_WORDS[pending.kind]?.(pending) ?? pending.kind);
  if (pending.kind === "draw_keep") {
    return h("div", { class: "panel pending", role: "dialog", "aria-label": "When picked" }, words,
      h("div", { class: "card-grid" }, pending.offered.map((card) => cardTile(card.card, { uid: card.uid,
        extra: h("button", { class: "primary", "data-key": `keep-${card.uid}`,
          onclick: () => send(page, "draft/resolve/", { cards: [card.uid] }) }, `Keep ${cardOf(card.card).name}`) }))));
  }
  // The server's `eligible` lists the very cards the rule lets pay; the others are not offered.
  const eligible = pending.eligible ?? page.me.deck;
  const payable = new Set(eligible.map((card) => card.uid));
  const others = page.me.deck.length - payable.size;
  const count = ticked(page).filter((uid) => payable.has(uid)).length;
  const source = cardOf(pending.card);
  const declinable = pending.optional ?? pending.kind === "remove_for_pick";
  return h("div", { class: "panel pending", role: "dialog", "aria-label": "When picked", dataset: { count: String(pending.count) } }, words,
    source.effect ? h("p", {}, h("strong", {}, `${source.name}: `), source.effect) : null,
    h("p", { class: "muted" }, `Tick ${pending.count} card${pending.count > 1 ? "s" : ""} below (${count} ticked).`,
      others > 0 ? ` The other ${others} card${others > 1 ? "s" : ""} of your deck cannot pay: they do not fit what ${source.name} asks for.` : ""),
    eligible.length ? h("div", { class: "card-grid small" }, eligible.map((card) => tickable(page, card, "Pay with")))
      : h("p", {}, "No card of your deck can pay for this effect."),
    h("div", { class: "row" },
      h("button", { class: "primary", "data-key": "resolve", disabled: count !== pending.count,
        onclick: () => send(page, "draft/resolve/", { cards: ticked(page).filter((uid) => payable.has(uid)) }) }, "Confirm"),
      declinable ? h("button", { "data-key": "decline",
        onclick: () => send(page, "draft/resolve/", { cards: [] }) }, "Decline") : null));
}

function finishPart(page, actions) {
  if (!actions.includes("finish")) return null;
  const count = ticked(page).length;
  return h("div", { class: "finish" }, h("h3", {}, "Your deck is ready?"),
    h("p", { class: "muted" }, "Tick cards to remove them from your deck (optional), then finish."),
    h("div", { class: "card-grid small" }, page.me.deck.map((card) => tickable(page, card, "Remove"))),
    h("div", { class: "row" },
      h("button", { "data-key": "remove", disabled: count === 0,
        onclick: () => send(page, "deck/remove/", { cards: ticked(page) }) }, `Remove ${count} ticked`),
      h("button", { class: "primary", "data-key": "finish", onclick: () => send(page, "deck/finish/") }, "Finish my deck")));
}

export function draftPanel(page) {
  const v = page.view;
  const turn = page.me.turn;
  const actions = page.me.actions;
  const waiting = v.seats.filter((seat) => seat.finished === false).map((seat) => seat.name);
  return h("section", { class: "panel draft", "aria-label": "Deck Phase" },
    h("h2", {}, v.is_final ? "Deck Phase of the Final" : `Deck Phase of round ${v.round}`,
      v.phase_deadline ? h("span", { class: "deadline" }, " · ", countdown(v.phase_deadline)) : null),
    turn.finished ? h("p", { class: "done", role: "status" }, "You finished this Deck Phase",
      turn.auto_played ? " (the deadline finished it for you)" : "",
      waiting.length ? `. Waiting for ${waiting.join(", ")}.` : ".") : [
      optionsPart(page, turn, actions),
      turn.pending ? pendingPart(page, turn.pending) : displayPart(page, turn, actions),
      turn.picked.length ? h("p", { class: "muted" }, "Picked this phase: ",
        turn.picked.map((card) => cardOf(card.card).name).join(", ")) : null,
      turn.pending ? null : finishPart(page, actions)]);
}
