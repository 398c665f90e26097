// One match on the table: its state rebuilt from match events, drawn, and played step by step.
import { get } from "./api.js";
import { h, cardOf, mount, trophy, countdown, plural } from "./ui.js";
import { fmt, labelled, num, term, parkName, capitalised } from "./i18n.js";
import { newBoard, fold } from "./fold.js";

/* global gettext, ngettext */


/** The table after some events: the board's state as the events state it (fold.js, also run
 * in node by tests/frontend) and the log in words. `names` names the sides ({A: "Ann", B: "Bob"}). */
export class Table {
  constructor(names = {}) {
    this.board = newBoard();
    this.sides = this.board.sides;
    this.keys = this.board.keys;
    this.names = names;
    this.last = null;
    this.log = [];
  }

  get kind() { return this.board.kind; }
  get winner() { return this.board.winner; }
  get reason() { return this.board.reason; }

  who(side) { return this.names[side] ?? fmt(gettext("Side %(side)s"), { side }); }

  apply(event) {
    const p = event.payload;
    if (!p) return;
    this.last = p;
    fold(this.board, event.kind, p);
    const handler = this[`on_${event.kind}`];
    if (handler) handler.call(this, p);
  }

  name(uid) {
    const key = this.keys.get(uid);
    return key ? cardOf(key).name : gettext("a card");
  }

  say(text) { this.log.push(text); }

  on_start(p) {
    const round = p.final ? gettext("The Final") : fmt(gettext("Round %(round)s"), { round: num(p.round) });
    this.say(this.kind === "winter" ? `${round}, ${term("winter_park")}.` : `${round}.`);
  }
  on_flag_toss(p) { this.say(fmt(gettext("%(name)s wins the flag toss and opens."), { name: this.who(p.side) })); }
  on_reveal(p) {
    this.say(fmt(gettext("%(name)s reveals %(card)s."), { name: this.who(p.side), card: this.name(p.card) }));
  }
  on_attack(p) {
    this.say(fmt(gettext("%(name)s attacks: %(card)s has power %(power)s, %(total)s in all against %(defence)s."),
      { name: this.who(p.side), card: this.name(p.card), power: num(p.power), total: num(p.total), defence: num(p.defence) }));
  }
  on_flag(p) {
    this.say(fmt(gettext("%(card)s takes the flag for %(name)s."), { card: this.name(p.card), name: this.who(p.side) }));
  }
  on_benched(p) {
    this.say(fmt(gettext("%(card)s goes to %(name)s's bench, seat %(seat)s."),
      { card: this.name(p.card), name: this.who(p.side), seat: num(p.seat + 1) }));
  }
  on_frozen(p) {
    this.say(fmt(gettext("%(card)s freezes in %(name)s's frozen seat %(seat)s."),
      { card: this.name(p.card), name: this.who(p.side), seat: num(p.seat + 1) }));
  }
  on_exhausted(p) {
    this.say(fmt(gettext("%(card)s goes to %(name)s's exhaust pile."), { card: this.name(p.card), name: this.who(p.side) }));
  }
  on_moved(p) {
    this.say(fmt(p.to === "deck_top" ? gettext("%(card)s goes back on top of %(name)s's deck.")
      : gettext("%(card)s goes back to the bottom of %(name)s's deck."), { card: this.name(p.card), name: this.who(p.side) }));
  }
  on_added(p) {
    this.say(fmt(gettext("%(name)s takes a card from pile %(pile)s."), { name: this.who(p.side), pile: p.pile }));
  }
  on_removed(p) {
    this.say(fmt(gettext("%(card)s is removed from the game."), { card: this.name(p.card) }));
  }
  on_effect(p) {
    const card = cardOf(this.keys.get(p.card) ?? "");
    const words = effectWords(card);
    this.effect = { text: labelled(this.name(p.card), words), at: this.log.length };
    this.say(fmt(gettext("%(name)s's %(card)s: %(effect)s"), { name: this.who(p.side), card: this.name(p.card), effect: words }));
  }
  on_fans(p) {
    this.say(plural(p.n, ngettext("%(name)s gains %(count)s fan through %(card)s.", "%(name)s gains %(count)s fans through %(card)s.", p.n),
      { name: this.who(p.side), card: this.name(p.card) }));
  }
  on_question(p) {
    this.say(fmt(gettext("%(name)s was asked: %(question)s."),
      { name: this.who(p.side), question: QUESTION_WORDS[p.q_kind] ?? gettext("a card question") }));
  }
  on_answer(p) { this.say(fmt(gettext("%(name)s answered."), { name: this.who(p.side) })); }
  on_arranged(p) { this.say(fmt(gettext("%(card)s rearranged %(name)s's deck."), { card: this.name(p.card), name: this.who(p.side) })); }
  on_end(p) {
    this.say(fmt(gettext("%(name)s wins: %(reason)s."), { name: this.who(p.winner), reason: END_WORDS[p.reason] ?? p.reason.replaceAll("_", " ") }));
  }
}

