// The table chat: messages from the stream's `chat` events, a box to post (seats), host mutes.
// A message is only ever a text node: nothing a player types is read as HTML.
import { h, mount, showError } from "./ui.js";
import { fmt } from "./i18n.js";

/* global gettext */

export const CHAT_MAX = 280;

export function chatLines(messages) {
  if (!messages.length) return h("p", { class: "muted" }, gettext("No message yet."));
  return h("ol", { class: "chat-log", "aria-label": gettext("Messages") },
    messages.map((m) => h("li", {}, h("span", { class: "seat-name" }, m.name), ": ", m.text)));
}

/** The chat panel of a tournament page: `page.chat` holds the messages, `page.say(text)` posts. */
export class ChatPanel {
  constructor(page) {
    this.page = page;
    this.messages = [];
    this.muted = new Map();
    this.list = h("div", { class: "chat-list", "aria-live": "polite" });
    this.tools = h("div", {});
    const input = h("input", { id: "chat-text", "data-key": "chat-text", maxlength: CHAT_MAX, autocomplete: "off" });
    this.form = h("form", { class: "row chat-form", onsubmit: async (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      try {
        await this.page.post("chat/", { text });
        input.value = "";
      } catch (error) {
        showError(error);
      }
    } }, h("label", { for: "chat-text", class: "visually-hidden" }, gettext("Message to the table")), input,
      h("button", { type: "submit", "data-key": "chat-send" }, gettext("Send")));
    this.element = h("section", { class: "panel chat", "aria-label": gettext("Table chat") },
      h("h2", {}, gettext("Table chat")), this.list, this.form, this.tools);
  }

  add(message) {
    if (this.messages.some((m) => m.seq === message.seq)) return;
    this.messages.push(message);
    mount(this.list, chatLines(this.messages.slice(-50)));
  }

  mute(seat, muted) {
    this.muted.set(seat, muted);
    this.render();
  }

  /** Posting for seats only; the host's mute switches. */
  render() {
    const v = this.page.view;
    const me = this.page.me;
    this.form.hidden = !me || v.status === "cancelled";
    if (!this.messages.length) mount(this.list, chatLines([]));
    const others = me ? v.seats.filter((s) => s.number !== me.seat && s.kind === "human") : [];
    const host = others.length && v.seats.find((s) => s.number === me.seat)?.is_host;
    // Opened once, the mute list stays open across redraws (each stream event may redraw).
    mount(this.tools, host ? h("details", { open: this.toolsOpen, ontoggle: (e) => { this.toolsOpen = e.target.open; } },
      h("summary", {}, gettext("Mute a seat")),
      others.map((s) => {
        const muted = this.muted.get(s.number) ?? false;
        return h("button", { class: "small", "data-key": `mute-${s.number}`,
          onclick: () => this.page.post("chat/mute/", { seat: s.number, muted: !muted }).catch(showError) },
        fmt(muted ? gettext("Unmute %(name)s") : gettext("Mute %(name)s"), { name: s.name }));
      })) : null);
  }
}
