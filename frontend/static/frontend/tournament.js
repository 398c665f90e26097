// A tournament as one viewer sees it: lobby, Deck Phase, live matches, questions, standings.
import { get, post, request, follow, seatOf, forgetSeat } from "./api.js";
import { h, mount, afterDraw, attempt, showError, clearErrors, cardTile, cardOf, countdown, trophy, plural } from "./ui.js";
import { Board } from "./board.js";
import { fmt, labelled, num, list, term, setName, parkName, roundName, named, capitalised, gameName } from "./i18n.js";
import { ChatPanel } from "./chat.js";
import { draftPanel } from "./draft.js";
import { questionPanel, forgetQuestions, announce, unannounce, soundToggle } from "./question.js";
import { scheduleOf, schedulePanel, stageOf, reasonWords, checkInAs } from "./checkin.js";
import { correctedMark } from "./corrections.js";
import { roundsPath } from "./rounds.js";

/* global gettext, ngettext */

const BOT_LEVELS = { rookie: gettext("rookie"), steady: gettext("steady"), champion: gettext("champion") };
const WINTER_WORDS = { normal: gettext("one park each round"), all: gettext("every park") };
const parkColour = (park) => ({ green: gettext("green"), red: gettext("red"), purple: gettext("purple"),
  yellow: gettext("yellow") })[park] ?? park;
const PROGRESS_WORDS = { chose: gettext("chose an option"), drew: gettext("drew a display"), redrew: gettext("redrew the display"),
  picked: gettext("picked a card"), removed: gettext("removed cards"), finished: gettext("finished the deck") };
// Stream events told in the activity list by their kind alone.
const KIND_WORDS = { tournament_started: gettext("The tournament started."), seat_dropped: gettext("A bot took over a seat."),
  seat_reclaimed: gettext("A player took their seat back."), tournament_cancelled: gettext("The game was cancelled."),
  match_retried: gettext("A match was played again after a server error."),
  match_failed: gettext("A match could not be played: the game waits for an operator."),
  seed_revealed: gettext("The seed is revealed."), seat_settings: gettext("Your settings were saved.") };
/** How often a scheduled lobby reads its check-ins again: while check-in is open, and before. */
const CHECKIN_POLL_MS = 3000;
const SCHEDULE_POLL_MS = 30000;
/** A board's live pace (ms per event): the server's default release pace (MATCH_EVENT_PACE_MS),
 * so a board keeps up with the stream instead of trailing it; tests set a fast one in localStorage. */
const PACE = Number(localStorage.getItem("challengers.pace")) || 250;

export function showTournament(container, id) {
  const page = new TournamentPage(container, id);
  page.start();
  return () => page.stop();
}

/** How a seat is described in lists: a bot with its strength, a dropped seat with its stand-in;
 * nothing for the Robot, whose name says what it is (not "The Robot (Robot)"). */
function seatKind(seat) {
  const level = BOT_LEVELS[seat.bot_level ?? "rookie"] ?? seat.bot_level;
  if (seat.kind === "bot") return fmt(gettext("bot, %(level)s"), { level });
  if (seat.kind === "robot") return "";
  const kind = { human: gettext("player") }[seat.kind] ?? seat.kind;
  if (seat.dropped) return fmt(gettext("%(kind)s, played by a %(level)s bot"), { kind, level });
  return kind;
}

/** " (what the seat is)", or nothing when there is nothing to add. */
function seatNote(text) {
  return text ? ` (${text})` : "";
}

/** The order of reads sent one after another: an answer older than one already used is stale
 * (answers may cross: a list read before a question was asked can arrive after the question). */
class Reads {
  sent = 0;
  used = 0;

  ticket() { return ++this.sent; }

  /** Whether the answer to `ticket` is the newest so far (then it is used). */
  fresh(ticket) {
    if (ticket < this.used) return false;
    this.used = ticket;
    return true;
  }

  /** Every read sent so far is stale (what it would answer is known to be over). */
  settle() { this.used = ++this.sent; }
}

