// The single-page web client: a hash router over the lobby, a tournament, a replay and the cards;
// the public league pages live at their own paths (/leagues/…) so they can be shared.
import { get, post, keepSeat } from "./api.js";
import { h, mount, attempt, cards, cardTile, clearErrors, plural, STATUS_WORDS } from "./ui.js";
import { fmt, labelled, num, list as listOf, loadGlossary, restoreLanguage, wireLanguageSwitch, setName, glossed, term } from "./i18n.js";
import { showTournament } from "./tournament.js";
import { showReplay } from "./replay.js";
import { showLeaguePage } from "./league.js";

const main = document.getElementById("main");
let leave = () => {};
// Each route() call takes the next number; one that waited (for the catalogue, the sets…) while
// the reader moved on draws nothing, so a slower earlier page never lands over the newer one.
let routed = 0;

async function route() {
  const mine = ++routed;
  const current = () => mine === routed;
  leave();
  leave = () => {};
  clearErrors();
  const path = location.hash.replace(/^#/, "") || "/";
  let match;
  if (location.pathname.startsWith("/leagues/") && !location.hash.startsWith("#/")) {
    leave = showLeaguePage(main, location.pathname);
    return;
  }
  await Promise.all([attempt(() => cards()), loadGlossary()]);
  if (!current()) return;
  if ((match = path.match(/^\/t\/(\d+)$/))) leave = showTournament(main, Number(match[1])) || leave;
  else if ((match = path.match(/^\/match\/(\d+)$/))) leave = showReplay(main, Number(match[1])) || leave;
  else if (path === "/cards") showCards(main, current);
  else showLobby(main, current);
}

/* global gettext, ngettext */

if (!restoreLanguage()) {
  wireLanguageSwitch();
  window.addEventListener("hashchange", route);
  route();
}

// ---- The lobby: open games, join by code, create ----

const WINTER_WORDS = { off: gettext("Off"), normal: gettext("One park each round"), all: gettext("Every park") };

async function showLobby(container, current) {
  const create = await createForm();
  if (!current()) return;
  document.title = fmt(gettext("Challengers! — %(page)s"), { page: gettext("Lobby") });
  const list = h("div", { class: "games" }, h("p", { class: "muted" }, gettext("Loading games…")));
  mount(container,
    h("h1", {}, "Challengers!"),
    h("div", { class: "lobby-grid" },
      h("section", { class: "panel" }, h("h2", {}, gettext("Join a game")), joinForm()),
      h("section", { class: "panel" }, h("h2", {}, gettext("Create a game")), create),
      h("section", { class: "panel wide" }, h("h2", {}, gettext("Games")), list)));
  const status = h("select", { id: "game-status", onchange: () => loadGames(list, status.value) },
    [["lobby", gettext("Open lobbies")], ["running", gettext("Being played")], ["finished", gettext("Finished")],
      ["", gettext("All games")]]
      .map(([value, label]) => h("option", { value }, label)));
  list.before(h("label", { class: "field inline" }, h("span", {}, gettext("Show")), status));
  loadGames(list, "lobby");
}

async function loadGames(list, status) {
  const page = await attempt(() => get(`tournaments/?limit=30${status ? `&status=${status}` : ""}`));
  if (page) mount(list, gameList(page.results));
}

function gameList(games) {
  if (!games.length) return h("p", { class: "muted" }, gettext("No game here yet: create one."));
  return h("ul", { class: "game-list" }, games.map((game) => h("li", {},
    h("a", { href: `#/t/${game.id}` }, game.title ? game.title : [`#${num(game.id)} `,
      game.host ? fmt(gettext("%(host)s's game"), { host: game.host }) : gettext("Organized game")]),
    " ", h("span", { class: `badge status-${game.status}` }, STATUS_WORDS[game.status] ?? game.status),
    h("span", { class: "muted" }, " ", plural(game.seat_count,
      ngettext("%(taken)s of %(count)s seat taken", "%(taken)s of %(count)s seats taken", game.seat_count),
      { taken: num(game.seats_taken) }),
    game.free_seats ? [" · ", plural(game.free_seats,
      ngettext("%(count)s free (ask the host for the room code)", "%(count)s free (ask the host for the room code)", game.free_seats))] : "",
    game.round ? [" · ", game.round === 8 ? term("final") : fmt(gettext("round %(round)s"), { round: num(game.round) })] : "",
    ` · ${setName(game.basic_set)}, ${listOf(game.additional_sets.map(setName), true)}`,
    game.beach_cup ? ` · ${gettext("Beach Cup")}` : "",
    game.winter_mode !== "off" ? ` · ${labelled(term("winter_park"), WINTER_WORDS[game.winter_mode] ?? game.winter_mode)}` : ""))));
}

function field(label, control, hint) {
  return h("label", { class: "field" }, h("span", {}, label), control, hint ? h("small", { class: "muted" }, hint) : null);
}

function joinForm() {
  const code = h("input", { name: "code", required: true, autocomplete: "off", maxlength: 12, placeholder: "K7QX2P", lang: "en" });
  const name = h("input", { name: "name", required: true, maxlength: 40, autocomplete: "nickname" });
  return h("form", { onsubmit: async (event) => {
    event.preventDefault();
    const ticket = await attempt(() => post("tournaments/join/", { code: code.value.trim(), name: name.value.trim() }));
    if (!ticket) return;
    keepSeat(ticket.id, { token: ticket.seat.token, seat: ticket.seat.id, code: ticket.code });
    location.hash = `#/t/${ticket.id}`;
  } }, field(gettext("Room code"), code), field(gettext("Your name"), name),
  h("button", { type: "submit", class: "primary" }, gettext("Join")));
}

async function createForm() {
  const sets = (await attempt(() => get("card-sets/"))) || [];
  // Playable additional sets only: a curator's new set appears once complete, a retired one goes.
  const additional = sets.filter((set) => set.kind === "additional" && set.playable);
  const input = (name, attrs) => h("input", { name, ...attrs });
  const controls = {
    name: input("name", { required: true, maxlength: 40, autocomplete: "nickname" }),
    title: input("title", { maxlength: 60, placeholder: gettext("Game #…") }),
    seats: input("seats", { type: "number", min: 1, max: 8, value: 3, required: true }),
    basic_set: h("select", { name: "basic_set" }, ["City", "Rainbow"].map((s) => h("option", { value: s }, setName(s)))),
    beach_cup: input("beach_cup", { type: "checkbox" }),
    winter_park: h("select", { name: "winter_park" },
      Object.entries(WINTER_WORDS).map(([v, t]) => h("option", { value: v }, t))),
    robot_difficulty: input("robot_difficulty", { type: "number", min: 1, max: 5, value: 1 }),
    solo_challenge: input("solo_challenge", { type: "checkbox" }),
    deck_deadline_seconds: input("deck_deadline_seconds", { type: "number", min: 5, max: 86400, placeholder: gettext("none") }),
    answer_deadline_seconds: input("answer_deadline_seconds", { type: "number", min: 1, max: 3600, value: 30 }),
    spectator_chat: input("spectator_chat", { type: "checkbox" }),
  };
  const setBoxes = additional.map((set) => h("label", { class: "check" },
    h("input", { type: "checkbox", name: "additional_sets", value: set.name }), ` ${setName(set.name)}`,
    set.box === "beach_cup" ? h("small", { class: "muted" }, ` (${gettext("Beach Cup")})`) : null));
  const submit = async (event) => {
    event.preventDefault();
    const chosen = setBoxes.map((label) => label.querySelector("input")).filter((box) => box.checked).map((box) => box.value);
    const body = {
      name: controls.name.value.trim(), title: controls.title.value.trim(),
      seats: Number(controls.seats.value), basic_set: controls.basic_set.value,
      beach_cup: controls.beach_cup.checked, winter_park: controls.winter_park.value,
      robot_difficulty: Number(controls.robot_difficulty.value), solo_challenge: controls.solo_challenge.checked,
      deck_deadline_seconds: controls.deck_deadline_seconds.value ? Number(controls.deck_deadline_seconds.value) : null,
      answer_deadline_seconds: Number(controls.answer_deadline_seconds.value),
      spectator_chat: controls.spectator_chat.checked,
    };
    if (chosen.length) body.additional_sets = chosen;
    const ticket = await attempt(() => post("tournaments/", body));
    if (!ticket) return;
    keepSeat(ticket.id, { token: ticket.seat.token, seat: ticket.seat.id, code: ticket.code });
    location.hash = `#/t/${ticket.id}`;
  };
  return h("form", { onsubmit: submit },
    field(gettext("Your name"), controls.name),
    field(gettext("Game name"), controls.title, gettext("Optional, up to 60 characters; shown in lists and on league pages")),
    field(gettext("Seats (you included)"), controls.seats, gettext("1–8; free seats take players or bots")),
    field(gettext("Basic set"), controls.basic_set),
    h("fieldset", {}, h("legend", {}, gettext("Additional sets (choose five, or none for five random ones)")),
      h("div", { class: "sets" }, setBoxes)),
    h("label", { class: "check" }, controls.beach_cup, " ", gettext("Beach Cup draft table")),
    field(term("winter_park"), controls.winter_park),
    field(gettext("Robot level"), controls.robot_difficulty, "1–5"),
    h("label", { class: "check" }, controls.solo_challenge, " ", gettext("Solo challenge (SOLO cards may join the Robot's deck)")),
    field(gettext("Deck Phase deadline (seconds)"), controls.deck_deadline_seconds, gettext("5–86400, empty for none")),
    field(gettext("Answer deadline (seconds)"), controls.answer_deadline_seconds),
    h("label", { class: "check" }, controls.spectator_chat, " ", gettext("Spectators may chat (with a name)")),
    h("button", { type: "submit", class: "primary" }, gettext("Create game")));
}

// ---- The card browser ----

/** A filter select of the card browser: "any" plus each value the catalogue has. */
function choice(id, label, values, onchange) {
  return h("label", { class: "field" }, h("span", {}, label), h("select", { id, onchange },
    h("option", { value: "" }, gettext("Any")), values.map(([value, text]) => h("option", { value }, text))));
}

const BOXES = { base: gettext("Base box"), beach_cup: gettext("Beach Cup") };

async function showCards(container, current) {
  const catalogue = await attempt(() => cards());
  if (!catalogue || !current()) return;
  document.title = fmt(gettext("Challengers! — %(page)s"), { page: gettext("Cards") });
  const all = [...catalogue.values()];
  const distinct = (field) => [...new Set(all.map((card) => card[field]).filter(Boolean))];
  const search = h("input", { type: "search", id: "card-search", placeholder: gettext("Name, effect or keyword") });
  const results = h("div", {});
  const draw = () => {
    const words = search.value.trim().toLowerCase();
    const [set, level, box] = ["card-set", "card-level", "card-box"].map((id) => document.getElementById(id)?.value ?? "");
    const bySet = new Map();
    for (const card of all) {
      const text = `${card.name} ${card.effect} ${glossed(card.keyword)} ${setName(card.set)}`.toLowerCase();
      if (words && !words.split(/\s+/).every((word) => text.includes(word))) continue;
      if ((set && card.set !== set) || (level && card.level !== level) || (box && card.box !== box)) continue;
      if (!bySet.has(card.set)) bySet.set(card.set, []);
      bySet.get(card.set).push(card);
    }
    mount(results, bySet.size ? [...bySet].map(([name, list]) => h("section", { class: "set-block" },
      h("h2", {}, setName(name), h("span", { class: "muted" }, ` ${BOXES[list[0].box] ?? list[0].box} · `,
        plural(list.length, ngettext("%(count)s design", "%(count)s designs", list.length)))),
      h("div", { class: "card-grid" }, list.map((card) => cardTile(card.key, {
        extra: h("p", { class: "muted small" }, card.copies
          ? plural(card.copies, ngettext("%(count)s copy", "%(count)s copies", card.copies)) : gettext("copies unknown")) })))))
      : h("p", {}, gettext("No card matches.")));
  };
  search.addEventListener("input", draw);
  mount(container, h("h1", {}, gettext("Cards")),
    h("div", { class: "filters" }, h("label", { class: "field" }, h("span", {}, gettext("Search the cards")), search),
      choice("card-set", gettext("Set"), distinct("set").map((v) => [v, setName(v)]), draw),
      choice("card-level", gettext("Level"), distinct("level").map((v) => [v, v]), draw),
      choice("card-box", gettext("Box"), distinct("box").map((v) => [v, BOXES[v] ?? v]), draw)),
    results);
  draw();
}
