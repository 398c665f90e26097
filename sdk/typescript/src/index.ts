// A typed TypeScript client of the Challengers! game server (sdk/typescript/README.md).
//
// REST: openapi-fetch over `paths`, generated from schema/openapi.yaml into ./openapi.ts, with
// the seat token as `Authorization: Bearer`, an `Idempotency-Key` on every call that changes
// something, and the same request sent again (same key) when no answer came. The stream: the
// tournament's events as an async iterable, typed from schema/asyncapi.yaml (./stream.ts),
// resumed with `?after=<last seq>` when the connection drops. Both files are made by
// `manage.py export_sdks`; this one is written by hand.
import createFetchClient, { type Client } from "openapi-fetch";
import type { components, operations, paths } from "./openapi.ts";
import type { components as streamComponents } from "./stream.ts";

export type { components, operations, paths };
/** Every REST shape by its schema name: `Schemas["TournamentView"]`. */
export type Schemas = components["schemas"];
/** An event frame of the stream: `{type: "event", seq, kind, payload}`. */
export type StreamEvent = streamComponents["schemas"]["streamEvent"];
/** An error frame of the stream: `{type: "error", code, message}`. */
export type StreamErrorFrame = streamComponents["schemas"]["streamError"];
export type Api = Client<paths>;

/** A coded refusal (docs/errors.md): the HTTP status, `code`, `message` and `details`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(`${status} ${code}: ${message}`);
  }
}

export interface ApiOptions {
  /** A seat's token (or an organizer's): sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** How many times a request with no answer is sent (the same Idempotency-Key each time). */
  attempts?: number;
}

/** The REST API at `baseUrl` (`http://127.0.0.1:8000`): `api.GET("/api/v1/…", {params})`. */
export function createApi(baseUrl: string, options: ApiOptions = {}): Api {
  const attempts = options.attempts ?? 3;
  const fetchWithRetries = async (request: Request): Promise<Response> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fetch(request.clone());
      } catch (error) {
        if (attempt >= attempts) throw error; // no answer: the same request (and key) again
      }
    }
  };
  const api = createFetchClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ""),
    fetch: fetchWithRetries,
    headers: { Accept: "application/json" },
  });
  api.use({
    onRequest({ request }) {
      if (options.token) request.headers.set("Authorization", `Bearer ${options.token}`);
      if (request.method !== "GET" && !request.headers.has("Idempotency-Key")) {
        request.headers.set("Idempotency-Key", crypto.randomUUID());
      }
      return request;
    },
  });
  return api;
}

/** The answer's data, or an `ApiError` thrown for a refusal:
 * `const view = await ok(api.GET("/api/v1/tournaments/{tournament_id}/", {...}))`. */
export async function ok<D, E>(
  call: Promise<{ data?: D; error?: E; response: Response }>,
): Promise<D> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) {
    const refusal = (error ?? {}) as { code?: string; message?: string; details?: unknown };
    throw new ApiError(
      response.status,
      refusal.code ?? "http_error",
      refusal.message ?? response.statusText,
      refusal.details,
    );
  }
  return data as D;
}

/** The stream refused the connection: an error frame, then a close code 4400-4404. */
export class StreamRefused extends Error {
  constructor(
    readonly closeCode: number,
    readonly error?: StreamErrorFrame,
  ) {
    super(`stream refused (${closeCode}): ${error?.code ?? "closed"}`);
  }
}

export interface StreamOptions {
  /** A seat's token (none: a spectator). It rides in the subprotocols, out of the URL. */
  token?: string;
  /** The last seq already held (0: the whole tournament). */
  after?: number;
  /** Failed connections in a row before giving up. */
  retries?: number;
}

type Item = { frame: StreamEvent | StreamErrorFrame } | { closed: number };

/** `/ws/tournaments/{id}/` as an async iterable of event frames, in `seq` order with no gap and
 * no repeat. After a drop (a network error, a server restart, `drop()`) it connects again with
 * `?after=<the last seq received>`; a refusal throws `StreamRefused`. Needs a global WebSocket
 * (node 22+, node 20 with --experimental-websocket, or a browser). */
export class TournamentStream implements AsyncIterable<StreamEvent> {
  lastSeq: number;
  /** Connections made again after a drop. */
  reconnects = 0;
  private abandon: (() => void) | undefined;
  private readonly url: string;

  constructor(
    baseUrl: string,
    tournament: number,
    private readonly options: StreamOptions = {},
  ) {
    this.url = `${baseUrl.replace(/^http/, "ws").replace(/\/+$/, "")}/ws/tournaments/${tournament}/`;
    this.lastSeq = options.after ?? 0;
  }

  /** Cut the current connection as a network failure would: the stream stops reading it at
   * once (its close goes on in the background), connects again and resumes. */
  drop(): void {
    this.abandon?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<StreamEvent, void, undefined> {
    if (typeof globalThis.WebSocket !== "function") {
      throw new Error("no global WebSocket: node 22+, or node 20 with --experimental-websocket");
    }
    const protocols = ["challengers.v1"];
    if (this.options.token) protocols.push(`bearer.${this.options.token}`);
    let failures = 0;
    for (;;) {
      const socket = new WebSocket(`${this.url}?after=${this.lastSeq}`, protocols);
      const queue: Item[] = [];
      let wake: (() => void) | undefined;
      const push = (item: Item) => {
        queue.push(item);
        wake?.();
        wake = undefined;
      };
      socket.onmessage = (message) => push({ frame: JSON.parse(String(message.data)) });
      socket.onclose = (close) => push({ closed: close.code });
      this.abandon = () => {
        socket.onmessage = socket.onclose = null;
        queue.length = 0;
        push({ closed: 1006 }); // as if the network failed
      };
      let refusal: StreamErrorFrame | undefined;
      let closeCode: number;
      try {
        for (;;) {
          if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
          const item = queue.shift() as Item;
          if ("closed" in item) {
            closeCode = item.closed;
            break;
          }
          const frame = item.frame;
          if (frame.type === "error") {
            refusal = frame;
            continue;
          }
          if (frame.seq <= this.lastSeq) continue; // already had it
          if (frame.seq !== this.lastSeq + 1) {
            throw new Error(`stream gap: ${this.lastSeq} then ${frame.seq}`);
          }
          failures = 0;
          this.lastSeq = frame.seq;
          yield frame;
        }
      } finally {
        this.abandon = undefined;
        if (socket.readyState <= WebSocket.OPEN) socket.close();
      }
      if (closeCode >= 4000 && closeCode < 5000) throw new StreamRefused(closeCode, refusal);
      failures += 1;
      if (failures > (this.options.retries ?? 5)) {
        throw new Error(`${this.url}: ${failures} failed connections in a row`);
      }
      this.reconnects += 1;
      if (failures > 1) await new Promise((r) => setTimeout(r, Math.min(200 * 2 ** failures, 5000)));
    }
  }
}