class TournamentPage {
  constructor(container, id) {
    this.id = id;
    this.token = seatOf(id)?.token ?? null;
    this.view = null;
    this.matches = [];
    this.boards = new Map();
    this.waits = new Map(); // match id → whom it waits for and until when (match_waiting)
    this.question = null;
    this.questionReads = new Reads(); // reads that may open or close the prompt
    this.listReads = new Reads();
    this.activity = [];
    this.parkFilter = "all";
    this.parts = {
      head: h("div", { class: "t-head" }), question: h("div", {}), phase: h("div", {}),
      matches: h("section", { class: "matches", "aria-label": gettext("Matches") }),
      standings: h("aside", { class: "standings panel", "aria-label": gettext("Standings") }),
      activity: h("ul", { class: "activity", "aria-label": gettext("What happened") }),
    };
    this.parts.main = h("div", { class: "t-main" }, this.parts.phase, this.parts.matches);
    this.chat = new ChatPanel(this);
    mount(container, this.parts.head, this.parts.question,
      h("div", { class: "t-grid" },
        this.parts.main,
        h("div", { class: "t-side" }, this.parts.standings, this.chat.element,
          h("section", { class: "panel" }, h("h2", {}, gettext("Activity")), this.parts.activity))));
  }

  async start() {
    await this.refresh();
    if (this.view?.league) this.loadSchedule(); // only a league tournament has a scheduled start
    await this.loadMatches();
    this.unfollow = follow(this.id, this.token, (frame) => this.onFrame(frame));
    this.poller = setInterval(() => this.pollBoards(), 1500);
    // The stream drives the page; a slow read now and then is a safety net should a frame be missed.
    this.safety = setInterval(() => this.refresh(), 10000);
  }

  stop() {
    this.unfollow?.();
    clearInterval(this.poller);
    clearInterval(this.safety);
    clearTimeout(this.pending);
    clearTimeout(this.scheduleTimer);
    this.stopped = true;
  }

  /** Read the scheduled start (a league tournament's, if any) and keep reading it while it is
   * pending: who checked in changes no stream event, and an organizer may move the start. */
  async loadSchedule() {
    clearTimeout(this.scheduleTimer);
    let schedule;
    try {
      schedule = await scheduleOf(this.id, this.token);
    } catch (error) {
      return showError(error);
    }
    if (this.stopped) return undefined;
    this.schedule = schedule;
    if (schedule && !schedule.outcome) {
      const stage = stageOf(schedule);
      this.scheduleTimer = setTimeout(() => this.loadSchedule(), stage === "before" ? SCHEDULE_POLL_MS : CHECKIN_POLL_MS);
    }
    if (this.view) this.renderPhase();
    return undefined;
  }

  async checkIn() {
    await checkInAs(this.id, this.token);
    await this.loadSchedule();
  }

  get me() { return this.view?.you ?? null; }

  name(seat) {
    return this.view?.seats.find((s) => s.number === seat)?.name ?? (seat === -1 ? gettext("The Robot") : fmt(gettext("Seat %(seat)s"), { seat: num(seat + 1) }));
  }

  /** Run an action of this seat; a refusal is shown in words; `stale` reads the view again. */
  async act(path, body = {}, method = "POST") {
    try {
      const view = await request(method, `tournaments/${this.id}/${path}`, { body, token: this.token });
      this.setView(view);
      return view;
    } catch (error) {
      showError(error);
      if (error.status === 409 || error.code === "stale") await this.refresh();
      return null;
    }
  }

  /** Post to this tournament as this seat (the chat's actions: they do not change the view). */
  post(path, body) {
    return post(`tournaments/${this.id}/${path}`, body, this.token);
  }

  async refresh() {
    try {
      this.setView(await get(`tournaments/${this.id}/`, this.token));
    } catch (error) {
      if (error.code === "bad_token" && this.token) {
        showError({ message: gettext("Your seat in this game is gone (you left or were removed): you now watch it.") });
        return this.watch();
      }
      showError(error);
    }
  }

  /** Go on as a spectator: the seat's token no longer works. */
  watch() {
    forgetSeat(this.id);
    this.token = null;
    for (const board of this.boards.values()) board.token = null;
    this.unfollow?.();
    this.unfollow = follow(this.id, null, (frame) => this.onFrame(frame));
    return this.refresh();
  }

