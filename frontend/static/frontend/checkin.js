// A league tournament's scheduled start as a player sees it (the lobby and the league calendar):
// the start in the reader's own time zone with a countdown, the check-in while it is open (and
// why not before or after it), who checked in, and why a cancelled start was cancelled.
import { get, post } from "./api.js";
import { h, showError } from "./ui.js";
import { fmt, num, list, duration, LANG } from "./i18n.js";

/* global gettext, ngettext */

/** The tournament's scheduled start (`null` when it has none), read with the seat's token so
 * the answer says whether this seat checked in (`you`). */
export async function scheduleOf(tournament, token) {
  try {
    return await get(`leagues/tournaments/${tournament}/checkin/`, token);
  } catch (error) {
    if (error.code === "not_scheduled") return null;
    throw error;
  }
}

/** "1 Dec 2026, 22:15": a moment as this language writes it, in the reader's time zone. */
export function localTime(iso) {
  return new Intl.DateTimeFormat(LANG, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

/** Where a schedule stands: "before" its check-in, check-in "open", "due" (its time has come
 * and the server settles it now) or "settled" (started, cancelled or skipped). */
export function stageOf(schedule, now = Date.now()) {
  if (schedule.outcome) return "settled";
  if (now >= Date.parse(schedule.starts_at)) return "due";
  return now >= Date.parse(schedule.checkin_opens_at) ? "open" : "before";
}

/** "2:05:09", or "3 days 2:05:09", in this language's digits. */
function longDuration(seconds) {
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const two = new Intl.NumberFormat(LANG, { minimumIntegerDigits: 2 });
  const clock = hours || days ? `${num(hours)}:${two.format(Math.floor((seconds % 3600) / 60))}:${two.format(seconds % 60)}`
    : duration(seconds % 3600);
  return days ? `${fmt(ngettext("%(count)s day", "%(count)s days", days), { count: num(days) })} ${clock}` : clock;
}

/** A ticking "in 1:02:03" to `iso`; `onZero` runs once when it reaches it (while shown). */
function countdownTo(iso, onZero) {
  const span = h("span", { class: "countdown", role: "timer" });
  const tick = () => {
    const seconds = Math.max(0, Math.round((Date.parse(iso) - Date.now()) / 1000));
    span.textContent = fmt(gettext("in %(time)s"), { time: longDuration(seconds) });
    if (seconds === 0 && span.isConnected) return onZero?.();
    if (span.isConnected || !span.dataset.started) {
      span.dataset.started = "1";
      setTimeout(tick, 1000);
    }
    return undefined;
  };
  tick();
  return span;
}

/** A settled start's reason in words (why it was cancelled, or whose seats bots took under the
 * `bot` no-show policy): the server's reason names its seats (from 1), which `nameOf(seat)`
 * names as the page does (the players' names where it knows them). */
export function reasonWords(reason, nameOf = (seat) => fmt(gettext("seat %(seat)s"), { seat: num(seat) })) {
  const found = /^(\w+): seats ([\d, ]+)/.exec(reason || "");
  const seats = found ? found[2].split(",").map((seat) => Number(seat.trim())) : [];
  if (found?.[1] === "seats_open") {
    return fmt(ngettext("At its start time %(count)s seat was still free.", "At its start time %(count)s seats were still free.",
      seats.length), { count: num(seats.length) });
  }
  if (found?.[1] === "checkin_incomplete") {
    return fmt(ngettext("At its start time %(players)s had not checked in.", "At its start time %(players)s had not checked in.",
      seats.length), { players: list(seats.map(nameOf)) });
  }
  if (found?.[1] === "no_show") {
    return fmt(ngettext("%(players)s did not check in: a bot plays the seat.", "%(players)s did not check in: bots play their seats.",
      seats.length), { players: list(seats.map(nameOf)) });
  }
  return reason ? fmt(gettext("Reason: %(reason)s"), { reason }) : "";
}

/** The check-in part: what this reader may do now, and why not when nothing. */
function checkinState(schedule, onCheckIn, onStage) {
  const stage = stageOf(schedule);
  const you = schedule.you;
  if (stage === "before") {
    return h("p", {}, fmt(gettext("Check-in opens at %(time)s"), { time: localTime(schedule.checkin_opens_at) }), " (",
      countdownTo(schedule.checkin_opens_at, onStage), ").");
  }
  if (stage === "due") return h("p", { role: "status" }, gettext("Check-in is over: the game starts now, or is cancelled if a player is missing."));
  if (stage !== "open") return null;
  if (you?.checked_in) return h("p", { role: "status", class: "done" }, "✓ ", gettext("You are checked in."));
  if (!you) return h("p", {}, gettext("Check-in is open: each player checks in on this game's page."));
  return h("div", { class: "row" },
    h("button", { class: "primary", "data-key": `checkin-${schedule.tournament}`, onclick: onCheckIn }, gettext("Check in")),
    h("span", { class: "muted small" }, gettext("Check in before the start, or the game is cancelled.")));
}

/** The scheduled start: when (local time and a countdown), the check-in, who checked in.
 * `players`: the seats that must check in, when known; `onCheckIn`/`onStage`: what the page does
 * after a check-in and when a moment (check-in opening, the start) comes; `brief`: without the
 * time and the tally (the calendar's line shows them). */
export function scheduleParts(schedule, { players = null, onCheckIn, onStage, brief = false } = {}) {
  const stage = stageOf(schedule);
  const count = schedule.checked_in.length;
  const tally = players === null
    ? fmt(ngettext("%(count)s checked in", "%(count)s checked in", count), { count: num(count) })
    : fmt(ngettext("%(count)s of %(total)s player checked in", "%(count)s of %(total)s players checked in", players),
      { count: num(count), total: num(players) });
  return [
    brief ? null : h("p", {}, gettext("Starts:"), " ", h("time", { datetime: schedule.starts_at }, localTime(schedule.starts_at)),
      stage === "before" || stage === "open" ? [" (", countdownTo(schedule.starts_at, onStage), ")"] : null),
    brief && (stage === "before" || stage === "open") ? h("p", {}, gettext("Starts:"), " ", countdownTo(schedule.starts_at, onStage)) : null,
    checkinState(schedule, onCheckIn, onStage),
    stage === "settled" || brief ? null : h("p", { class: "muted small", "data-key": "checked-in" }, tally, " · ", gettext("bots are always ready")),
  ];
}

/** The lobby's panel of a scheduled start. */
export function schedulePanel(schedule, options) {
  return h("section", { class: "panel schedule", "aria-labelledby": "schedule-title" },
    h("h2", { id: "schedule-title" }, gettext("Scheduled start")), scheduleParts(schedule, options));
}

/** Check this seat in; the answer (or a refusal, shown in words) then reads the schedule again. */
export async function checkInAs(tournament, token) {
  try {
    await post(`leagues/tournaments/${tournament}/checkin/`, {}, token);
  } catch (error) {
    showError(error);
  }
}
