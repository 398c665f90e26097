// The Deck Phase of one seat: options, the secret display, picks, When picked prompts, removal.
import { h, cardTile, cardOf, countdown, plural } from "./ui.js";
import { fmt, num, list, term } from "./i18n.js";

/* global gettext, ngettext */

const chosen = new Set(); // uids ticked for removal or to pay a When picked effect

/** A round's option label ("2 from A (+2 fans)", the protocol's words) in this language. */
export function optionWords(label) {
  const found = /^(\d+) from ([ABC])(?: \(\+(\d+) fans\))?$/.exec(label ?? "");
  if (!found) return label ?? "—";
  const [count, pile, fans] = [Number(found[1]), found[2], Number(found[3] ?? 0)];
  const words = plural(count, ngettext("%(count)s from %(pile)s", "%(count)s from %(pile)s", count), { pile });
  return fans ? `${words} ${plural(fans, ngettext("(+%(count)s fan)", "(+%(count)s fans)", fans))}` : words;
}

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
  if (!turn.options.length) return h("p", {}, gettext("Before the Final there is no draft: remove cards if you wish, then finish."));
  if (actions.includes("choose")) {
    return h("div", { class: "options", role: "group", "aria-label": gettext("Options") }, h("p", {}, gettext("Choose this round's option:")),
      turn.options.map((label, i) => h("button", { class: "primary", "data-key": `option-${i}`,
        onclick: () => send(page, "draft/choose/", { option: i }) }, optionWords(label))));
  }
  return h("p", {}, gettext("Option:"), " ", h("strong", {}, optionWords(turn.options[turn.option])),
    " · ", plural(turn.picks_left, ngettext("%(count)s pick left", "%(count)s picks left", turn.picks_left)),
    turn.redraw_used ? ` · ${gettext("redraw used")}` : "");
}

function displayPart(page, turn, actions) {
  if (actions.includes("draw")) {
    return h("button", { class: "primary", "data-key": "draw", onclick: () => send(page, "draft/draw/") }, gettext("Draw your display"));
  }
  if (!turn.display.length) return null;
  const canPick = actions.includes("pick");
  return h("div", { class: "display" }, h("h3", {}, gettext("Your secret display")),
    h("div", { class: "card-grid" }, turn.display.map((card) => cardTile(card.card, { uid: card.uid,
      extra: canPick ? h("button", { class: "primary pick", "data-key": `pick-${card.uid}`,
        onclick: () => send(page, "draft/pick/", { card: card.uid }) }, fmt(gettext("Pick %(card)s"), { card: cardOf(card.card).name })) : null }))),
    actions.includes("redraw") ? h("button", { "data-key": "redraw", onclick: () => send(page, "draft/redraw/") },
      gettext("Redraw (once per Deck Phase)")) : null);
}

const PENDING_WORDS = {
  remove_for_pick: (p) => plural(p.count, ngettext("%(card)s: remove %(count)s card of your deck to pick one more card, or decline.",
    "%(card)s: remove %(count)s cards of your deck to pick one more card, or decline.", p.count), { card: cardOf(p.card).name }),
  must_remove: (p) => plural(p.count, ngettext("%(card)s: remove %(count)s card of your deck, as the card says.",
    "%(card)s: remove %(count)s cards of your deck, as the card says.", p.count), { card: cardOf(p.card).name }),
  draw_keep: (p) => fmt(gettext("%(card)s: keep one of these cards."), { card: cardOf(p.card).name }),
};

