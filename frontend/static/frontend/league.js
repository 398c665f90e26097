// Public league pages at shareable paths: /leagues/, /leagues/<slug>/, a season's standings and
// tournaments (/leagues/<slug>/seasons/<id>/) and a member's history and rating over time
// (/leagues/<slug>/members/<handle>/), a tournament round by round
// (/leagues/<slug>/tournaments/<id>/: rounds.js). They read the public APIs only, as any client can.
import { get, seatOf } from "./api.js";
import { correctedMark, correctionWords } from "./corrections.js";
import { showRounds, roundsPath } from "./rounds.js";
import { h, mount, attempt, STATUS_WORDS } from "./ui.js";
import { scheduleOf, scheduleParts, stageOf, reasonWords, checkInAs, localTime } from "./checkin.js";
import { seasonFeed } from "./seasonlines.js";
import { gameName, labelled } from "./i18n.js";

// gettext, ngettext and interpolate: Django's catalogue (/jsi18n/), else English
// (catalogue-fallback.js).
const say = (format, values) => interpolate(format, values, true);

const REFRESH_MS = 4000; // how often a season with a tournament being played is asked (304: no change)
const LOBBY_REFRESH_MS = 30000; // … and one with a lobby only (it may wait for hours)
const LIVE = new Set(["lobby", "deck", "match"]);
const CHECKIN_REFRESH_MS = 3000; // how often the calendar is read while a check-in is open

const leaguePath = (slug) => `/leagues/${encodeURIComponent(slug)}/`;
const seasonPath = (slug, id) => `${leaguePath(slug)}seasons/${id}/`;
const memberPath = (slug, handle) => `${leaguePath(slug)}members/${encodeURIComponent(handle)}/`;

/** Show the league page `path` names; returns what stops its refreshing. */
export function showLeaguePage(container, path) {
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  const [, slug, section, key] = parts;
  const state = { stopped: false, timer: null, calls: 0, seen: null, feed: null, kind: null, drawn: false };
  const leave = () => { state.stopped = true; clearTimeout(state.timer); };
  if (!slug) showLeagues(container);
  else if (section === "seasons" && key) seasonPage(container, slug, Number(key), state);
  else if (section === "members" && key) showMember(container, slug, key);
  else if (section === "tournaments" && key) showRounds(container, slug, Number(key));
  else showLeague(container, slug, state);
  return leave;
}

/** What the page shows when the league API refused (the banner says why). */
function unavailable(container) {
  mount(container, h("h1", {}, gettext("This league page cannot be shown")),
    h("p", {}, h("a", { href: "/leagues/" }, gettext("See the public leagues"))));
}

function crumbs(...links) {
  return h("nav", { class: "crumbs", "aria-label": gettext("Breadcrumbs") },
    links.map(([href, text], index) => [index ? " › " : "", h("a", { href }, text)]));
}

async function showLeagues(container) {
  document.title = gettext("Challengers! — Leagues");
  const found = await attempt(() => get("leagues/"));
  if (!found) return unavailable(container);
  const leagues = found.results;
  mount(container, h("h1", {}, gettext("Leagues")),
    leagues.length ? h("ul", { class: "game-list" }, leagues.map((league) => h("li", {},
      h("a", { href: leaguePath(league.slug) }, league.name),
      league.description ? h("span", { class: "muted" }, ` · ${league.description}`) : null)))
      : h("p", { class: "muted" }, gettext("No public league yet.")));
}

function dates(season) {
  if (season.starts_on && season.ends_on) return say(gettext("%(start)s to %(end)s"), { start: season.starts_on, end: season.ends_on });
  if (season.starts_on) return say(gettext("from %(start)s"), { start: season.starts_on });
  if (season.ends_on) return say(gettext("until %(end)s"), { end: season.ends_on });
  return gettext("no set dates");
}

