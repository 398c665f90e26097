// One match on the table: its state rebuilt from match events, drawn, and played step by step.
import { get } from "./api.js";
import { h, cardOf, mount, trophy } from "./ui.js";

const other = (side) => (side === "A" ? "B" : "A");

function emptySide() {
  return { flag: null, under: [], attack: [], bench: [[], [], [], [], [], []], frozen: [[], []],
    exhaust: [], fans: 0, total: null, defence: null };
}

/** The table after some events: flags, attacks, benches, frozen seats, exhaust piles. */
export class Table {
  constructor() {
    this.sides = { A: emptySide(), B: emptySide() };
    this.keys = new Map();
    this.kind = "normal";
    this.winner = null;
    this.reason = null;
    this.last = null;
    this.log = [];
  }

  take(side, uid) {
    const place = this.sides[side];
    for (const list of [place.attack, place.under, place.exhaust, ...place.bench, ...place.frozen]) {
      const at = list.indexOf(uid);
      if (at >= 0) list.splice(at, 1);
    }
    if (place.flag === uid) place.flag = null;
  }

  apply(event) {
    const p = event.payload;
    if (!p) return;
    this.last = p;
    if (p.key !== undefined && p.card !== undefined) this.keys.set(p.card, p.key);
    const handler = this[`on_${event.kind}`];
    if (handler) handler.call(this, p, p.side && this.sides[p.side]);
  }

  name(uid) {
    const key = this.keys.get(uid);
    return key ? cardOf(key).name : "a card";
  }

  say(text) { this.log.push(text); }

  on_start(p) {
    this.kind = p.match_kind ?? p.park;
    this.say(`Round ${p.round}${p.final ? " — the Final" : ""}${this.kind === "winter" ? ", Winter Park" : ""}.`);
  }
  on_flag_toss(p) { this.say(`Side ${p.side} wins the flag toss.`); }
  on_reveal(p, s) {
    s.attack.push(p.card);
    this.say(`${p.side} reveals ${this.name(p.card)}.`);
  }
  on_attack(p, s) {
    s.total = p.total;
    s.defence = p.defence;
    this.say(`${p.side} attacks: ${this.name(p.card)} power ${p.power}, total ${p.total} against ${p.defence}.`);
  }
  on_flag(p, s) {
    const o = this.sides[other(p.side)];
    o.flag = null; o.under = []; o.total = null; o.defence = null;
    s.attack = []; s.flag = p.card; s.under = [...p.under]; s.total = null;
    s.defence = p.power ?? s.defence;
    this.say(`${this.name(p.card)} takes the flag for ${p.side}.`);
  }
  on_benched(p, s) {
    this.take(p.side, p.card);
    s.bench[p.seat].push(p.card);
    this.say(`${this.name(p.card)} goes to ${p.side}'s bench, seat ${p.seat + 1}.`);
  }
  on_frozen(p, s) {
    this.take(p.side, p.card);
    s.frozen[p.seat].push(p.card);
    this.say(`${this.name(p.card)} freezes in ${p.side}'s frozen seat ${p.seat + 1}.`);
  }
  on_exhausted(p, s) {
    this.take(p.side, p.card);
    s.exhaust.push(p.card);
    this.say(`${this.name(p.card)} goes to ${p.side}'s exhaust pile.`);
  }
  on_moved(p) {
    this.take(p.side, p.card);
    this.say(`${this.name(p.card)} goes back to ${p.side}'s deck (${p.to === "deck_top" ? "top" : "bottom"}).`);
  }
  on_added(p, s) {
    if (p.to === "exhaust") s.exhaust.push(p.card);
    this.say(`${p.side} takes a card from pile ${p.pile}.`);
  }
  on_removed(p) {
    this.take(p.side, p.card);
    this.say(`${this.name(p.card)} is removed from the game.`);
  }
  on_effect(p) {
    this.effect = { text: `${this.name(p.card)}: ${p.code.replaceAll("_", " ")}`, at: this.log.length };
    this.say(`Effect: ${this.name(p.card)} — ${p.code.replaceAll("_", " ")}.`);
  }
  on_fans(p, s) {
    s.fans = p.total;
    this.say(`${p.side} gains ${p.n} fan${p.n === 1 ? "" : "s"} through ${this.name(p.card)}.`);
  }
  on_question(p) { this.say(`You were asked (${p.q_kind.replaceAll("_", " ")}).`); }
  on_answer(p) { this.say(`You answered ${JSON.stringify(p.answer)}.`); }
  on_arranged(p) { this.say(`${this.name(p.card)} rearranged your deck.`); }
  on_end(p) {
    this.winner = p.winner;
    this.reason = p.reason;
    this.say(`${p.winner} wins (${p.reason.replaceAll("_", " ")}).`);
  }
}

function chip(table, uid, fresh) {
  const key = table.keys.get(uid);
  const card = key ? cardOf(key) : null;
  return h("span", { class: `chip ${uid === fresh ? "fresh" : ""}` },
    card ? h("b", {}, card.power_is_round ? "R" : card.power) : null, " ", card ? card.name : "?");
}

