import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { stringify } from "lossless-json";
import type { ForgeAuthor } from "../transport/port.js";

/**
 * A local stand-in for GitHub's REST issue-comments API, for tests only (never exported from the
 * package). Listens on 127.0.0.1 and speaks just enough of the API for `githubTransport`.
 */

/** A comment as the test server holds it. */
export interface ServerComment {
  readonly id: number;
  readonly pr: number;
  body: string;
  readonly user: ForgeAuthor;
  /** Left out of listings (an eventually consistent index that has not caught up). */
  hidden: boolean;
}

/** One injected misbehaviour, consumed by the next matching request. */
export type ServerFault =
  | { readonly kind: "status"; readonly status: number; readonly headers?: Readonly<Record<string, string>> }
  | { readonly kind: "drop" }
  | { readonly kind: "drop-after-apply" }
  | { readonly kind: "delay"; readonly ms: number }
  /** HTTP 200 with a body of `bytes` bytes (`[`, then spaces), streamed until sent or the client goes away. */
  | { readonly kind: "flood"; readonly bytes: number };

/** A request the server received. */
export interface ServerRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** A token the server accepts, and who it acts as. `app`: an installation token (`GET /user` is 403). */
export interface ServerToken {
  readonly author: ForgeAuthor;
  readonly app?: boolean;
}

/** A running test server. */
export interface TestServer {
  /** `http://127.0.0.1:<port>`: pass as `baseUrl`. */
  readonly baseUrl: string;
  /** `host/owner/repository` the server hosts. */
  readonly repo: string;
  readonly comments: Map<number, ServerComment>;
  readonly requests: ServerRequest[];
  /** While true, comments created or updated are hidden from listings until `reveal()`. */
  hideWrites: boolean;
  /** Queues `fault` for the next `times` requests with this method. */
  inject(method: string, fault: ServerFault, times?: number): void;
  /** Makes every hidden comment visible in listings. */
  reveal(): void;
  /** Adds a comment directly (no request); returns its id. */
  seed(pr: number, body: string, user: ForgeAuthor): number;
  close(): Promise<void>;
}

/** Options for `startTestServer`. */
export interface TestServerOptions {
  readonly repo: string;
  readonly tokens: Readonly<Record<string, ServerToken>>;
  /** The first comment id (default beyond 2^31, as GitHub's are). */
  readonly firstId?: number;
}

interface State {
  readonly opts: TestServerOptions;
  readonly server: TestServer;
  readonly faults: Map<string, ServerFault[]>;
  nextId: number;
}

const LIST = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/;
const ONE = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/;

function send(res: ServerResponse, status: number, json: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(stringify(json) ?? "null");
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", () => resolve(""));
  });
}

function commentJson(s: State, origin: string, c: ServerComment): unknown {
  const [host, owner, name] = s.opts.repo.split("/");
  return {
    id: c.id,
    url: `${origin}/repos/${owner}/${name}/issues/comments/${c.id}`,
    html_url: `https://${host}/${owner}/${name}/pull/${c.pr}#issuecomment-${c.id}`,
    issue_url: `${origin}/repos/${owner}/${name}/issues/${c.pr}`,
    body: c.body,
    user: { login: c.user.login, id: c.user.id, type: "User" },
    author_association: "MEMBER",
  };
}

function listPage(s: State, res: ServerResponse, url: URL, pr: number): void {
  const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get("per_page") ?? "30") || 30));
  const page = Math.max(1, Number(url.searchParams.get("page") ?? "1") || 1);
  const all = [...s.server.comments.values()].filter((c) => c.pr === pr && !c.hidden).sort((a, b) => a.id - b.id);
  const last = Math.max(1, Math.ceil(all.length / perPage));
  const link = (p: number, rel: string): string => {
    const u = new URL(url.href);
    u.searchParams.set("per_page", String(perPage));
    u.searchParams.set("page", String(p));
    return `<${u.href}>; rel="${rel}"`;
  };
  const links = [...(page < last ? [link(page + 1, "next"), link(last, "last")] : []), ...(page > 1 ? [link(1, "first"), link(page - 1, "prev")] : [])];
  const items = all.slice((page - 1) * perPage, page * perPage).map((c) => commentJson(s, url.origin, c));
  send(res, 200, items, links.length > 0 ? { link: links.join(", ") } : {});
}

