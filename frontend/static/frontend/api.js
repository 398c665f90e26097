// The public REST API and the tournament stream, as one browser tab sees them.
// Seat tokens are kept in localStorage per tournament, so a reload keeps the seat.

/* global gettext, interpolate */

const BASE = "/api/v1/";
// The language the page was served in: the stream's refusals are written in it too.
const LANG = document.documentElement.lang || "en";

export class ApiError extends Error {
  constructor(status, body) {
    super(body.message || interpolate(gettext("The server answered %(status)s."), { status }, true));
    this.status = status;
    this.code = body.code || "error";
    this.details = body.details || {};
  }
}

export function seatOf(tournament) {
  try {
    return JSON.parse(localStorage.getItem(`challengers.seat.${tournament}`) || "null");
  } catch {
    return null;
  }
}

export function keepSeat(tournament, ticket) {
  localStorage.setItem(`challengers.seat.${tournament}`, JSON.stringify(ticket));
}

export function forgetSeat(tournament) {
  localStorage.removeItem(`challengers.seat.${tournament}`);
}

export async function request(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  // One key per action: a retried POST whose answer was lost is never done twice.
  if (method !== "GET") headers["Idempotency-Key"] = crypto.randomUUID();
  const send = () => fetch(BASE + path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  let response;
  try {
    response = await send();
  } catch {
    response = await send().catch(() => {
      throw new ApiError(0, { code: "offline", message: gettext("The server cannot be reached.") });
    });
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const get = (path, token) => request("GET", path, { token });
export const post = (path, body, token) => request("POST", path, { body: body ?? {}, token });

/** Follow the tournament stream from `after`, reconnecting with the last seq after a drop. */
export function follow(tournament, token, onFrame) {
  let last = 0;
  let socket = null;
  let closed = false;
  const open = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = new URLSearchParams({ after: String(last), lang: LANG });
    // The token rides in the handshake's subprotocols, never in the URL (nor in any access log).
    const protocols = token ? ["challengers.v1", `bearer.${token}`] : ["challengers.v1"];
    socket = new WebSocket(`${scheme}://${location.host}/ws/tournaments/${tournament}/?${query}`, protocols);
    socket.onmessage = (message) => {
      const frame = JSON.parse(message.data);
      if (frame.type === "event") last = frame.seq;
      onFrame(frame);
    };
    // 4401 (bad token), 4403 (a page of another site) and 4404 (no such tournament) will not
    // change by retrying; a drop will.
    socket.onclose = (event) => { if (!closed && ![4401, 4403, 4404].includes(event.code)) setTimeout(open, 1000); };
  };
  open();
  return () => { closed = true; socket?.close(); };
}