  setView(view) {
    // Answers may cross (a refresh sent before an action's answer arrives after it): keep the newest.
    if (this.view && view.version < this.view.version) return;
    this.view = { ...view, seats: named(view.seats) };
    if (view.status === "finished" || view.status === "cancelled") this.question = null; // no prompt outlives its game
    document.title = `${this.question ? "(!) " : ""}${fmt(gettext("Challengers! — %(page)s"), { page: gameName(view.id, view.title) })}`;
    if (view.status === "finished" && view.league && this.leagueResult === undefined) this.loadLeagueResult();
    this.render();
  }

  /** A finished league game's result as its league recorded it (corrections applied), read once:
   * a corrected game names its corrected champion, and why. */
  async loadLeagueResult() {
    this.leagueResult = null;
    const path = `leagues/${encodeURIComponent(this.view.league)}/tournaments/${this.id}/results/`;
    const found = await get(path).catch(() => null);
    if (this.stopped || !found?.corrections.length) return;
    this.leagueResult = found;
    this.render();
  }

  /** The champions' seats: the league's corrected ones, else the game's own. */
  champions() {
    const corrected = this.leagueResult;
    return corrected ? corrected.rows.filter((row) => row.champion).map((row) => row.seat) : this.view.winners;
  }

  later() {
    clearTimeout(this.pending);
    this.pending = setTimeout(() => this.refresh(), 150);
  }

  onFrame(frame) {
    if (frame.type === "error") {
      if (frame.code === "bad_token" && this.token) return this.watch();
      return showError(frame);
    }
    const p = frame.payload;
    if (frame.kind === "tournament_started" || frame.kind === "tournament_cancelled") {
      if (frame.kind === "tournament_cancelled") this.cancelReason = p.reason;
      if (this.schedule && !this.schedule.outcome) this.loadSchedule();
    }
    switch (frame.kind) {
      case "match_event":
        this.boards.get(p.match)?.poll().catch(showError);
        this.wait(p.match, null);
        return;
      case "hidden":
        return;
      case "match_question":
        this.loadQuestion(p.match);
        return;
      case "chat":
        return this.chat.add({ seq: frame.seq, ...p });
      case "chat_mute": {
        const name = p.spectator === undefined ? this.name(p.seat) : this.chat.spectatorName(p.spectator);
        this.note(fmt(p.muted ? gettext("%(name)s was muted in the chat.") : gettext("%(name)s was unmuted in the chat."),
          { name }));
        return this.chat.mute(p, p.muted);
      }
      case "tournament_renamed":
        this.note(fmt(gettext("The game is now called %(name)s."), { name: gameName(this.id, p.title) }));
        break; // the view's title changes: read it again
      case "chat_settings":
        this.note(p.spectator_chat ? gettext("Spectators may now chat.") : gettext("Spectators may no longer chat."));
        break; // the view's options change: read it again
      case "match_phase_opened":
        this.note(fmt(gettext("Match Phase of %(round)s."), { round: roundName(p.round) }));
        this.loadMatches();
        break;
      case "match_waiting":
        this.note(fmt(gettext("%(name)s is answering a card question."), { name: this.name(p.seat) }));
        this.wait(p.match, this.name(p.seat), p.deadline);
        if (p.seat === this.me?.seat) this.loadQuestion(p.match);
        return;
      case "seat_joined":
        this.note(fmt(gettext("%(name)s joined (seat %(seat)s)."), { name: p.name, seat: num(p.seat + 1) }));
        break;
      case "seat_left":
        this.note(fmt(p.reason === "kicked" ? gettext("%(name)s was removed.") : gettext("%(name)s left."), { name: this.name(p.seat) }));
        break;
      case "seat_progress":
        this.note(fmt(gettext("%(name)s: %(did)s."), { name: this.name(p.seat), did: PROGRESS_WORDS[p.did] ?? p.did }));
        break;
      case "match_finished": {
        if (this.question?.match.id === p.match) this.closeQuestion();
        const said = () => this.note(fmt(gettext("%(park)s: %(name)s wins the trophy."),
          { park: capitalised(parkName(p.park)), name: this.name(p.winner) }));
        // A board still replaying the match jumps to its end first: the result is never told
        // in words while the board beside it has not shown it yet (tests/web/test_board_order.py).
        const board = this.boards.get(p.match);
        if (board) board.catchUp().then(said).catch(showError);
        else said();
        this.loadMatches();
        break;
      }
      case "deck_phase_opened":
        this.note(fmt(gettext("Deck Phase of %(round)s."), { round: roundName(p.round) }));
        break;
      case "round_finished":
        // A line of its own: "Round 7 is over.", never "round 7 is over." (the round's name is
        // written for the middle of a sentence).
        this.note(capitalised(fmt(gettext("%(round)s is over."), { round: roundName(p.round) })));
        break;
      case "tournament_finished":
        this.note(gettext("The tournament is over."));
        break;
      default:
        this.note(KIND_WORDS[frame.kind] ?? `${frame.kind.replaceAll("_", " ")}.`);
    }
    this.later();
  }

