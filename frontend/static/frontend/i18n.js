// The client's language: its words come from Django's JavaScript catalogue (/jsi18n/, loaded by
// the page before these modules: the globals gettext, ngettext and interpolate), its game terms
// and set names from the glossary (/glossary.json, the file the card catalogue follows too), its
// numbers and times from Intl. The choice is remembered in localStorage and in the cookie Django's
// LocaleMiddleware reads (django_language), so the page, the catalogue and the API agree.

/* global gettext, interpolate */

export const LANG = document.documentElement.lang || "en";
const REMEMBERED = "challengers.lang";
const COOKIE = "django_language";

/** A catalogue text with its %(name)s placeholders filled. */
export function fmt(text, values) {
  return interpolate(text, values, true);
}

/** A game by its title, or "Game #12" in this language when its host gave it none. */
export function gameName(id, title) {
  return title || fmt(gettext("Game #%(id)s"), { id });
}

/** "Label: text" with this language's colon ("Winter Park: all", "冬季公园：所有公园"); with no
 * text, the label and its colon alone, to stand in front of a text set apart. */
export function labelled(label, text = "") {
  return fmt(gettext("%(label)s: %(text)s"), { label, text });
}

const numbers = new Intl.NumberFormat(LANG);

/** A label's first letter in capitals ("Green park"), as this language writes it (CSS's
 * text-transform: capitalize would make every word a capital: "Зелёный Парк"). */
export function capitalised(text) {
  return text ? text[0].toLocaleUpperCase(LANG) + text.slice(1) : text;
}

/** A park by its colour ("green park"). */
export function parkName(park) {
  const names = { green: gettext("green park"), red: gettext("red park"), purple: gettext("purple park"),
    yellow: gettext("yellow park") };
  return names[park] ?? interpolate(gettext("%(park)s park"), { park }, true);
}

/** The seats as the page names them: the Robot (seat -1, stored as "The Robot") in this language. */
export function named(seats) {
  return seats.map((seat) => (seat.number === -1 ? { ...seat, name: gettext("The Robot") } : seat));
}

/** "round 3", or "the Final" (round 8). */
export function roundName(round) {
  return round === 8 ? gettext("the Final") : interpolate(gettext("round %(round)s"), { round: num(round) }, true);
}

/** A number as this language writes it. */
export function num(value) {
  return typeof value === "number" ? numbers.format(value) : String(value ?? "?");
}

/** A clock time ("18:45") as this language writes it. */
export function clock(date) {
  return new Intl.DateTimeFormat(LANG, { hour: "numeric", minute: "2-digit" }).format(new Date(date));
}

/** "m:ss", its digits in this language's way. */
export function duration(seconds) {
  const two = new Intl.NumberFormat(LANG, { minimumIntegerDigits: 2 });
  return `${num(Math.floor(seconds / 60))}:${two.format(seconds % 60)}`;
}

/** A list: "Ann and Bob" ("Ann 和 Bob", "Ann и Bob"), or with `plain` "A, B, C" ("A、B、C"). */
export function list(items, plain = false) {
  return new Intl.ListFormat(LANG, { type: "conjunction", style: plain ? "narrow" : "long" }).format(items.map(String));
}

let glossary = { terms: {}, sets: {} };
const byEnglish = new Map();

/** Read the glossary once (a failed read leaves the English words). */
export async function loadGlossary() {
  if (byEnglish.size) return;
  try {
    glossary = await (await fetch("/glossary.json")).json();
  } catch {
    return;
  }
  for (const group of [glossary.terms, glossary.sets]) {
    for (const term of Object.values(group)) byEnglish.set(term.en.toLowerCase(), term);
  }
}

/** A glossary term by its id ("deck_phase") in this language. */
export function term(id) {
  const entry = glossary.terms[id];
  return entry?.[LANG] ?? entry?.en ?? id;
}

/** A set's name in this language (the API keys sets by their English names). */
export function setName(name) {
  return glossary.sets[name]?.[LANG] ?? name;
}

/** A word the glossary knows (a card keyword such as "Newcomer"), else the word itself. */
export function glossed(english) {
  return byEnglish.get(String(english).toLowerCase())?.[LANG] ?? english;
}

function cookieLanguage() {
  return document.cookie.split("; ").find((part) => part.startsWith(`${COOKIE}=`))?.slice(COOKIE.length + 1) ?? null;
}

function remember(code) {
  localStorage.setItem(REMEMBERED, code);
  document.cookie = `${COOKIE}=${code}; path=/; max-age=31536000; samesite=lax`;
}

/** Switch the whole client (and the server's answers to it) to `code`. */
export function chooseLanguage(code) {
  remember(code);
  location.reload();
}

/** A remembered choice whose cookie was lost is restored (the page reloads in it once). */
export function restoreLanguage() {
  const chosen = localStorage.getItem(REMEMBERED);
  if (!chosen || cookieLanguage() === chosen) return false;
  remember(chosen);
  if (chosen === LANG) return false;
  location.reload();
  return true;
}

/** The header's language switch (the page draws it; choosing reloads the client in it). */
export function wireLanguageSwitch() {
  document.getElementById("language")?.addEventListener("change", (event) => chooseLanguage(event.target.value));
}
