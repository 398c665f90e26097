// The replay of a finished match from its stored events, step by step.
import { get, seatOf } from "./api.js";
import { h, mount, attempt } from "./ui.js";
import { Board } from "./board.js";
import { chatLines } from "./chat.js";

export function showReplay(container, id) {
  let stopped = false;
  (async () => {
    const match = await attempt(() => get(`matches/${id}/`));
    if (!match || stopped) return;
    const token = seatOf(match.tournament)?.token ?? null;
    const board = new Board(match, { live: false, pace: 500 });
    board.token = token;
    board.playing = false;
    document.title = `Challengers! — replay of match #${id}`;
    mount(container, h("p", {}, h("a", { href: `#/t/${match.tournament}` }, `← Back to game #${match.tournament}`)),
      h("h1", {}, `Replay: ${match.seats.map((seat) => seat.name).join(" vs ")}, ${match.park} park, `,
        match.round === 8 ? "the Final" : `round ${match.round}`), board.element);
    await attempt(() => board.poll());
    const said = await attempt(() => get(`tournaments/${match.tournament}/chat/`));
    if (said && !stopped) container.append(h("section", { class: "panel chat", "aria-label": "Table chat" },
      h("h2", {}, "Table chat of this game"), chatLines(said)));
    board.draw(true); // the timeline's length is known once the events are in
  })();
  return () => { stopped = true; };
}
