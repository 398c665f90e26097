// node tests/frontend/fold_check.mjs FILE [FOLD_MODULE]: fold each match's events of FILE (lines
// written by tests/frontend/board_truth.py) through the web client's fold (fold.js) and compare,
// after every event, what the board draws with the engine's own board. Two viewers: the replay
// (every event) and a spectator (the public events, as the observer shows them; compared after
// each). Prints one JSON summary: counts and the first mismatches.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const [file, module = "frontend/static/frontend/fold.js"] = process.argv.slice(2);
const { newBoard, fold, drawn } = await import(pathToFileURL(resolve(module)).href);
const FIELDS = ["flag", "under", "attack", "bench", "held", "frozen", "exhaust", "deck", "fans"];

/** The fields of `board` that differ from `truth` ("defence", "A.bench"…). */
function differences(board, truth) {
  const out = [];
  for (const key of ["defence", "total"]) if (board[key] !== truth[key]) out.push(key);
  for (const side of ["A", "B"]) {
    for (const key of FIELDS) {
      if (JSON.stringify(board[side][key]) !== JSON.stringify(truth[side][key])) out.push(`${side}.${key}`);
    }
  }
  return out;
}

const summary = { matches: {}, compared: 0, mismatched: 0, fields: {}, kinds: {}, first: [] };
function check(events, boards, where) {
  const board = newBoard();
  events.forEach((event, i) => {
    if (event === null) return;
    fold(board, event.kind, event);
    const wrong = differences(drawn(board), boards[i]);
    summary.compared += 1;
    if (!wrong.length) return;
    summary.mismatched += 1;
    for (const key of wrong) summary.fields[key] = (summary.fields[key] ?? 0) + 1;
    summary.kinds[event.kind] = (summary.kinds[event.kind] ?? 0) + 1;
    if (summary.first.length < 5) summary.first.push({ where, seq: event.seq, kind: event.kind, wrong, board: drawn(board), truth: boards[i] });
  });
}

for (const [n, line] of readFileSync(file, "utf-8").split("\n").filter(Boolean).entries()) {
  const match = JSON.parse(line);
  summary.matches[match.box] = (summary.matches[match.box] ?? 0) + 1;
  check(match.events, match.boards, `match ${n} (replay)`);
  check(match.spectator, match.boards, `match ${n} (spectator)`);
}
console.log(JSON.stringify(summary));
