// The table chat: messages from the stream's `chat` events, a box to post (seats, and spectators
// who joined by name when the host allows it), the host's mutes and its spectator switch.
// A message is only ever a text node: nothing a player types is read as HTML.
import { post } from "./api.js";
import { clearErrors, h, mount, showError } from "./ui.js";
import { fmt } from "./i18n.js";

/* global gettext */

export const CHAT_MAX = 280;
const NAME_MAX = 24;

// A bot's set lines (the event's `line`) in the reader's language; its `text` is the English one.
const BOT_LINES = { greeting: () => gettext("Hi all, good luck and have fun!"), farewell: () => gettext("gg") };

/** What a message says, as this reader reads it. */
function said(message) {
  return BOT_LINES[message.line]?.() ?? message.text;
}

export function chatLines(messages) {
  if (!messages.length) return h("p", { class: "muted" }, gettext("No message yet."));
  return h("ol", { class: "chat-log", "aria-label": gettext("Messages") },
    messages.map((m) => h("li", {}, h("span", { class: "seat-name" }, m.name),
      m.seat === null ? h("span", { class: "muted spectator-tag" }, ` (${gettext("spectator")})`) : null,
      ": ", said(m))));
}

/** A spectator's chat ticket for a tournament (`{token, name, number}`), kept across reloads. */
function chatTicket(tournament) {
  try {
    return JSON.parse(localStorage.getItem(`challengers.chat.${tournament}`) || "null");
  } catch {
    return null;
  }
}

function keepChatTicket(tournament, ticket) {
  if (ticket) localStorage.setItem(`challengers.chat.${tournament}`, JSON.stringify(ticket));
  else localStorage.removeItem(`challengers.chat.${tournament}`);
}

const authorKey = (author) => (author.seat === null || author.seat === undefined
  ? `spectator-${author.spectator}` : `seat-${author.seat}`);

/** The chat panel of a tournament page: `page.chat` holds the messages, `page.say(text)` posts. */
export class ChatPanel {
  constructor(page) {
    this.page = page;
    this.messages = [];
    this.muted = new Map();
    this.ticket = chatTicket(page.id);
    this.list = h("div", { class: "chat-list", "aria-live": "polite" });
    this.tools = h("div", {});
    this.form = this.messageForm();
    this.joinForm = this.nameForm();
    this.element = h("section", { class: "panel chat", "aria-label": gettext("Table chat") },
      h("h2", {}, gettext("Table chat")), this.list, this.form, this.joinForm, this.tools);
  }

  /** The box to post in. No `maxlength`: a long paste would be cut without a word; the box
   * says how long the message is against the limit, and Send waits until it fits. */
  messageForm() {
    const note = h("p", { id: "chat-length", class: "muted small", "data-key": "chat-length", "aria-live": "polite" });
    const send = h("button", { type: "submit", "data-key": "chat-send" }, gettext("Send"));
    const input = h("input", { id: "chat-text", "data-key": "chat-text", autocomplete: "off", "aria-describedby": "chat-length",
      oninput: () => {
        const length = [...input.value.trim()].length;
        const over = length > CHAT_MAX;
        note.textContent = over ? fmt(gettext("Too long: %(length)s characters, at most %(max)s."), { length, max: CHAT_MAX }) : "";
        send.disabled = over;
      } });
    const form = h("form", { class: "row chat-form", onsubmit: async (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (!text || [...text].length > CHAT_MAX) return;
      try {
        await this.say(text);
        input.value = "";
      } catch (error) {
        if (error.code === "bad_token" && this.ticket) this.forget();
        showError(error);
      }
    } }, h("label", { for: "chat-text", class: "visually-hidden" }, gettext("Message to the table")), input, send);
    return h("div", {}, form, note);
  }

