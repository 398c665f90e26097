// A browser's view of fairness: read a finished tournament's revealed seed from the REST view and
// from the stream's `seed_revealed` frame, with JSON.parse as any JavaScript client does, and open
// the commitment with each (docs/protocol.md §15: sha256("<seed>:<nonce>") == commitment).
//
//   node --experimental-websocket tests/node/open_commitment.mjs http://127.0.0.1:8000 7
//
// Prints one JSON line: both seeds as read and whether each opens the commitment. Node 20 needs
// the flag for its WebSocket client; from node 22 it is there without it.
import { createHash } from "node:crypto";

const [base, id] = process.argv.slice(2);
const opens = (seed, nonce, commitment) =>
  createHash("sha256").update(`${seed}:${nonce}`).digest("hex") === commitment;

async function restFairness() {
  const response = await fetch(`${base}/api/v1/tournaments/${id}/`, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`GET the tournament: ${response.status}`);
  return (await response.json()).fairness;
}

function streamReveal() {
  const socket = new WebSocket(`${base.replace(/^http/, "ws")}/ws/tournaments/${id}/?after=0`);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no seed_revealed frame")), 60_000);
    socket.onmessage = (message) => {
      const frame = JSON.parse(message.data);
      if (frame.type === "event" && frame.kind === "seed_revealed") {
        clearTimeout(timer);
        socket.close();
        resolve(frame.payload);
      }
    };
    socket.onerror = () => reject(new Error("the stream failed"));
  });
}

const fairness = await restFairness();
const revealed = await streamReveal();
console.log(JSON.stringify({
  rest: { seed: fairness.revealed_seed, type: typeof fairness.revealed_seed,
          opens: opens(fairness.revealed_seed, fairness.revealed_nonce, fairness.commitment) },
  stream: { seed: revealed.seed, type: typeof revealed.seed,
            opens: opens(revealed.seed, revealed.nonce, fairness.commitment) },
}));