const QUESTION_WORDS = {
  bench_to_exhaust: gettext("which bench cards go to the exhaust pile"),
  bench_to_deck_top: gettext("which bench cards go on top of the deck"),
  bench_remove: gettext("which bench cards leave the game"), seat_to_exhaust: gettext("which bench seat to empty"),
  power_per_card_in_seat: gettext("which bench seat counts"), search_deck: gettext("which deck card to take"),
  arrange_top: gettext("how to order the top of the deck"), peek_move: gettext("top or bottom of the deck"),
  exhaust_to_deck: gettext("which exhausted card goes back"), freeze: gettext("freeze or bench"),
};

/** Why a match ended, in words (the engine's `end.reason` codes). */
export const END_WORDS = {
  empty_deck: gettext("the other side had no card left to attack with"), bench_full: gettext("the other bench had no free seat"),
  troll_no_seats: gettext("a Troll found no two free seats on the other bench"),
};

/** What a card's effect does, in the card's own printed words (the catalogue is the one table). */
export function effectWords(card) {
  if (card.effect) return card.effect;
  return card.effect_code ? `${card.effect_code.replaceAll("_", " ")}.` : gettext("its effect resolves.");
}

function chip(table, uid, fresh) {
  const key = table.keys.get(uid);
  const card = key ? cardOf(key) : null;
  return h("span", { class: `chip ${uid === fresh ? "fresh" : ""}`, "data-card": String(uid), title: card?.effect ? labelled(card.name, card.effect) : null },
    card ? h("b", {}, card.power_is_round ? "R" : card.power) : null, " ", card ? card.name : gettext("a face-down card"));
}