  note(text) {
    this.activity.push(text);
    if (this.activity.length > 40) this.activity.shift();
    clearTimeout(this.noteTimer);
    this.noteTimer = setTimeout(() => mount(this.parts.activity,
      this.activity.slice(-12).reverse().map((line) => h("li", {}, line))), 100);
  }

  /** Say on a board that its match waits for a seat's answer (`null`: it goes on). */
  wait(matchId, name, deadline = null) {
    this.waits.set(matchId, { name, deadline }); // a frame may come before its board exists
    const board = this.boards.get(matchId);
    if (!board || (board.waiting === name && board.waitingUntil === deadline)) return;
    board.waiting = name;
    board.waitingUntil = deadline;
    board.draw();
  }

  async loadMatches() {
    const [list, asking] = [this.listReads.ticket(), this.questionReads.ticket()];
    const matches = await attempt(() => get(`tournaments/${this.id}/matches/`, this.token));
    if (!matches || !this.listReads.fresh(list)) return;
    const current = this.questionReads.fresh(asking);
    for (const match of matches) match.seats = named(match.seats);
    this.matches = matches;
    const latest = Math.max(0, ...matches.map((m) => m.round));
    for (const match of matches.filter((m) => m.round === latest)) {
      if (!this.boards.has(match.id)) {
        const board = new Board(match, { live: true, pace: PACE });
        board.token = this.token;
        this.boards.set(match.id, board);
      }
      const board = this.boards.get(match.id);
      const known = this.waits.get(match.id);
      if (match.status === "waiting" && known?.name) [board.waiting, board.waitingUntil] = [known.name, known.deadline];
      else if (match.status === "waiting" && !board.waiting) board.waiting = gettext("a player");
      if (match.status === "waiting" && this.me && match.seats.some((s) => s.number === this.me.seat)) {
        this.loadQuestion(match.id);
      }
    }
    const asked = this.question && matches.find((m) => m.id === this.question.match.id);
    const over = !asked || asked.round !== latest || asked.status !== "waiting";
    if (this.question && over && current) this.closeQuestion();
    for (const [matchId] of this.boards) {
      if (!matches.some((m) => m.id === matchId && m.round === latest)) this.boards.delete(matchId);
    }
    this.renderMatches();
    this.pollBoards();
  }

  pollBoards() {
    for (const board of this.boards.values()) if (!board.complete) board.poll().catch(showError);
  }

  async loadQuestion(matchId) {
    if (!this.token) return;
    const ticket = this.questionReads.ticket();
    const match = await attempt(() => get(`matches/${matchId}/`, this.token));
    // The events before a question are out when it is asked: its board shows them all before
    // the prompt opens, so the player answers with the table in view (tests/web/test_question_board.py).
    if (match?.question) await this.boards.get(matchId)?.catchUp().catch(showError);
    if (!this.questionReads.fresh(ticket)) return;
    if (match?.question) this.question = { match, question: match.question };
    else if (this.question?.match.id === matchId) this.question = null;
    this.renderQuestion();
  }

  /** The question is over (a frame or a newer read said so): a read sent before cannot bring
   * its prompt back. */
  closeQuestion() {
    this.questionReads.settle();
    this.question = null;
    this.renderQuestion();
  }

  async answer(matchId, question, answer) {
    const ticket = this.questionReads.ticket();
    try {
      const match = await post(`matches/${matchId}/answer/`, { question: question.seq, answer }, this.token);
      if (!this.questionReads.fresh(ticket)) return;
      this.question = match.question ? { match, question: match.question } : null;
    } catch (error) {
      showError(error);
      if (error.status === 409) this.question = null;
    }
    this.renderQuestion();
  }

