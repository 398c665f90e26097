// A league's corrections in words, and the mark a corrected result carries on every page that
// shows it (a season's tournaments, a member's history, a tournament round by round, the game).
import { h } from "./ui.js";

const say = (format, values) => interpolate(format, values, true);

/** One correction: what it did, when, and the organizer's reason. */
export function correctionWords(correction) {
  const values = { member: correction.member, id: correction.tournament };
  let what;
  if (correction.kind === "forfeit") what = say(gettext("%(member)s forfeited a match of game #%(id)s"), values);
  else if (correction.kind === "manual_result") what = say(gettext("Places of game #%(id)s entered by hand"), values);
  else if (correction.kind === "no_show") what = say(gettext("%(member)s did not check in for game #%(id)s"), values);
  else if (correction.tournament) what = say(gettext("%(member)s disqualified from game #%(id)s"), values);
  else what = say(gettext("%(member)s disqualified from the whole season"), values);
  const when = String(correction.created_at).slice(0, 10);
  return [h("strong", {}, what), " ", h("span", { class: "muted" }, `(${when})`), ": ", correction.reason];
}

/** The mark of a corrected result with each correction's reason; nothing for one as played. */
export function correctedMark(corrections) {
  if (!corrections?.length) return null;
  return h("div", { class: "corrected", "data-corrections": corrections.length },
    h("span", { class: "badge badge-corrected" }, gettext("corrected")),
    h("ul", {}, corrections.map((correction) => h("li", {}, correctionWords(correction)))));
}