async function showLeague(container, slug, state) {
  const league = await attempt(() => get(`leagues/${encodeURIComponent(slug)}/`));
  if (!league) return unavailable(container);
  document.title = say(gettext("Challengers! — %(league)s"), { league: league.name });
  const standings = league.seasons.length ? await attempt(() => get(`leagues/${encodeURIComponent(slug)}/standings/`)) : null;
  const scheduled = (await attempt(() => get(`leagues/${encodeURIComponent(slug)}/calendar/`)))?.results ?? [];
  const calendar = h("section", { class: "panel", "aria-labelledby": "calendar-title" });
  const current = league.seasons.find((season) => season.id === standings?.season);
  mount(container, crumbs(["/leagues/", gettext("Leagues")]),
    h("h1", {}, league.name),
    league.description ? h("p", {}, league.description) : null,
    h("p", { class: "muted" }, say(ngettext("%(count)s member", "%(count)s members", league.members), { count: league.members })),
    h("section", { class: "panel" }, h("h2", {}, gettext("Seasons")),
      league.seasons.length ? h("ul", { class: "game-list" }, league.seasons.map((season) => h("li", {},
        h("a", { href: seasonPath(slug, season.id) }, season.name),
        h("span", { class: "muted" }, ` · ${dates(season)} · `,
          say(ngettext("%(count)s tournament", "%(count)s tournaments", season.tournaments), { count: season.tournaments })),
        season.archived ? [" ", h("span", { class: "badge" }, gettext("archived"))] : null,
        season.closed ? [" ", h("span", { class: "badge" }, gettext("results closed"))] : null)))
        : h("p", { class: "muted" }, gettext("No season yet."))),
    scheduled.length ? calendar : null,
    current ? h("section", { class: "panel" },
      h("h2", {}, say(gettext("Standings: %(season)s"), { season: current.name })),
      standingsTable(slug, standings), tiebreakWords(),
      h("p", {}, h("a", { href: seasonPath(slug, current.id) }, gettext("The season's tournaments and filters")))) : null);
  if (scheduled.length) drawCalendar(calendar, slug, state, scheduled);
}

/** Draw the calendar (again when it changed) and read it again while a start is pending: the
 * check-ins come in, a start comes and settles. A seat this browser holds may check in here. */
async function drawCalendar(section, slug, state, scheduled) {
  const mine = await Promise.all(scheduled.map((item) => {
    const token = seatOf(item.tournament)?.token;
    return token && !item.outcome ? scheduleOf(item.tournament, token).catch(() => null) : null;
  }));
  if (state.stopped) return;
  const again = () => {
    clearTimeout(state.timer);
    attempt(() => get(`leagues/${encodeURIComponent(slug)}/calendar/`))
      .then((found) => found && drawCalendar(section, slug, state, found.results));
  };
  const pending = scheduled.filter((item) => !item.outcome);
  clearTimeout(state.timer);
  if (pending.length) {
    const busy = pending.some((item) => stageOf(item) !== "before");
    state.timer = setTimeout(again, busy ? CHECKIN_REFRESH_MS : LOBBY_REFRESH_MS);
  }
  const seen = JSON.stringify([scheduled, mine]);
  if (seen === state.seen) return;
  state.seen = seen;
  const checkIn = async (tournament) => {
    await checkInAs(tournament, seatOf(tournament)?.token);
    again();
  };
  mount(section, h("h2", { id: "calendar-title" }, gettext("Calendar")), calendarList(scheduled, mine, { checkIn, again }));
}

const OUTCOMES = {
  started: () => gettext("started on time"),
  cancelled: () => gettext("cancelled"),
  skipped: () => gettext("started or cancelled by hand"),
};

/** The league's scheduled tournaments by start time, in the reader's own time zone; a pending
 * start with its countdown, and the check-in of the seat this browser holds (`mine`). */
