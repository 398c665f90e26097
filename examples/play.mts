// Play a whole Challengers! tournament as one seat against bots, on the TypeScript SDK.
//
//   cd sdk/typescript && npm ci
//   sdk/typescript/node_modules/.bin/tsx examples/play.mts [http://127.0.0.1:8000] [--seats 4] [--drop-every N]
//
// (node 22+; on node 20 add --experimental-websocket after `tsx`.) The same player as
// examples/play.py: it creates a tournament (you are the host, seat 0), fills it with bots,
// starts it and follows the stream from the first event (resumed with ?after=<last seq> after a
// drop; --drop-every N drops it on purpose), plays each Deck Phase over REST (the last option,
// the first display card, finish; a When picked effect answered from `pending.eligible`),
// answers its cards' questions with their default, and prints the champion.
import {
  createApi,
  ok,
  TournamentStream,
  type Api,
  type Schemas,
} from "../sdk/typescript/src/index.ts";

type Pending = Schemas["Pending"];
type View = Schemas["TournamentView"];

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

const base = process.argv[2]?.startsWith("http") ? process.argv[2] : "http://127.0.0.1:8000";
const seats = option("--seats", 4);
const dropEvery = option("--drop-every", 0);

/** The cards to name: keep the first offered (draw_keep); decline an optional effect; else the
 * first `count` of the cards `eligible` lists (any of them is taken). */
function resolve(pending: Pending): number[] {
  if (pending.kind !== "draw_keep" && pending.optional) return [];
  return pending.eligible.slice(0, pending.count).map((card) => card.uid);
}

/** Take Deck Phase actions until none is offered (`you.actions` says what is possible). */
async function playDeckPhase(api: Api, id: number): Promise<void> {
  const path = { tournament_id: id };
  let view: View = await ok(api.GET("/api/v1/tournaments/{tournament_id}/", { params: { path } }));
  for (;;) {
    const actions = view.you?.actions ?? [];
    const turn = view.you?.turn;
    if (actions.length === 0 || !turn) return;
    if (actions.includes("resolve") && turn.pending) {
      const body = { cards: resolve(turn.pending) };
      view = await ok(api.POST("/api/v1/tournaments/{tournament_id}/draft/resolve/", { params: { path }, body }));
    } else if (actions.includes("choose")) {
      const body = { option: turn.options.length - 1 };
      view = await ok(api.POST("/api/v1/tournaments/{tournament_id}/draft/choose/", { params: { path }, body }));
    } else if (actions.includes("draw")) {
      view = await ok(api.POST("/api/v1/tournaments/{tournament_id}/draft/draw/", { params: { path } }));
    } else if (actions.includes("pick")) {
      const body = { card: turn.display[0].uid };
      view = await ok(api.POST("/api/v1/tournaments/{tournament_id}/draft/pick/", { params: { path }, body }));
    } else {
      view = await ok(api.POST("/api/v1/tournaments/{tournament_id}/deck/finish/", { params: { path } }));
    }
  }
}

async function play(): Promise<string> {
  const ticket = await ok(createApi(base).POST("/api/v1/tournaments/", { body: { name: "Example", seats } }));
  if (!ticket.seat) throw new Error("no seat in the ticket");
  const api = createApi(base, { token: ticket.seat.token });
  const id = ticket.id;
  const path = { tournament_id: id };
  console.log(`Tournament ${id}, room code ${ticket.code}, you are seat 0`);
  if (seats > 1) {
    await ok(api.POST("/api/v1/tournaments/{tournament_id}/bots/", { params: { path }, body: { count: seats - 1 } }));
  }
  await ok(api.POST("/api/v1/tournaments/{tournament_id}/start/", { params: { path } }));

  const stream = new TournamentStream(base, id, { token: ticket.seat.token });
  for await (const event of stream) {
    const payload = (event.payload ?? {}) as Record<string, any>;
    if (event.kind === "deck_phase_opened") {
      console.log(`Round ${payload.round}: Deck Phase`);
      await playDeckPhase(api, id);
    } else if (event.kind === "match_question") {
      // our card asks: take its default answer
      const body = { question: payload.question.seq, answer: payload.question.default };
      const match = { match_id: payload.match as number };
      await ok(api.POST("/api/v1/matches/{match_id}/answer/", { params: { path: match }, body }));
    } else if (event.kind === "match_finished") {
      console.log(`  ${payload.park} park: seat ${payload.winner} wins`);
    } else if (event.kind === "tournament_finished") {
      const view = await ok(api.GET("/api/v1/tournaments/{tournament_id}/", { params: { path } }));
      const names = new Map(view.seats.map((seat) => [seat.number, seat.name]));
      const champion = (payload.winners as number[]).map((seat) => names.get(seat)).join(" and ");
      console.log(`Champion: ${champion} (${payload.reason})`);
      return champion;
    }
    if (dropEvery && event.seq % dropEvery === 0) {
      stream.drop();
      console.log(`  (stream dropped after event ${event.seq}: resuming from it)`);
    }
  }
  throw new Error("the stream ended before the tournament");
}

await play();