function pendingPart(page, pending) {
  const words = h("p", { class: "prompt" }, PENDING_WORDS[pending.kind]?.(pending) ?? pending.kind);
  if (pending.kind === "draw_keep") {
    return h("div", { class: "panel pending", role: "dialog", "aria-label": term("when_picked") }, words,
      h("div", { class: "card-grid" }, pending.offered.map((card) => cardTile(card.card, { uid: card.uid,
        extra: h("button", { class: "primary", "data-key": `keep-${card.uid}`,
          onclick: () => send(page, "draft/resolve/", { cards: [card.uid] }) }, fmt(gettext("Keep %(card)s"), { card: cardOf(card.card).name })) }))));
  }
  // The server's `eligible` lists the very cards the rule lets pay; the others are not offered.
  const eligible = pending.eligible ?? page.me.deck;
  const payable = new Set(eligible.map((card) => card.uid));
  // The deck's cards that cannot pay, named: the picked card itself, then any the text rules out.
  const unpayable = page.me.deck.filter((card) => !payable.has(card.uid));
  const itself = unpayable.findIndex((card) => card.card === pending.card);
  const others = unpayable.filter((_, i) => i !== itself);
  const count = ticked(page).filter((uid) => payable.has(uid)).length;
  const source = cardOf(pending.card);
  const declinable = pending.optional ?? pending.kind === "remove_for_pick";
  return h("div", { class: "panel pending", role: "dialog", "aria-label": term("when_picked"), dataset: { count: String(pending.count) } }, words,
    source.effect ? h("p", {}, h("strong", {}, `${source.name}: `), source.effect) : null,
    h("p", { class: "muted" }, plural(pending.count, ngettext("Tick %(count)s card below (%(ticked)s ticked).",
      "Tick %(count)s cards below (%(ticked)s ticked).", pending.count), { ticked: num(count) }),
    itself >= 0 ? [" ", fmt(gettext("%(card)s cannot pay for its own effect."), { card: source.name })] : "",
    others.length ? [" ", plural(others.length, ngettext("%(cards)s cannot pay: it does not fit what %(card)s asks for.",
      "%(cards)s cannot pay: they do not fit what %(card)s asks for.", others.length),
    { cards: list(others.map((card) => cardOf(card.card).name)), card: source.name })] : ""),
    eligible.length ? h("div", { class: "card-grid small" }, eligible.map((card) => tickable(page, card, gettext("Pay with"))))
      : h("p", {}, gettext("No card of your deck can pay for this effect.")),
    h("div", { class: "row" },
      h("button", { class: "primary", "data-key": "resolve", disabled: count !== pending.count,
        onclick: () => send(page, "draft/resolve/", { cards: ticked(page).filter((uid) => payable.has(uid)) }) }, gettext("Confirm")),
      declinable ? h("button", { "data-key": "decline",
        onclick: () => send(page, "draft/resolve/", { cards: [] }) }, gettext("Decline")) : null));
}

function finishPart(page, actions) {
  if (!actions.includes("finish")) return null;
  const count = ticked(page).length;
  return h("div", { class: "finish" }, h("h3", {}, gettext("Your deck is ready?")),
    h("p", { class: "muted" }, gettext("Tick cards to remove them from your deck (optional), then finish.")),
    h("div", { class: "card-grid small" }, page.me.deck.map((card) => tickable(page, card, gettext("Remove")))),
    h("div", { class: "row" },
      h("button", { "data-key": "remove", disabled: count === 0,
        onclick: () => send(page, "deck/remove/", { cards: ticked(page) }) }, plural(count, ngettext("Remove %(count)s ticked", "Remove %(count)s ticked", count))),
      h("button", { class: "primary", "data-key": "finish", onclick: () => send(page, "deck/finish/") }, gettext("Finish my deck"))));
}

export function draftPanel(page) {
  const v = page.view;
  const turn = page.me.turn;
  const actions = page.me.actions;
  const waiting = v.seats.filter((seat) => seat.finished === false).map((seat) => seat.name);
  return h("section", { class: "panel draft", "aria-label": term("deck_phase") },
    h("h2", {}, v.is_final ? gettext("Deck Phase of the Final")
      : fmt(gettext("Deck Phase of round %(round)s"), { round: num(v.round) }),
    v.phase_deadline ? h("span", { class: "deadline" }, " · ", countdown(v.phase_deadline)) : null),
    turn.finished ? h("p", { class: "done", role: "status" },
      turn.auto_played ? gettext("You finished this Deck Phase (the deadline finished it for you).") : gettext("You finished this Deck Phase."),
      waiting.length ? [" ", fmt(gettext("Waiting for %(names)s."), { names: list(waiting) })] : "") : [
      optionsPart(page, turn, actions),
      turn.pending ? pendingPart(page, turn.pending) : displayPart(page, turn, actions),
      turn.picked.length ? h("p", { class: "muted" }, gettext("Picked this phase:"), " ",
        list(turn.picked.map((card) => cardOf(card.card).name), true)) : null,
      turn.pending ? null : finishPart(page, actions)]);
}