function calendarList(scheduled, mine, { checkIn, again }) {
  const when = localTime;
  return h("ul", { class: "game-list calendar" }, scheduled.map((item, index) => h("li", { "data-tournament": item.tournament },
    h("a", { href: `/#/t/${item.tournament}` }, gameName(item.tournament, item.title)), " · ",
    h("time", { datetime: item.starts_at }, when(item.starts_at)), " ",
    item.outcome
      ? h("span", { class: "badge" }, OUTCOMES[item.outcome]?.() ?? item.outcome)
      : h("span", { class: "muted" }, say(gettext("check-in from %(time)s; %(count)s checked in"),
        { time: when(item.checkin_opens_at), count: item.checked_in.length })),
    item.reason ? h("span", { class: "muted small" }, ` (${reasonWords(item.reason)})`) : null,
    item.outcome ? null : h("div", { class: "checkin" }, scheduleParts(mine[index] ?? { ...item, you: null },
      { brief: true, onCheckIn: () => checkIn(item.tournament), onStage: again })))));
}

// ---- A season: standings with the tie-break in words, its tournaments ----

const DECIDED = {
  points: () => gettext("more points"),
  wins: () => gettext("more championships"),
  finals: () => gettext("more Finals reached"),
  fans: () => gettext("more fans"),
  played: () => gettext("fewer tournaments played"),
};

function decidedWords(row, index) {
  if (row.decided_by === null || index === 0) return gettext("leads");
  if (row.decided_by === "tied") return gettext("tied with the row above");
  const words = DECIDED[row.decided_by]?.() ?? row.decided_by;
  return say(gettext("behind the row above, which has %(reason)s"), { reason: words });
}

function tiebreakWords() {
  return h("p", { class: "muted small tiebreak" }, gettext(
    "How rows are ordered: more points first; on equal points, more championships; then more Finals reached; " +
    "then more fans; then fewer tournaments played. Rows equal on all five share a rank."));
}

function rating(value) {
  return value ? value.ordinal.toFixed(2) : "–";
}

function standingsTable(slug, standings, recorded = false) {
  // A season whose every recorded result was struck (a disqualification) has results, none counted.
  if (!standings.rows.length) return h("p", { class: "muted" }, recorded && standings.kind === "all"
    ? gettext("No member has a result in this season: every recorded result was struck.")
    : gettext("No result recorded in this season yet."));
  // Rank and member stay in view while the numbers scroll (a phone); the points, wins and fans a
  // reader looks for come first.
  const head = [gettext("Member"), gettext("Points"), gettext("Wins"), gettext("Fans"),
    gettext("Finals"), gettext("Played"), gettext("Rating"), gettext("Why this place")];
  // The rank's head is "#" (its word for a screen reader): a narrow column whatever the language.
  const rankHead = h("th", { scope: "col", class: "rank", title: gettext("Rank") },
    h("span", { "aria-hidden": "true" }, "#"), h("span", { class: "visually-hidden" }, gettext("Rank")));
  return [h("div", { class: "table-wrap", tabindex: 0, role: "region", "aria-label": gettext("Standings") }, h("table", { class: "standings" },
    h("thead", {}, h("tr", {}, rankHead, head.map((text, index) => h("th", { scope: "col", class: index ? "" : "member" }, text)))),
    h("tbody", {}, standings.rows.map((row, index) => h("tr", {},
      h("td", { class: "rank" }, String(row.rank)),
      h("th", { scope: "row", class: "member" }, h("a", { href: memberPath(slug, row.member), class: "name", title: row.member }, row.member),
        row.kind === "bot" ? [" ", h("span", { class: "badge" }, gettext("bot"))] : null),
      [row.points, row.wins, row.fans, row.finals, row.played].map((value, column) => h("td", { class: column ? "num" : "num points" }, String(value))),
      h("td", { class: "num" }, rating(row.rating)),
      h("td", { class: "small" }, decidedWords(row, index))))))),
  h("p", { class: "muted small" }, gettext("Rating: the conservative skill estimate (μ − 3σ)."))];
}

function scoringWords(scoring) {
  return say(gettext("Points: champion %(champion)s, finalist %(finalist)s, the others by fans rank %(ranks)s, plus %(played)s for each tournament played."),
    { champion: scoring.champion, finalist: scoring.finalist, ranks: scoring.by_fans_rank.join(", "), played: scoring.played });
}

/** The league and its standings of `kind` (read again only when the season's lines change). */
function pageReads(base, id, kind) {
  return Promise.all([attempt(() => get(base)), attempt(() => get(`${base}standings/?season=${id}&kind=${kind}`))]);
}