function sideView(table, side, seat, fresh) {
  const s = table.sides[side];
  const slots = s.bench.map((cards, i) => h("li", { class: cards.length ? "full" : "" },
    h("span", { class: "slot" }, i + 1), cards.map((uid) => chip(table, uid, fresh))));
  const frozen = table.kind === "winter" ? h("div", { class: "frozen" }, h("h5", {}, "Frozen seats"),
    h("ul", {}, s.frozen.map((cards, i) => h("li", {}, h("span", { class: "slot" }, `❄${i + 1}`),
      cards.map((uid) => chip(table, uid, fresh)))))) : null;
  const attacking = s.attack.length > 0;
  return h("section", { class: `side side-${side} ${table.winner === side ? "winner" : ""}` },
    h("h4", {}, seat?.name ?? side, " ", h("span", { class: "muted" }, `side ${side}`),
      s.fans ? h("span", { class: "fans" }, ` +${s.fans} fans`) : null,
      table.winner === side ? h("span", { class: "trophy" }, " ", trophy("wins the trophy")) : null),
    h("div", { class: "flagzone" },
      h("div", { class: "flag" }, h("span", { class: "label" }, "Flag"),
        s.flag !== null ? chip(table, s.flag, fresh) : h("span", { class: "muted" }, "—"),
        s.under.length ? h("span", { class: "muted" }, ` +${s.under.length} below`) : null,
        s.flag !== null && s.defence !== null ? h("span", { class: "defence" }, ` defence ${s.defence}`) : null),
      attacking ? h("div", { class: "attack" }, h("span", { class: "label" }, "Attack"),
        s.attack.map((uid) => chip(table, uid, fresh)),
        s.total !== null ? h("span", { class: "total" }, ` total ${s.total} / ${s.defence}`) : null) : null,
      attacking && s.total !== null ? h("div", { class: "meter", role: "img", "aria-label": `attack ${s.total} of ${s.defence}` },
        h("span", { style: `width: ${Math.min(100, (100 * s.total) / Math.max(1, s.defence))}%` })) : null),
    h("div", { class: "bench" }, h("h5", {}, "Bench"), h("ol", {}, slots)),
    frozen,
    h("div", { class: "exhaust" }, h("h5", {}, `Exhaust pile (${s.exhaust.length})`),
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
    this.polling = false;
  }

  get complete() { return this.events.some((event) => event.kind === "end"); }

  async poll() {
    if (this.polling || this.complete) return;
    this.polling = true;
    try {
      const after = this.events.length;
      const frames = await get(`matches/${this.match.id}/events/?after=${after}`, this.token);
      this.events.push(...frames.filter((frame) => frame.seq > this.events.length));
      if (this.live && after === 0 && this.match.status === "finished") this.shown = this.events.length;
    } finally {
      this.polling = false;
    }
    this.schedule();
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
    const table = new Table();
    for (const event of this.events.slice(0, this.shown)) table.apply(event);
    return table;
  }

  draw(force = false) {
    if (!force && !this.element.isConnected && this.drawn) return;
    this.drawn = true;
    const table = this.table();
    const seats = Object.fromEntries(this.match.seats.map((seat) => [seat.side, seat]));
    const fresh = table.last?.card ?? null;
    const controls = h("div", { class: "controls", role: "group", "aria-label": "Playback" },
      this.live ? null : h("button", { onclick: () => this.step(-1), "data-key": `back-${this.match.id}` }, "◀ Step back"),
      h("button", { "data-key": `play-${this.match.id}`, onclick: () => { this.playing = !this.playing; this.schedule(); } },
        this.playing ? "Pause" : "Play"),
      this.live ? null : h("button", { onclick: () => this.step(1), "data-key": `fwd-${this.match.id}` }, "Step ▶"),
      h("label", {}, "Speed ", h("select", { "data-key": `speed-${this.match.id}`,
        onchange: (e) => { this.speed = Number(e.target.value); } },
        [1, 2, 4, 8].map((n) => h("option", { value: n, selected: n === this.speed }, `${n}×`)))),
      h("button", { onclick: () => this.toEnd(), "data-key": `end-${this.match.id}` }, "Skip to end"),
      h("span", { class: "muted" }, ` event ${this.shown} of ${this.events.length}${this.complete ? "" : "…"}`));
    const result = table.winner ? h("p", { class: "result", role: "status" },
      trophy(), ` ${seats[table.winner]?.name ?? table.winner} wins the ${this.match.park} trophy`) : null;
    mount(this.element,
      h("h3", {}, h("span", { class: `park park-${this.match.park}` }), h("span", { class: "park-name" }, `${this.match.park} park`),
        table.kind === "winter" ? " ❄ Winter" : "", ` — ${seats.A?.name} vs ${seats.B?.name}`),
      controls, result,
      this.waiting ? h("p", { class: "waiting", role: "status" }, `Waiting for ${this.waiting} to answer a card question…`) : null,
      table.effect && table.log.length - table.effect.at <= 3
        ? h("p", { class: "effect-banner", role: "status" }, "✦ ", table.effect.text) : null,
      h("div", { class: "sides" }, sideView(table, "A", seats.A, fresh), sideView(table, "B", seats.B, fresh)),
      h("ul", { class: "log", "aria-label": "Match log" },
        table.log.slice(-6).reverse().map((line) => h("li", {}, line))),
    );
  }
}