function sideView(table, side, seat, fresh) {
  const s = table.sides[side];
  const name = seat?.name ?? side;
  // Every value drawn here is one an event stated (fold.js): none is worked out from the cards.
  const { defence, total } = table.board;
  const [flag = null, ...under] = s.stack;
  const slots = s.bench.map((cards, i) => h("li", { class: cards.length ? "full" : s.held[i] !== null ? "full held" : "" },
    h("span", { class: "slot" }, i + 1), cards.map((uid) => chip(table, uid, fresh)),
    s.held[i] !== null ? h("span", { class: "muted small" },
      fmt(gettext("held by %(card)s (seat %(seat)s)"), { card: table.name(s.bench[s.held[i]][0]), seat: num(s.held[i] + 1) })) : null));
  const frozen = table.kind === "winter" ? h("div", { class: "frozen" }, h("h5", {}, gettext("Frozen seats")),
    h("ul", {}, s.frozen.map((cards, i) => h("li", {}, h("span", { class: "slot" }, `❄${i + 1}`),
      cards.map((uid) => chip(table, uid, fresh)))))) : null;
  const counted = s.attack.length > 0 && total !== null && defence !== null;
  return h("section", { class: `side side-${side} ${table.winner === side ? "winner" : ""}`,
    "aria-label": fmt(gettext("%(name)s's side"), { name }) },
  h("h4", {}, h("span", { class: "seat-name" }, name),
    s.fans ? h("span", { class: "fans" }, " ", plural(s.fans, ngettext("+%(count)s fan", "+%(count)s fans", s.fans))) : null,
    table.winner === side ? h("span", { class: "trophy" }, " ", trophy(gettext("wins the trophy"))) : null),
  s.deck !== null ? h("p", { class: "deck-left" }, plural(s.deck, ngettext("Deck: %(count)s card left", "Deck: %(count)s cards left", s.deck))) : null,
  h("div", { class: "flagzone" },
    h("div", { class: "flag" }, h("span", { class: "label" }, gettext("Flag")),
      flag !== null ? chip(table, flag, fresh) : h("span", { class: "muted" }, "—"),
      under.length ? h("span", { class: "muted" }, " ",
        plural(under.length, ngettext("with %(count)s card under it", "with %(count)s cards under it", under.length))) : null,
      flag !== null && defence !== null ? h("span", { class: "defence" }, " ",
        fmt(gettext("defence %(defence)s"), { defence: num(defence) })) : null),
    s.attack.length ? h("div", { class: "attack" }, h("span", { class: "label" }, gettext("Attack")),
      s.attack.map((uid) => chip(table, uid, fresh)),
      counted ? h("span", { class: "total" }, " ",
        fmt(gettext("total %(total)s / %(defence)s"), { total: num(total), defence: num(defence) })) : null) : null,
    counted ? h("div", { class: "meter", role: "img",
      "aria-label": fmt(gettext("attack %(total)s of %(defence)s"), { total: num(total), defence: num(defence) }) },
    h("span", { style: { width: `${Math.min(100, (100 * total) / Math.max(1, defence))}%` } })) : null),
  h("div", { class: "bench" }, h("h5", {}, gettext("Bench")), h("ol", {}, slots)),
  frozen,
  h("div", { class: "exhaust" }, h("h5", {}, fmt(gettext("Exhaust pile (%(count)s)"), { count: num(s.exhaust.length) })),
      s.exhaust.map((uid) => chip(table, uid, fresh))),
  );
}

/** Plays a match's events at a pace the viewer sets, live (polling) or as a replay. */
export class Board {
  constructor(match, { live = true, pace = 600 } = {}) {
    this.match = match;
    this.events = [];
    this.shown = 0;
    this.live = live;
    this.pace = pace;
    this.speed = 1;
    this.playing = live;
    this.element = h("div", { class: "board", dataset: { match: String(match.id) } });
    this.timer = null;
    this.reading = null; // the events read under way, if any
  }

  get complete() { return this.events.some((event) => event.kind === "end"); }

  async poll() {
    if (this.reading || this.complete) return;
    this.reading = this.read();
    try {
      await this.reading;
    } finally {
      this.reading = null;
    }
    this.schedule();
  }

  async read() {
    const after = this.events.length;
    const frames = await get(`matches/${this.match.id}/events/?after=${after}`, this.token);
    this.events.push(...frames.filter((frame) => frame.seq > this.events.length));
    if (this.live && after === 0 && this.match.status === "finished") this.shown = this.events.length;
  }

  /** Read every event released so far and show them all at once: the match's end, or the
   * situation a question is about before its prompt opens. A read already under way may have
   * been sent before the last of them was released, so one more read follows it. */
  async catchUp() {
    await this.reading?.catch(() => {}); // that read's own caller reports its failure
    await this.poll();
    this.toEnd();
  }