/** A season's page: the server drew it (leagues/web/season_page.py) and the script keeps it
 * current; drawn here only when the page came without it. */
function seasonPage(container, slug, id, state) {
  const drawn = container.querySelector("#season-drawn");
  if (!drawn) return showSeason(container, slug, id, state);
  const { version, live, lines } = JSON.parse(drawn.textContent);
  // A live season came with its lines: the first poll asks what changed since the version drawn.
  state.feed = live ? seasonFeed(slug, id, { version, lines }) : null;
  state.kind = "all";
  state.drawn = true;
  const filter = container.querySelector("#standings-kind");
  filter.addEventListener("change", () => { clearTimeout(state.timer); showSeason(container, slug, id, state, filter.value); });
  if (live) state.timer = setTimeout(() => showSeason(container, slug, id, state), live === "playing" ? REFRESH_MS : LOBBY_REFRESH_MS);
}

async function showSeason(container, slug, id, state, kind = state.kind ?? "all") {
  const base = `leagues/${encodeURIComponent(slug)}/`;
  const call = (state.calls += 1); // only the latest read may draw
  state.feed ??= seasonFeed(slug, id);
  // A first read or another filter: the league and standings now, beside the lines.
  const early = kind !== state.kind ? pageReads(base, id, kind) : null;
  state.kind = kind;
  const read = await attempt(() => state.feed.read());
  const [league, standings] = early ? await early : read?.changed ? await pageReads(base, id, kind) : [];
  if (state.stopped || call !== state.calls) return;
  if (!read || ((early || read.changed) && (!league || !standings))) return state.drawn ? undefined : unavailable(container);
  const { lines } = read;
  clearTimeout(state.timer);
  // While a tournament is live the page asks again; an unchanged season answers 304 and nothing
  // is drawn again (an opened list of replays stays open).
  const playing = lines.some((line) => line.type === "tournament" && ((LIVE.has(line.status) && line.status !== "lobby") || (line.status === "finished" && !line.recorded)));
  const waiting = lines.some((line) => line.type === "tournament" && line.status === "lobby");
  if (playing || waiting) state.timer = setTimeout(() => showSeason(container, slug, id, state), playing ? REFRESH_MS : LOBBY_REFRESH_MS);
  if (!league) return;
  state.drawn = true;
  const season = league.seasons.find((one) => one.id === id);
  document.title = say(gettext("Challengers! — %(league)s, %(season)s"), { league: league.name, season: season.name });
  const filter = h("select", { id: "standings-kind", "data-key": "standings-kind",
    onchange: () => { clearTimeout(state.timer); showSeason(container, slug, id, state, filter.value); } },
  [["all", gettext("Everyone")], ["human", gettext("People only")], ["bot", gettext("Bots only")]].map(([value, text]) =>
    h("option", { value, selected: value === kind }, text)));
  const tournaments = lines.filter((line) => line.type === "tournament");
  mount(container, crumbs(["/leagues/", gettext("Leagues")], [leaguePath(slug), league.name]),
    h("h1", {}, say(gettext("%(league)s: %(season)s"), { league: league.name, season: season.name })),
    h("p", { class: "muted" }, dates(season), season.archived ? ` · ${gettext("archived")}` : ""),
    season.closed ? h("p", { class: "muted", id: "season-closed" }, say(gettext("Results closed: %(reason)s"),
      { reason: season.closures.at(-1)?.reason ?? "" })) : null,
    h("section", { class: "panel" }, h("h2", {}, gettext("Standings")),
      h("label", { class: "field inline" }, h("span", {}, gettext("Show")), filter),
      standingsTable(slug, standings, tournaments.some((line) => line.recorded)), tiebreakWords(),
      h("p", { class: "muted small" }, scoringWords(season.scoring))),
    h("section", { class: "panel" }, h("h2", {}, gettext("Tournaments")),
      tournaments.length ? h("ul", { class: "season-tournaments" }, tournaments.map((line) => tournamentItem(slug, line, lines)))
        : h("p", { class: "muted" }, gettext("No tournament in this season yet."))));
}