  render() {
    this.renderHead();
    this.renderPhase();
    this.renderStandings();
    this.renderQuestion();
    this.chat.render();
  }

  /** The prompt of the open question; a new question clears old errors, takes the focus and is
   * announced (tab title, optional tone); none open closes the prompt. A question already on the
   * page stays as it is: a question never changes, and a redraw would move its controls from
   * under a pointer or a click on its way (every refresh of the view renders). */
  renderQuestion() {
    const asked = this.question;
    const id = asked ? `${asked.match.id}:${asked.question.seq}` : null;
    const fresh = id !== this.shownQuestion;
    if (asked && !fresh) return; // drawn already, or waiting for a press to end (ui.mount)
    this.shownQuestion = id;
    if (fresh) { clearErrors(); forgetQuestions(id); }
    if (!asked) {
      unannounce();
      return mount(this.parts.question);
    }
    mount(this.parts.question, questionPanel(asked, (answer) => this.answer(asked.match.id, asked.question, answer)));
    if (fresh) {
      announce();
      afterDraw(() => this.parts.question.querySelector("form")?.focus());
    }
  }

  renderHead() {
    const v = this.view;
    const o = v.options;
    const status = { lobby: gettext("Lobby"), deck: `${term("deck_phase")} · ${roundName(v.round)}`,
      match: `${term("match_phase")} · ${roundName(v.round)}`, finished: gettext("Finished"), cancelled: gettext("Cancelled") }[v.status];
    mount(this.parts.head,
      h("h1", {}, gameName(v.id, v.title), " ", h("span", { class: `badge status-${v.status}` }, status)),
      h("p", { class: "muted" }, plural(o.seat_count, ngettext("%(count)s seat", "%(count)s seats", o.seat_count)),
        ` · ${setName(o.basic_set)} + ${list(o.additional_sets.map(setName), true)}`,
        o.beach_cup ? ` · ${gettext("Beach Cup")}` : "",
        o.winter_mode !== "off" ? ` · ${labelled(term("winter_park"), WINTER_WORDS[o.winter_mode] ?? o.winter_mode)}` : "",
        o.seat_count % 2 ? ` · ${fmt(gettext("Robot level %(level)s"), { level: num(o.robot_difficulty) })}` : "",
        o.solo_challenge ? ` · ${gettext("solo challenge")}` : "",
        " · ", this.me ? fmt(gettext("you are %(name)s (seat %(seat)s)"), { name: this.me.name, seat: num(this.me.seat + 1) })
          : gettext("you are watching")),
      v.parks.length ? h("p", { class: "parks" }, v.parks.map((park) => h("span", { class: "park-tag" },
        h("span", { class: `park park-${park.name}` }), capitalised(parkName(park.name)), park.winter ? " ❄" : ""))) : null,
      this.me && v.status !== "lobby" && v.status !== "cancelled" ? h("label", { class: "check" },
        h("input", { type: "checkbox", id: "answers-live", "data-key": "answers-live", checked: this.me.answers_live,
          onchange: (e) => this.act("seat/", { answers_live: e.target.checked }, "PATCH") }),
        " ", gettext("Answer my cards' questions myself")) : null,
      this.me && v.status !== "lobby" && v.status !== "cancelled" ? soundToggle() : null);
  }

  renderPhase() {
    const v = this.view;
    this.liveFirst(v.status === "match");
    if (v.status === "lobby") return mount(this.parts.phase, this.schedulePanel(), this.lobbyPanel());
    if (v.status === "cancelled") return mount(this.parts.phase, this.cancelledPanel());
    if (v.status === "finished") return mount(this.parts.phase, this.endPanel());
    const parts = [];
    if (this.me?.actions?.includes("reclaim")) parts.push(this.reclaimPanel());
    else if (this.me?.turn && v.status === "deck") parts.push(draftPanel(this));
    else if (v.status === "deck") parts.push(h("section", { class: "panel" },
      h("h2", {}, fmt(gettext("Deck Phase of %(round)s"), { round: roundName(v.round) })),
      h("p", {}, this.me ? gettext("You take no part in this Deck Phase: the finalists build their decks.")
        : gettext("The players are building their decks."))));
    parts.push(this.progressPanel());
    if (this.me && v.status !== "lobby") parts.push(this.deckPanel());
    mount(this.parts.phase, parts);
  }