  schedule() {
    if (this.timer || !this.playing || this.shown >= this.events.length) {
      this.draw();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.shown = Math.min(this.events.length, this.shown + 1);
      this.draw();
      this.schedule();
    }, this.pace / this.speed / (1 + (this.events.length - this.shown) / 10));
  }

  step(by) {
    this.playing = false;
    this.shown = Math.max(0, Math.min(this.events.length, this.shown + by));
    this.draw();
  }

  toEnd() { this.shown = this.events.length; this.draw(); }

  table() {
    const names = Object.fromEntries(this.match.seats.map((seat) => [seat.side, seat.name]));
    const table = new Table(names);
    for (const event of this.events.slice(0, this.shown)) table.apply(event);
    return table;
  }

  /** Where a replay stands: a slider over every event (the timeline) and its count in words. */
  timeline() {
    const id = `timeline-${this.match.id}`;
    return h("div", { class: "timeline" },
      h("label", { for: id }, gettext("Replay position")),
      h("input", { type: "range", id, "data-key": id, min: 0, max: this.events.length, value: this.shown,
        oninput: (e) => { this.playing = false; this.shown = Number(e.target.value); this.draw(); } }));
  }

  /** "event 12 of 40", or who the match waits for while it is stopped at a question. */
  position() {
    if (this.waiting && this.shown >= this.events.length) {
      // The clock sits inside the sentence: the catalogue's text is split at its placeholder.
      const [before, after] = fmt(gettext("Waiting for %(name)s (%(time)s) to answer a card question"),
        { name: this.waiting, time: "\u0000" }).split("\u0000");
      return h("span", { class: "waiting", role: "status" }, this.waitingUntil
        ? [before, countdown(this.waitingUntil, true), after]
        : fmt(gettext("Waiting for %(name)s to answer a card question"), { name: this.waiting }));
    }
    if (!this.events.length && !this.complete) return h("span", { class: "muted" }, " ", gettext("The match is about to be played."));
    return h("span", { class: "muted" }, " ", fmt(gettext("event %(shown)s of %(count)s"), { shown: num(this.shown), count: num(this.events.length) }),
      this.complete ? "" : "…");
  }

  draw(force = false) {
    if (!force && !this.element.isConnected && this.drawn) return;
    this.drawn = true;
    const table = this.table();
    const seats = Object.fromEntries(this.match.seats.map((seat) => [seat.side, seat]));
    const fresh = table.last?.card ?? null;
    const id = this.match.id;
    const controls = h("div", { class: "controls", role: "group", "aria-label": gettext("Playback") },
      this.live ? null : h("button", { onclick: () => this.step(-1), "data-key": `back-${id}` }, "◀ ", gettext("Step back")),
      h("button", { "data-key": `play-${id}`, onclick: () => { this.playing = !this.playing; this.schedule(); } },
        this.playing ? gettext("Pause") : gettext("Play")),
      this.live ? null : h("button", { onclick: () => this.step(1), "data-key": `fwd-${id}` }, gettext("Step"), " ▶"),
      h("label", {}, gettext("Speed"), " ", h("select", { "data-key": `speed-${id}`,
        onchange: (e) => { this.speed = Number(e.target.value); } },
        [1, 2, 4, 8].map((n) => h("option", { value: n, selected: n === this.speed }, `${n}×`)))),
      h("button", { onclick: () => this.toEnd(), "data-key": `end-${id}` }, gettext("Skip to end")),
      this.position());
    const result = table.winner ? h("p", { class: "result", role: "status" },
      trophy(), " ", fmt(gettext("%(name)s wins the trophy of the %(park)s"),
        { name: seats[table.winner]?.name ?? table.winner, park: parkName(this.match.park) })) : null;
    const log = (this.live ? table.log.slice(-8) : table.log).slice().reverse();
    mount(this.element,
      h("h3", {}, h("span", { class: `park park-${this.match.park}`, "aria-hidden": "true" }),
        h("span", { class: "park-name" }, capitalised(parkName(this.match.park))),
        table.kind === "winter" ? ` ❄ ${term("winter_park")}` : "", " — ",
        fmt(gettext("%(a)s vs %(b)s"), { a: seats.A?.name ?? "A", b: seats.B?.name ?? "B" })),
      controls, this.live ? null : this.timeline(), result,
      table.effect && table.log.length - table.effect.at <= 3
        ? h("p", { class: "effect-banner", role: "status" }, "✦ ", table.effect.text) : null,
      h("div", { class: "sides" }, sideView(table, "A", seats.A, fresh), sideView(table, "B", seats.B, fresh)),
      h("h4", { class: "log-title" }, this.live ? gettext("Latest moves")
        : plural(table.log.length, ngettext("The whole log (%(count)s line, newest first)", "The whole log (%(count)s lines, newest first)",
          table.log.length))),
      h("ul", { class: `log ${this.live ? "" : "full"}`, "aria-label": gettext("Match log"), tabindex: this.live ? null : "0" },
        log.map((line) => h("li", {}, line))),
    );
  }
}