function statusBadge(line) {
  if (LIVE.has(line.status) && line.status !== "lobby") return h("span", { class: "badge status-match" }, gettext("live"), ": ", gettext(STATUS_WORDS[line.status] ?? line.status));
  if (line.status === "finished" && !line.recorded) return h("span", { class: "badge status-deck" }, gettext("finished, result being recorded"));
  return h("span", { class: `badge status-${line.status}` }, gettext(STATUS_WORDS[line.status] ?? line.status));
}

function tournamentItem(slug, line, lines) {
  const names = new Map(line.results.map((result) => [result.seat, result.member]));
  const seatName = (number) => (number === -1 ? gettext("the Robot") : names.get(number) ?? say(gettext("seat %(seat)s"), { seat: number + 1 }));
  const podium = [...line.results].sort((a, b) => a.place - b.place).slice(0, 3);
  const matches = lines.filter((other) => other.type === "match" && other.tournament === line.id);
  return h("li", { class: "panel season-tournament", "data-tournament": line.id },
    h("h3", {}, h("a", { href: `/#/t/${line.id}` }, gameName(line.id, line.title)), " ", statusBadge(line)),
    podium.length ? h("p", {}, podium.map((result, index) => [index ? " · " : "",
      say(gettext("%(place)s. %(member)s (%(points)s pts)"), { place: result.place, member: result.member, points: result.points })])) : null,
    correctedMark(line.corrections),
    line.status === "lobby" ? null : h("p", { class: "small" }, h("a", { href: roundsPath(slug, line.id) }, gettext("Round by round"))),
    matches.length ? h("details", {}, h("summary", {}, say(ngettext("%(count)s replay", "%(count)s replays", matches.length), { count: matches.length })),
      h("ul", { class: "replays" }, matches.map((match) => h("li", {},
        h("a", { href: `/#/match/${match.id}` },
          match.round === 8 ? gettext("Final") : say(gettext("Round %(round)s"), { round: match.round }), ", ",
          say(gettext("%(park)s park"), { park: match.park }), ": ",
          say(gettext("%(a)s vs %(b)s"), { a: seatName(match.seats[0]), b: seatName(match.seats[1]) })),
        match.winner === null ? null : h("span", { class: "muted" }, " ", say(gettext("won by %(name)s"), { name: seatName(match.winner) })),
        match.correction ? [" ", h("span", { class: "badge badge-corrected" }, gettext("forfeit"))] : null)))) : null);
}

// ---- A member: history, rating over time, corrections ----

async function showMember(container, slug, handle) {
  const base = `leagues/${encodeURIComponent(slug)}/`;
  const [league, member] = await Promise.all([attempt(() => get(base)), attempt(() => get(`${base}members/${encodeURIComponent(handle)}/`))]);
  if (!league || !member) return unavailable(container);
  document.title = say(gettext("Challengers! — %(member)s in %(league)s"), { member: member.member, league: league.name });
  const seasons = new Map(league.seasons.map((season) => [season.id, season]));
  const rated = member.tournaments.filter((row) => row.rating);
  mount(container, crumbs(["/leagues/", gettext("Leagues")], [leaguePath(slug), league.name]),
    h("h1", {}, member.member, member.kind === "bot" ? [" ", h("span", { class: "badge" }, gettext("bot"))] : null),
    h("p", {}, member.rating
      ? say(gettext("Rating %(ordinal)s (μ %(mu)s, σ %(sigma)s) after %(count)s."), {
        ordinal: member.rating.ordinal.toFixed(2), mu: member.rating.mu.toFixed(2), sigma: member.rating.sigma.toFixed(2),
        count: say(ngettext("%(n)s tournament", "%(n)s tournaments", member.tournaments.length), { n: member.tournaments.length }) })
      : gettext("Not rated yet: no recorded tournament.")),
    rated.length ? h("section", { class: "panel" }, h("h2", {}, gettext("Rating over time")), ratingChart(rated)) : null,
    h("section", { class: "panel" }, h("h2", {}, gettext("History")), historyTable(member.tournaments, seasons, slug)),
    member.corrections.length ? h("section", { class: "panel" }, h("h2", {}, gettext("Corrections")),
      h("ul", { class: "game-list" }, member.corrections.map((correction) => h("li", {}, correctionWords(correction))))) : null);
}

