// The board's state folded from match events: what the table draws, each value as an event
// states it (docs/protocol.md, "What the board draws"). No DOM, no translations: the browser's
// board (board.js) and node (tests/frontend) run the same code. A value no event stated stays
// null (a match stored before the events stated it): the board draws nothing rather than a guess.

export const SIDES = ["A", "B"];
export const SEATS = 6;

function emptySide(deck = null) {
  return {
    stack: [], // the flag card first, then the cards under it (top → bottom)
    attack: [],
    bench: Array.from({ length: SEATS }, () => []),
    held: Array(SEATS).fill(null), // a seat blocked by a wide card: the seat it sits in
    frozen: [[], []],
    exhaust: [],
    fans: 0,
    deck,
  };
}

/** A board before any event; `decks`: each side's deck size when known from elsewhere. */
export function newBoard(decks = {}) {
  return {
    sides: { A: emptySide(decks.A ?? null), B: emptySide(decks.B ?? null) },
    defence: null, // the flag card's defence
    total: null, // the attack's total against it
    kind: "normal",
    winner: null,
    reason: null,
    keys: new Map(), // card uid → design key, as events named them
  };
}

/** Lift `uid` out of every place of `side` (the event that moved it says where it went). */
function take(board, side, uid) {
  const s = board.sides[side];
  for (const list of [s.stack, s.attack, s.exhaust, ...s.bench, ...s.frozen]) {
    const at = list.indexOf(uid);
    if (at >= 0) list.splice(at, 1);
  }
  s.held = s.held.map((seat) => (seat !== null && s.bench[seat].length ? seat : null));
}

const FOLD = {
  start(board, p) {
    board.kind = p.match_kind ?? p.park ?? "normal";
    for (const side of SIDES) if (p.decks?.[side] !== undefined) board.sides[side].deck = p.decks[side];
  },
  reveal(board, p, s) { s.attack.push(p.card); },
  attack(board, p) { board.total = p.total; board.defence = p.defence; },
  flag(board, p, s) {
    for (const side of SIDES) board.sides[side].stack = [];
    s.attack = [];
    s.stack = [p.card, ...p.under];
    board.defence = p.power ?? null; // a flag stored before every flag stated it: unknown
    board.total = null;
  },
  benched(board, p, s) {
    take(board, p.side, p.card);
    s.bench[p.seat].push(p.card);
    if (p.held !== undefined) s.held[p.held] = p.seat;
  },
  frozen(board, p, s) { take(board, p.side, p.card); s.frozen[p.seat].push(p.card); },
  exhausted(board, p, s) { take(board, p.side, p.card); s.exhaust.push(p.card); },
  moved(board, p) { take(board, p.side, p.card); },
  removed(board, p) { take(board, p.side, p.card); },
  added(board, p, s) { if (p.to === "exhaust") s.exhaust.push(p.card); },
  fans(board, p, s) { s.fans = p.total; },
  end(board, p) {
    board.winner = p.winner;
    board.reason = p.reason;
    const loser = p.winner === "A" ? "B" : "A";
    for (const uid of p.unplaced ?? []) take(board, loser, uid);
    if ("deck" in p) board.sides[loser].deck = p.deck; // an end states the loser's deck
  },
};

/** Fold one event's payload (`kind` its kind) into `board`: its own move, then the values it
 * states (`defence`, `attack_total`, `deck`). Unknown kinds change nothing. */
export function fold(board, kind, p) {
  if (p.key !== undefined && p.card !== undefined) board.keys.set(p.card, p.key);
  const s = p.side !== undefined ? board.sides[p.side] : undefined;
  FOLD[kind]?.(board, p, s);
  if ("defence" in p && kind !== "attack") board.defence = p.defence;
  if ("attack_total" in p) board.total = p.attack_total;
  if ("deck" in p && s) s.deck = p.deck;
  return board;
}

/** What the board draws, as plain data: each side's flag (and the cards under it), attack,
 * bench seats (and the seats wide cards block), frozen seats, exhaust pile, deck count and
 * fans; the flag's defence and the attack's total. */
export function drawn(board) {
  const out = { defence: board.defence, total: board.total };
  for (const side of SIDES) {
    const s = board.sides[side];
    out[side] = {
      flag: s.stack[0] ?? null, under: s.stack.slice(1), attack: [...s.attack],
      bench: s.bench.map((cards) => [...cards]), held: [...s.held],
      frozen: s.frozen.map((cards) => [...cards]), exhaust: [...s.exhaust], deck: s.deck, fans: s.fans,
    };
  }
  return out;
}
