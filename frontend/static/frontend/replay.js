// The replay of a finished match from its stored events, step by step.
import { get, seatOf } from "./api.js";
import { h, mount, attempt } from "./ui.js";
import { Board } from "./board.js";
import { chatLines } from "./chat.js";
import { fmt, parkName, roundName, named } from "./i18n.js";

/* global gettext */


export function showReplay(container, id) {
  let stopped = false;
  (async () => {
    const match = await attempt(() => get(`matches/${id}/`));
    if (!match || stopped) return;
    match.seats = named(match.seats);
    const token = seatOf(match.tournament)?.token ?? null;
    const board = new Board(match, { live: false, pace: 500 });
    board.token = token;
    board.playing = false;
    document.title = fmt(gettext("Challengers! — replay of match #%(id)s"), { id });
    mount(container, h("p", {}, h("a", { href: `#/t/${match.tournament}` }, "← ", fmt(gettext("Back to game #%(id)s"), { id: match.tournament }))),
      h("h1", {}, fmt(gettext("Replay: %(a)s vs %(b)s, %(park)s, %(round)s"), {
        a: match.seats[0]?.name ?? "?", b: match.seats[1]?.name ?? "?", park: parkName(match.park), round: roundName(match.round) })),
      board.element);
    await attempt(() => board.poll());
    const said = await attempt(() => get(`tournaments/${match.tournament}/chat/`));
    if (said && !stopped) container.append(h("section", { class: "panel chat", "aria-label": gettext("Table chat") },
      h("h2", {}, gettext("Table chat of this game")), chatLines(said)));
    board.draw(true); // the timeline's length is known once the events are in
  })();
  return () => { stopped = true; };
}