  /** During the Match Phase the live boards come first, the players and the deck after them: on
   * a phone the deck alone would push the match more than a screen down. Moved in the document,
   * not only drawn elsewhere, so the reading and tab order follow what is shown. */
  liveFirst(live) {
    const { main, phase, matches } = this.parts;
    const first = live ? matches : phase;
    if (main.firstChild !== first) main.prepend(first);
  }

  progressPanel() {
    const v = this.view;
    return h("section", { class: "panel" }, h("h2", {}, gettext("Players")),
      v.phase_deadline && v.status === "deck" ? h("p", {}, gettext("Deck Phase deadline:"), " ", countdown(v.phase_deadline)) : null,
      h("ul", { class: "seat-list" }, v.seats.map((seat) => h("li", {},
        h("span", { class: "seat-name" }, seat.name), seatNote(seatKind(seat)),
        seat.finished === true ? h("span", { class: "done" }, " ✓ ", gettext("finished"))
          : seat.finished === false ? h("span", { class: "muted" }, " ", gettext("building…")) : null,
        h("span", { class: "muted" }, " · ", fmt(gettext("deck %(size)s"), { size: num(seat.deck_size) }), " · ",
          plural(seat.tokens, ngettext("%(count)s fan token", "%(count)s fan tokens", seat.tokens))),
        seat.auto_played ? h("span", { class: "muted" }, " · ", gettext("deadline played for it")) : null))));
  }

  /** A scheduled start's panel in the lobby (none for a tournament without one). */
  schedulePanel() {
    if (!this.schedule) return null;
    const players = this.view.options.seat_count - this.view.seats.filter((seat) => seat.kind !== "human").length;
    return schedulePanel(this.schedule, { players, onCheckIn: () => this.checkIn(), onStage: () => this.loadSchedule() });
  }

  cancelledPanel() {
    const why = reasonWords(this.schedule?.reason || this.cancelReason, (seat) => this.name(seat - 1));
    return h("section", { class: "panel", role: "status" }, h("h2", {}, gettext("This game was cancelled.")),
      why ? h("p", { "data-key": "cancel-reason" }, why) : null);
  }

  deckPanel() {
    const deck = this.me.deck;
    return h("section", { class: "panel" }, h("h2", {}, fmt(gettext("Your deck (%(count)s)"), { count: num(deck.length) })),
      h("div", { class: "card-grid small" }, deck.map((card) => cardTile(card.card, { compact: true, uid: card.uid }))));
  }

  hostTools() {
    if (!this.me || !this.view.seats.find((s) => s.number === this.me.seat)?.is_host) return null;
    return h("div", { class: "host-tools" }, h("h3", {}, gettext("Host")),
      h("button", { "data-key": "rename", onclick: () => this.rename() }, gettext("Rename the game")), " ",
      h("button", { class: "danger", onclick: () => confirm(gettext("Cancel this game for everyone?")) && this.act("cancel/") },
        gettext("Cancel the game")));
  }

  /** The host names the game (an empty answer: "Game #12" again). */
  rename() {
    const title = prompt(gettext("The game's name (up to 60 characters; empty for its number):"), this.view.title ?? "");
    if (title !== null) this.act("", { title }, "PATCH");
  }