function historyTable(rows, seasons, slug) {
  if (!rows.length) return h("p", { class: "muted" }, gettext("No recorded tournament yet."));
  const head = [gettext("Game"), gettext("Season"), gettext("Place"), gettext("Points"), gettext("Fans"), gettext("Rating after"), gettext("Change")];
  return h("div", { class: "table-wrap", tabindex: 0, role: "region", "aria-label": gettext("History") }, h("table", { class: "history" },
    h("thead", {}, h("tr", {}, head.map((text) => h("th", { scope: "col" }, text)))),
    // A corrected game's reasons take a line of their own under its row (a narrow table stays narrow).
    h("tbody", {}, rows.map((row) => [h("tr", {},
      h("th", { scope: "row" }, h("a", { href: roundsPath(slug, row.tournament) }, gameName(row.tournament, row.title))),
      h("td", {}, h("a", { href: seasonPath(slug, row.season) }, seasons.get(row.season)?.name ?? String(row.season))),
      h("td", { class: "num" }, String(row.place), row.champion ? [" ", h("span", { class: "badge" }, gettext("champion"))] : null),
      h("td", { class: "num" }, String(row.points)), h("td", { class: "num" }, String(row.fans)),
      h("td", { class: "num" }, rating(row.rating)),
      h("td", { class: "num" }, row.rating ? `${row.rating.change >= 0 ? "+" : "−"}${Math.abs(row.rating.change).toFixed(2)}` : "–")),
    row.corrections.length ? h("tr", { class: "corrected-row" }, h("td", { colspan: 7 }, correctedMark(row.corrections))) : null]))));
}

/** The rating (μ − 3σ) after each recorded tournament, as a small line chart with a text twin. */
function ratingChart(rows) {
  const width = 600, height = 170, left = 46, right = 12, top = 14, bottom = 26;
  const values = rows.map((row) => row.rating.ordinal);
  const low = Math.min(0, ...values), high = Math.max(1, ...values);
  const x = (index) => left + (rows.length === 1 ? (width - left - right) / 2 : index * (width - left - right) / (rows.length - 1));
  const y = (value) => top + (high - value) * (height - top - bottom) / (high - low || 1);
  const svg = (tag, attrs, ...children) => {
    const element = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
    element.append(...children);
    return element;
  };
  const summary = say(gettext("Rating after each of %(count)s, from %(first)s to %(last)s."), {
    count: say(ngettext("%(n)s tournament", "%(n)s tournaments", rows.length), { n: rows.length }),
    first: values[0].toFixed(2), last: values[values.length - 1].toFixed(2) });
  const points = values.map((value, index) => `${x(index).toFixed(1)},${y(value).toFixed(1)}`).join(" ");
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "rating-chart", role: "img", "aria-label": summary },
    svg("line", { x1: left, x2: width - right, y1: y(0), y2: y(0), class: "axis" }),
    svg("text", { x: left - 6, y: y(high) + 4, "text-anchor": "end" }, high.toFixed(1)),
    svg("text", { x: left - 6, y: y(low) + 4, "text-anchor": "end" }, low.toFixed(1)),
    svg("polyline", { points, class: "line" }),
    ...values.map((value, index) => svg("circle", { cx: x(index), cy: y(value), r: 4 },
      svg("title", {}, labelled(gameName(rows[index].tournament, rows[index].title), value.toFixed(2))))),
    svg("text", { x: left, y: height - 6 }, say(gettext("game #%(id)s"), { id: rows[0].tournament })),
    rows.length > 1 ? svg("text", { x: width - right, y: height - 6, "text-anchor": "end" },
      say(gettext("game #%(id)s"), { id: rows[rows.length - 1].tournament })) : "");
  return [chart, h("p", { class: "muted small" }, summary)];
}
