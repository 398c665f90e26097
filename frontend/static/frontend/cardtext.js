// How a card's effect is printed (no DOM here, so that a test can run it in Node): its text,
// after its timing's label only where the text does not say when it acts. Every card text of
// the catalogue names its own trigger ("When you draft it, …", "Когда эта карта теряет флаг, …")
// except an on-reveal effect's, and a keyword card shows its keyword above the text: a label in
// front would print the keyword twice ("При выборе: При выборе получите…").

/** The timings whose label goes in front of the text (the text does not name them). */
export const LABELLED_TIMINGS = new Set(["on_reveal"]);

/** [label or null, text] of `card`'s effect line; `words(timing)` is a timing's label. */
export function effectParts(card, words) {
  const label = card.timing && LABELLED_TIMINGS.has(card.timing) ? words(card.timing) : null;
  return [label || null, card.effect ?? ""];
}

/** The effect line as one string ("On reveal: Look at…"), for a title or a search. */
export function effectSentence(card, words) {
  const [label, text] = effectParts(card, words);
  return label ? `${label}: ${text}` : text;
}