  lobbyPanel() {
    const v = this.view;
    const isHost = this.me && v.seats.find((s) => s.number === this.me.seat)?.is_host;
    const free = v.options.seat_count - v.seats.length;
    const count = h("input", { type: "number", min: 1, max: Math.max(1, free), value: Math.min(this.botCount || 1, Math.max(1, free)),
      id: "bot-count", "aria-label": gettext("Bots to add"), oninput: (event) => { this.botCount = Number(event.target.value) || 1; } });
    // The chosen strength outlives the lobby's re-renders (someone joining redraws it).
    const chosen = this.botLevel || "rookie";
    const level = h("select", { id: "bot-level", "aria-label": gettext("Bot strength"), onchange: (event) => { this.botLevel = event.target.value; } },
      [["rookie", gettext("rookie (beatable)")], ["steady", gettext("steady")], ["champion", gettext("champion (strongest)")]].map(([value, label]) =>
        h("option", { value, selected: value === chosen }, label)));
    return h("section", { class: "panel" }, h("h2", {}, gettext("Lobby")),
      v.code ? h("p", { class: "room" }, gettext("Room code"), " ", h("strong", { class: "code", id: "room-code", lang: "en" }, v.code), " ",
        h("button", { onclick: () => navigator.clipboard?.writeText(v.code).then(() => showError({ message: gettext("Room code copied.") })) },
          gettext("Copy")),
        h("small", { class: "muted" }, " — ", gettext("share it: the others join with it on the Lobby page."))) :
        h("p", { class: "muted" }, gettext("Ask the host for the room code to join this game.")),
      h("p", {}, plural(v.options.seat_count, ngettext("%(taken)s of %(count)s seat taken.", "%(taken)s of %(count)s seats taken.",
        v.options.seat_count), { taken: num(v.seats.length) })),
      h("ul", { class: "seat-list" }, v.seats.map((seat) => h("li", {}, h("span", { class: "seat-name" }, seat.name),
        seatNote(seat.is_host ? gettext("host") : seatKind(seat)),
        isHost && !seat.is_host ? h("button", { class: "small", onclick: () => this.act("kick/", { seat: seat.number }) },
          fmt(gettext("Remove %(name)s"), { name: seat.name })) : null))),
      isHost && free > 0 ? h("div", { class: "row" }, count, level,
        h("button", { "data-key": "add-bots", onclick: () => this.act("bots/", { count: Number(count.value), level: level.value }) },
          gettext("Add bots"))) : null,
      isHost ? h("div", { class: "row" },
        h("button", { class: "primary", "data-key": "start", disabled: !this.me.actions.includes("start"),
          onclick: () => this.act("start/") }, free > 0
          ? plural(free, ngettext("Start (%(count)s seat still free)", "Start (%(count)s seats still free)", free))
          : gettext("Start the tournament")),
        h("button", { "data-key": "rename", onclick: () => this.rename() }, gettext("Rename the game")),
        h("button", { class: "danger", onclick: () => confirm(gettext("Cancel this game?")) && this.act("cancel/") },
          gettext("Cancel the game"))) : null,
      this.me && !isHost ? h("button", { onclick: async () => {
        if (await this.act("leave/")) this.watch();
      } }, gettext("Leave the game")) : null);
  }

  reclaimPanel() {
    return h("section", { class: "panel", role: "status" }, h("h2", {}, gettext("A bot plays your seat")),
      h("p", {}, gettext("You left this game or missed two deadlines in a row, so a steady bot has played for you since."), " ",
        gettext("Take your seat back to play it yourself again.")),
      h("button", { class: "primary", "data-key": "reclaim", onclick: () => this.act("reclaim/") }, gettext("Take my seat back")));
  }

  endPanel() {
    const v = this.view;
    const names = list(this.champions().map((seat) => this.name(seat)));
    const corrected = this.leagueResult;
    return h("section", { class: "panel champion", role: "status" }, h("h2", {}, trophy(), " ", gettext("Champion")),
      h("p", { class: "champion-name" }, names || "—"),
      corrected ? h("div", { class: "small", "data-key": "league-corrected" },
        h("p", {}, gettext("The league corrected this game's result:")), correctedMark(corrected.corrections),
        h("a", { href: roundsPath(v.league, this.id) }, gettext("Round by round"))) : null,
      v.fairness.revealed_seed !== null ? this.seedLine(v.fairness.revealed_seed) : null);
  }

  /** The revealed seed (its exact digits: a decimal string), with where to check it without
   * trusting us. */
  seedLine(seed) {
    const api = `/api/v1/tournaments/${this.id}`;
    return h("p", { class: "muted small", "data-key": "seed" },
      fmt(gettext("Seed %(seed)s revealed."), { seed }), " ",
      h("a", { href: `${api}/verify/` }, gettext("The server's check")), " · ",
      h("a", { href: `${api}/replay/` }, gettext("everything to re-play it")), " · ",
      h("a", { href: "/api/v1/docs/" }, gettext("check it yourself")), " ",
      fmt(gettext("with %(script)s (%(section)s)."), { script: "examples/verify.py", section: "docs/protocol.md §15" }));
  }

