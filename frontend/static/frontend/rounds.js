// A league tournament round by round (/leagues/<slug>/tournaments/<id>/): each round's matches
// (who met whom in which park, the winner and the fans its trophy gave), the Final, and the result
// by place with its corrections. Built from the public APIs alone: the tournament and its
// matches as anyone may see them (a match's winner and fans only once released) and the
// league's results (corrections applied).
import { get } from "./api.js";
import { h, mount, attempt } from "./ui.js";
import { capitalised, named, num, parkName, roundName } from "./i18n.js";
import { correctedMark } from "./corrections.js";

const say = (format, values) => interpolate(format, values, true);

export const roundsPath = (slug, id) => `/leagues/${encodeURIComponent(slug)}/tournaments/${id}/`;

/** Show tournament `id` of league `slug` round by round. */
export async function showRounds(container, slug, id) {
  const base = `leagues/${encodeURIComponent(slug)}/`;
  const [league, results, view, matches] = await Promise.all([
    attempt(() => get(base)), attempt(() => get(`${base}tournaments/${id}/results/`)),
    attempt(() => get(`tournaments/${id}/`)), attempt(() => get(`tournaments/${id}/matches/`))]);
  if (!league || !results || !view || !matches) {
    return mount(container, h("h1", {}, gettext("This league page cannot be shown")),
      h("p", {}, h("a", { href: "/leagues/" }, gettext("See the public leagues"))));
  }
  const season = league.seasons.find((one) => one.id === results.season);
  const title = say(gettext("Game #%(id)s round by round"), { id });
  document.title = say(gettext("Challengers! — %(league)s, %(season)s"), { league: league.name, season: title });
  const seatPath = `/leagues/${encodeURIComponent(slug)}/seasons/${results.season}/`;
  const byRound = new Map();
  for (const match of matches) {
    if (!byRound.has(match.round)) byRound.set(match.round, []);
    byRound.get(match.round).push({ ...match, seats: named(match.seats) });
  }
  const byId = new Map(results.corrections.map((correction) => [correction.id, correction]));
  const forfeits = new Map(results.forfeited.map((one) => [one.match, { ...one, correction: byId.get(one.correction) }]));
  mount(container, h("nav", { class: "crumbs", "aria-label": gettext("Breadcrumbs") },
    h("a", { href: "/leagues/" }, gettext("Leagues")), " › ",
    h("a", { href: `/leagues/${encodeURIComponent(slug)}/` }, league.name), " › ",
    h("a", { href: seatPath }, season?.name ?? String(results.season))),
  h("h1", {}, title),
  h("p", {}, h("a", { href: `/#/t/${id}` }, gettext("The game's page, with its replays"))),
  resultsPanel(results, view),
  byRound.size ? [...byRound].sort(([a], [b]) => a - b).map(([round, played]) => roundPanel(round, played, forfeits, view.trophies))
    : h("p", { class: "muted" }, gettext("No match played yet.")));
  return undefined;
}

function resultsPanel(results, view) {
  const head = [gettext("Place"), gettext("Member"), gettext("Points"), gettext("Fans")];
  const champions = results.rows.filter((row) => row.champion).map((row) => row.member);
  return h("section", { class: "panel", "aria-labelledby": "rounds-result" },
    h("h2", { id: "rounds-result" }, gettext("Result")),
    results.recorded ? [
      champions.length ? h("p", { class: "rounds-champion" }, say(gettext("Champion: %(names)s"), { names: champions.join(", ") })) : null,
      correctedMark(results.corrections),
      h("div", { class: "table-wrap", tabindex: 0, role: "region", "aria-label": gettext("Result") }, h("table", { class: "history" },
        h("thead", {}, h("tr", {}, head.map((text) => h("th", { scope: "col" }, text)))),
        h("tbody", {}, results.rows.map((row) => h("tr", {},
          h("td", { class: "num" }, String(row.place), row.champion ? [" ", h("span", { class: "badge" }, gettext("champion"))] : null),
          h("th", { scope: "row" }, row.member), h("td", { class: "num" }, String(row.points)),
          h("td", { class: "num" }, String(row.fans)))))))]
      : h("p", { class: "muted" }, view.status === "finished" ? gettext("Finished; the result is being recorded.")
        : gettext("The result counts once the tournament is over and recorded.")));
}

function roundPanel(round, played, forfeits, trophies) {
  const heading = capitalised(roundName(round));
  return h("section", { class: "panel round", "data-round": round }, h("h2", {}, heading),
    h("ul", { class: "round-matches" }, played.sort((a, b) => a.park.localeCompare(b.park)).map((match) =>
      matchItem(match, forfeits.get(match.id), trophies.find((t) => t.round === round && t.park === match.park)))));
}

/** A match: its park, both sides, its winner (a forfeit's, in the league's record) and the fans
 * of its trophy (a round's; the Final has none; null while secret). */
function matchItem(match, forfeit, trophy) {
  const [a, b] = match.seats;
  const fans = trophy?.fans ?? null;
  // A forfeit gives the match to the other side (the league's record; the game stays as played).
  const winner = forfeit ? forfeit.winner : match.winner;
  const won = match.seats.find((seat) => seat.number === winner);
  return h("li", { class: "round-match", "data-match": match.id },
    h("span", { class: `park park-${match.park}`, "aria-hidden": "true" }), capitalised(parkName(match.park)), ": ",
    say(gettext("%(a)s vs %(b)s"), { a: a.name, b: b.name }), " — ",
    match.status !== "finished" ? h("span", { class: "muted" }, gettext("not over"))
      : won ? h("strong", {}, say(gettext("won by %(name)s"), { name: won.name })) : gettext("no winner"),
    won && fans !== null ? h("span", { class: "fans" }, " ", say(ngettext("+%(count)s fan", "+%(count)s fans", fans), { count: num(fans) })) : null,
    " ", h("a", { href: `/#/match/${match.id}`, class: "small" }, gettext("replay")),
    forfeit ? correctedMark([forfeit.correction]) : null);
}