  /** A spectator's way in: a name, for a chat token (when the host lets spectators chat). */
  nameForm() {
    const input = h("input", { id: "chat-name", "data-key": "chat-name", maxlength: NAME_MAX, autocomplete: "nickname" });
    return h("form", { class: "row chat-join", onsubmit: async (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      try {
        this.ticket = await post(`tournaments/${this.page.id}/chat/spectators/`, { name });
        keepChatTicket(this.page.id, this.ticket);
        clearErrors(); // a refused name before is no longer the news
        this.render();
        document.getElementById("chat-text")?.focus();
      } catch (error) {
        showError(error);
      }
    } }, h("label", { for: "chat-name" }, gettext("Your name in the chat")), input,
      h("button", { type: "submit", "data-key": "chat-join" }, gettext("Join the chat")));
  }

  say(text) {
    if (this.page.me) return this.page.post("chat/", { text });
    return post(`tournaments/${this.page.id}/chat/`, { text }, this.ticket?.token);
  }

  forget() {
    this.ticket = null;
    keepChatTicket(this.page.id, null);
    this.render();
  }

  add(message) {
    if (this.messages.some((m) => m.seq === message.seq)) return;
    this.messages.push(message);
    // Follow the newest line, unless the reader has scrolled up to read an older one.
    const before = this.list.querySelector(".chat-log");
    const following = !before || before.scrollHeight - before.scrollTop - before.clientHeight < 24;
    mount(this.list, chatLines(this.messages.slice(-50)));
    const after = this.list.querySelector(".chat-log");
    if (after) after.scrollTop = following ? after.scrollHeight : before.scrollTop;
    if (message.spectator !== undefined && this.page.me) this.render(); // a new spectator to mute
  }

  /** `author`: a `chat_mute` payload (`seat` or `spectator`). */
  mute(author, muted) {
    this.muted.set(authorKey(author), muted);
    this.render();
  }

  spectatorName(number) {
    return this.messages.find((m) => m.spectator === number)?.name
      ?? fmt(gettext("Spectator %(number)s"), { number });
  }

  /** Posting for seats, and for spectators the host admits; the host's mute switches. */
  render() {
    const v = this.page.view;
    const me = this.page.me;
    const over = v.status === "cancelled";
    const open = Boolean(v.options?.spectator_chat);
    this.form.hidden = over || !(me || (open && this.ticket));
    this.joinForm.hidden = over || Boolean(me) || !open || Boolean(this.ticket);
    if (!this.messages.length) mount(this.list, chatLines([]));
    const host = me && v.seats.find((s) => s.number === me.seat)?.is_host;
    mount(this.tools, host ? this.hostTools(v, me, open) : null);
  }

  hostTools(v, me, open) {
    const seats = v.seats.filter((s) => s.number !== me.seat && s.kind === "human")
      .map((s) => ({ key: `seat-${s.number}`, body: { seat: s.number }, name: s.name }));
    const spectators = [...new Map(this.messages.filter((m) => m.seat === null)
      .map((m) => [m.spectator, m.name])).entries()]
      .map(([number, name]) => ({ key: `spectator-${number}`, body: { spectator: number }, name }));
    const over = v.status === "finished" || v.status === "cancelled";
    const allow = h("input", { type: "checkbox", id: "chat-spectators", "data-key": "chat-spectators", checked: open,
      disabled: over, onchange: (e) => this.page.act("chat/", { spectator_chat: e.target.checked }, "PATCH") });
    // Opened once, the mute list stays open across redraws (each stream event may redraw).
    return h("details", { open: this.toolsOpen, ontoggle: (e) => { this.toolsOpen = e.target.open; } },
      h("summary", {}, gettext("Chat settings and mutes")),
      h("label", { class: "check", for: "chat-spectators" }, allow, " ", gettext("Spectators may chat (with a name)")),
      [...seats, ...spectators].map((who) => {
        const muted = this.muted.get(who.key) ?? false;
        return h("button", { class: "small", "data-key": `mute-${who.key}`,
          onclick: () => this.page.post("chat/mute/", { ...who.body, muted: !muted }).catch(showError) },
        fmt(muted ? gettext("Unmute %(name)s") : gettext("Mute %(name)s"), { name: who.name }));
      }));
  }
}