  renderStandings() {
    const v = this.view;
    if (v.status === "lobby") {
      return mount(this.parts.standings, h("h2", {}, gettext("Standings")), h("p", { class: "muted" }, gettext("After the start.")));
    }
    const finalists = new Set(v.finalists);
    const trophies = (seat) => v.trophies.filter((t) => t.seat === seat);
    // The champion first (a tie on fans is broken by the Final), then the standings' own order.
    const winners = this.champions();
    const ordered = [...v.standings].sort((a, b) => Number(winners.includes(b.seat)) - Number(winners.includes(a.seat)));
    const rows = ordered.map((row) => h("tr", { class: winners.includes(row.seat) ? "champ" : "" },
      h("th", { scope: "row" }, this.name(row.seat), finalists.has(row.seat) ? " ★" : "", winners.includes(row.seat) ? [" ", trophy(gettext("champion"))] : ""),
      h("td", {}, num(row.fans), row.fans_complete ? "" : "+?"),
      h("td", {}, trophies(row.seat).map((t) => h("span", { class: `park-dot park-${t.park}`,
        title: t.fans === null || t.fans === undefined
          ? fmt(gettext("%(park)s, %(round)s, secret fans"), { park: parkName(t.park), round: roundName(t.round) })
          : plural(t.fans, ngettext("%(park)s, %(round)s, %(count)s fan", "%(park)s, %(round)s, %(count)s fans", t.fans),
            { park: parkName(t.park), round: roundName(t.round) }) },
        `${capitalised(parkColour(t.park))} ${t.fans ?? "?"}`)), trophies(row.seat).length ? null : "—")));
    const byRound = new Map();
    for (const match of this.matches) {
      if (!byRound.has(match.round)) byRound.set(match.round, []);
      byRound.get(match.round).push(match);
    }
    mount(this.parts.standings, h("h2", {}, gettext("Standings")),
      h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, gettext("Player")), h("th", { scope: "col" }, gettext("Fans")),
        h("th", { scope: "col" }, gettext("Trophies")))),
      h("tbody", {}, rows)),
      finalists.size ? h("p", {}, gettext("Finalists:"), " ", list([...finalists].map((s) => this.name(s)))) : null,
      v.standings.some((row) => !row.fans_complete)
        ? h("p", { class: "muted small" }, "+? : ", gettext("some trophy fans are still secret to you.")) : null,
      finalists.size ? h("p", { class: "muted small" }, "★ ", gettext("finalist.")) : null,
      // Opened once, the replay list stays open across redraws (each stream event may redraw).
      byRound.size ? h("details", { open: this.replaysOpen, ontoggle: (event) => { this.replaysOpen = event.target.open; } },
        h("summary", {}, gettext("Replays")), h("ul", { class: "replays" },
        [...byRound].map(([round, played]) => h("li", {}, `${roundName(round)}: `,
          played.map((m) => {
            const words = fmt(gettext("%(park)s: %(a)s vs %(b)s"),
              { park: capitalised(parkName(m.park)), a: m.seats[0]?.name ?? "?", b: m.seats[1]?.name ?? "?" });
            return h("span", { class: "replay" }, m.status === "finished" ? h("a", { href: `#/match/${m.id}` }, words)
              : h("span", { class: "muted" }, fmt(gettext("%(match)s (not over)"), { match: words })));
          }))))) : null,
      v.status === "deck" || v.status === "match" ? this.hostTools() : null);
  }

  renderMatches() {
    const boards = [...this.boards.values()];
    if (!boards.length) return mount(this.parts.matches);
    const round = boards[0].match.round;
    const parks = boards.map((b) => b.match.park);
    const pick = h("select", { id: "park-filter", onchange: (e) => { this.parkFilter = e.target.value; this.renderMatches(); } },
      h("option", { value: "all" }, gettext("Every park")), parks.map((p) => h("option", { value: p, selected: this.parkFilter === p }, capitalised(parkName(p)))));
    mount(this.parts.matches, h("h2", {}, fmt(gettext("Matches of %(round)s"), { round: roundName(round) })),
      h("label", { class: "field inline" }, h("span", {}, gettext("Watch")), " ", pick),
      h("div", { class: "boards" }, boards.filter((b) => this.parkFilter === "all" || b.match.park === this.parkFilter)
        .map((b) => { b.draw(true); return b.element; })));
  }
}

export { cardOf, cardTile };