async function writeComment(s: State, req: IncomingMessage, pr: number, existing?: ServerComment): Promise<ServerComment | string> {
  let body: unknown;
  try {
    body = JSON.parse(await readBody(req));
  } catch {
    return "Problems parsing JSON";
  }
  const text = (body as { body?: unknown } | null)?.body;
  if (typeof text !== "string" || text === "") return "body is missing";
  if (existing !== undefined) {
    existing.body = text;
    existing.hidden = existing.hidden || s.server.hideWrites;
    return existing;
  }
  const auth = tokenOf(s, req) as ServerToken;
  const c: ServerComment = { id: s.nextId, pr, body: text, user: auth.author, hidden: s.server.hideWrites };
  s.nextId += 1;
  s.server.comments.set(c.id, c);
  return c;
}

function tokenOf(s: State, req: IncomingMessage): ServerToken | undefined {
  const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? "");
  return m?.[1] === undefined ? undefined : s.opts.tokens[m[1]];
}

async function route(s: State, req: IncomingMessage, res: ServerResponse, drop: () => void): Promise<void> {
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
  const token = tokenOf(s, req);
  if (token === undefined) return send(res, 401, { message: "Bad credentials" });
  const [, owner, name] = s.opts.repo.split("/");
  if (req.method === "GET" && url.pathname === "/user") {
    if (token.app === true) return send(res, 403, { message: "Resource not accessible by integration" });
    return send(res, 200, { login: token.author.login, id: token.author.id, type: "User" });
  }
  const list = LIST.exec(url.pathname);
  const one = ONE.exec(url.pathname);
  const m = list ?? one;
  if (m === null || m[1] !== owner || m[2] !== name) return send(res, 404, { message: "Not Found" });
  const n = Number(m[3]);
  if (list !== null && req.method === "GET") return listPage(s, res, url, n);
  const existing = one === null ? undefined : s.server.comments.get(n);
  if (one !== null && existing === undefined) return send(res, 404, { message: "Not Found" });
  if (one !== null && req.method === "GET") return send(res, 200, commentJson(s, url.origin, existing as ServerComment));
  const isWrite = (list !== null && req.method === "POST") || (one !== null && req.method === "PATCH");
  if (!isWrite) return send(res, 404, { message: "Not Found" });
  const written = await writeComment(s, req, n, existing);
  if (typeof written === "string") return send(res, 422, { message: written });
  drop();
  send(res, list !== null ? 201 : 200, commentJson(s, url.origin, written));
}

/** Streams `bytes` bytes (`[` then spaces) with backpressure, stopping early when the client goes away. */
function flood(res: ServerResponse, bytes: number): void {
  res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
  const spaces = Buffer.alloc(64 * 1024, 0x20);
  res.write("[");
  let sent = 1;
  res.once("close", () => void (sent = bytes));
  const pump = (): void => {
    while (sent < bytes) {
      const part = spaces.subarray(0, Math.min(spaces.length, bytes - sent));
      sent += part.length;
      if (!res.write(part)) return void res.once("drain", pump);
    }
    res.end();
  };
  pump();
}

function takeFault(s: State, method: string): ServerFault | undefined {
  const queue = s.faults.get(method);
  return queue === undefined ? undefined : queue.shift();
}

async function handle(s: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  s.server.requests.push({ method: req.method ?? "", url: req.url ?? "", headers: { ...req.headers } });
  res.on("error", () => undefined);
  const fault = takeFault(s, req.method ?? "");
  if (fault?.kind === "drop") return void req.socket.destroy();
  if (fault?.kind === "status") return send(res, fault.status, { message: `injected ${fault.status}` }, { ...fault.headers });
  if (fault?.kind === "flood") return flood(res, fault.bytes);
  if (fault?.kind === "delay") await new Promise((r) => setTimeout(r, fault.ms));
  const drop = fault?.kind === "drop-after-apply" ? () => void req.socket.destroy() : () => undefined;
  await route(s, req, res, drop);
}

/** Starts a test server on 127.0.0.1 (a free port). */
export async function startTestServer(opts: TestServerOptions): Promise<TestServer> {
  const http = createServer((req, res) => void handle(state, req, res));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  const server: TestServer = {
    baseUrl: `http://127.0.0.1:${port}`,
    repo: opts.repo,
    comments: new Map(),
    requests: [],
    hideWrites: false,
    inject(method, fault, times = 1) {
      const queue = state.faults.get(method) ?? [];
      for (let i = 0; i < times; i += 1) queue.push(fault);
      state.faults.set(method, queue);
    },
    reveal() {
      for (const c of server.comments.values()) c.hidden = false;
    },
    seed(pr, body, user) {
      const c: ServerComment = { id: state.nextId, pr, body, user, hidden: false };
      state.nextId += 1;
      server.comments.set(c.id, c);
      return c.id;
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
  const state: State = { opts, server, faults: new Map(), nextId: opts.firstId ?? 2_147_483_700 };
  return server;
}
