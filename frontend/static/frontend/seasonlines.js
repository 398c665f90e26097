// A season's JSON lines kept current cheaply: the first read takes every tournament; each read
// after it names the version it holds (?since=) and is answered 304 while nothing shown changed,
// or with the tournaments that changed alone (Delta-Base), put in place of what it held.
import { ApiError } from "./api.js";

const tournamentOf = (line) => (line.type === "tournament" ? line.id : line.tournament);

/** Lines grouped by tournament, in the order they came. */
function byTournament(lines) {
  const blocks = new Map();
  for (const line of lines) blocks.set(tournamentOf(line), [...(blocks.get(tournamentOf(line)) ?? []), line]);
  return blocks;
}

/** The lines of season `id` of league `slug`: `read()` answers `{ lines, changed }`. `seed`: the
 * version and lines the server drew the page with, so the first read asks what changed since. */
export function seasonFeed(slug, id, seed = null) {
  const path = `/api/v1/leagues/${encodeURIComponent(slug)}/seasons/${id}/lines/`;
  let version = seed?.version ?? null;
  let blocks = byTournament(seed?.lines ?? []); // tournament id → its lines, in the season's order
  const lines = () => [...blocks.values()].flat();
  return {
    async read() {
      // no-store: the browser must not answer a 304 from its own copy (the 304 is the news).
      const response = await fetch(version ? `${path}?since=${version}` : path, { cache: "no-store" });
      if (response.status === 304) return { lines: lines(), changed: false };
      if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => ({})));
      const found = (await response.text()).split("\n").filter(Boolean).map((line) => JSON.parse(line));
      if (!response.headers.get("Delta-Base")) blocks = new Map(); // every tournament came
      for (const [tournament, block] of byTournament(found)) blocks.set(tournament, block); // a new one goes last
      version = (response.headers.get("ETag") ?? "").replace(/^W\//, "").replaceAll('"', "") || null;
      return { lines: lines(), changed: true };
    },
  };
}
