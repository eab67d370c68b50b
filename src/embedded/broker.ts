/**
 * The launch broker: for a run against the embedded reference, the CLI launches each Playwright worker's
 * reference server in its own process, and hands it to the worker that asks. Every worker still gets a server
 * of its own (a fresh one per request: isolated clocks and stores, as when the worker launched it); what moves is
 * where the launch runs and when:
 *   - the CLI is idle while Playwright loads and lists the tests, so it launches the servers the run will ask for
 *     then (`plan`): a worker's first test no longer waits ~0.5 s for loading and building the reference, and the
 *     production-mode worker, which starts at the end of the run, not at all;
 *   - only the first launch in a process loads the reference's code; the next ones take ~0.07 s.
 * Saves: full runs (`node bin/ftf-conformance.mjs run --no-report`), five alternating pairs against the commit
 * before it (632e2a7): 9.86-10.21 vs 10.18-10.38 s, median 0.96 (docs/performance.md).
 * A request the plan did not foresee (another fault, a worker restarted after a failure) is launched on demand.
 * Every launch goes through launchEmbedded (launch.ts), bound and all. The worker resolves its target from the
 * binding exactly as launchEmbedded does (targetOfBinding).
 *
 * The broker listens on a Unix socket in a private folder (mode 0700, this user only): a reply carries the
 * server's generated secrets, as an in-process launch hands them to its worker. Protocol: one JSON line each way.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FtfError } from '../shared/errors.js';
import type { TargetUrls } from '../harness/target/resolve.js';
import { readProfile } from '../harness/target/profile.js';
import { launchEmbedded, startTimeoutError, type EmbeddedLaunch } from './launch.js';

/** What a worker asks for: the options of its project (playwright.config.ts metadata) and of its environment. */
export interface LaunchRequest {
  /** Absolute path of the profile. */
  profile: string;
  mode?: 'sandbox' | 'production';
  fault?: string;
  variants?: string[];
  events: number;
}

/** What the worker gets: the binding of launchEmbedded (URLs and secrets under the profile's names). */
export interface BrokeredServer {
  env: Record<string, string>;
  overrides: TargetUrls;
  secrets: string[];
}

type Reply = { ok: BrokeredServer } | { error: { code: string; message: string; hint?: string } };

const keyOf = (r: LaunchRequest): string =>
  JSON.stringify([resolve(r.profile), r.mode ?? null, r.fault ?? null, [...(r.variants ?? [])].sort(), r.events]);

export interface LaunchBroker {
  /** The socket, for the Playwright child's run settings (shared/run-settings.ts `broker`). */
  path: string;
  /** Every secret of every server launched so far (the run's leak scan searches for them too). */
  secrets(): string[];
  /** Closes the socket and every server launched, handed out or not. */
  close(): Promise<void>;
}

/** A Unix socket path longer than this is cut short by the platform (sun_path: 108 bytes on Linux, 104 on macOS). */
const MAX_SOCKET_PATH_BYTES = 103;

/**
 * Starts the broker and, one after the other in the background, the launches of `plan`. Undefined when the
 * temporary folder's path is too long for a socket (a long TMPDIR): then every worker launches its own.
 */
export async function startLaunchBroker(plan: readonly LaunchRequest[]): Promise<LaunchBroker | undefined> {
  // The longest name mkdtemp can give, checked before anything is created.
  if (Buffer.byteLength(join(tmpdir(), 'ftf-broker-XXXXXX', 'socket')) > MAX_SOCKET_PATH_BYTES) return undefined;
  const folder = mkdtempSync(join(tmpdir(), 'ftf-broker-'));
  const path = join(folder, 'socket');
  const launches: Array<Promise<EmbeddedLaunch>> = [];
  const ready = new Map<string, Array<Promise<EmbeddedLaunch>>>();
  const secrets = new Set<string>();
  let queue: Promise<unknown> = Promise.resolve();
  let closing = false;
  /** Launches run one at a time: the first loads the reference's code, the others reuse it. */
  const launch = (r: LaunchRequest): Promise<EmbeddedLaunch> => {
    const next = queue.then(() => launchRequested(r));
    queue = next.catch(() => undefined);
    launches.push(next);
    // A planned launch that failed is reported to the worker that takes it; unhandled here it would crash the CLI.
    next.then((l) => l.secrets.forEach((x) => secrets.add(x)), () => undefined);
    return next;
  };
  const answer = async (socket: Socket, line: string): Promise<void> => {
    let reply: Reply;
    try {
      if (closing) throw new FtfError('FTF_E_INTERNAL', 'the launch broker is closing');
      const request = JSON.parse(line) as LaunchRequest;
      const planned = ready.get(keyOf(request))?.shift();
      const l = await (planned ?? launch(request));
      const { env, secrets } = l;
      reply = { ok: { env, secrets, overrides: { baseUrl: l.target.baseUrl, authUrl: l.target.authUrl, ...(l.target.controlUrl ? { controlUrl: l.target.controlUrl } : {}) } } };
    } catch (e) {
      const err = e instanceof FtfError ? e : new FtfError('FTF_E_INTERNAL', e instanceof Error ? e.message : String(e));
      reply = { error: { code: err.code, message: err.message, ...(err.hint ? { hint: err.hint } : {}) } };
    }
    socket.end(`${JSON.stringify(reply)}\n`);
  };
  const server: Server = createServer((socket) => {
    let buffered: string | undefined = '';
    socket.setEncoding('utf8');
    socket.on('error', () => undefined);
    socket.on('data', (chunk: string) => {
      if (buffered === undefined) return; // one request per connection, answered
      buffered += chunk;
      const end = buffered.indexOf('\n');
      if (end < 0) return;
      const line = buffered.slice(0, end);
      buffered = undefined;
      void answer(socket, line);
    });
  });
  try {
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(path, () => done());
    });
  } catch (e) {
    rmSync(folder, { recursive: true, force: true });
    throw e;
  }
  // Planned only once the socket listens: a broker that could not start leaves no server behind.
  for (const r of plan) {
    const key = keyOf(r);
    ready.set(key, [...(ready.get(key) ?? []), launch(r)]);
  }
  return {
    path,
    secrets: () => [...secrets],
    async close() {
      closing = true;
      await new Promise<void>((done) => server.close(() => done()));
      const settled = await Promise.allSettled(launches);
      await Promise.all(settled.map((s) => (s.status === 'fulfilled' ? s.value.close() : undefined)));
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Launches the server `request` asks for, in this process: the broker's way, and a worker's without a broker. */
export function launchRequested(request: LaunchRequest): Promise<EmbeddedLaunch> {
  const { profile, ...server } = request;
  return launchEmbedded(readProfile(profile), { server });
}

/**
 * A worker's request: its own server from the broker at `path`, within `boundMs` (the embedded start bound).
 * Undefined when no broker answers there (gone, or never started: the worker launches its own); a launch
 * that failed in the broker is thrown as the error it was.
 */
export async function requestServer(path: string, request: LaunchRequest, boundMs: number): Promise<BrokeredServer | undefined> {
  const socket = createConnection(path);
  socket.setEncoding('utf8');
  let timer: NodeJS.Timeout | undefined;
  try {
    const line = await new Promise<string | undefined>((done, fail) => {
      let buffered = '';
      let connected = false;
      timer = setTimeout(() => fail(startTimeoutError(request.profile, boundMs, "the CLI's launch broker had not handed it over")), boundMs);
      socket.once('connect', () => {
        connected = true;
        socket.write(`${JSON.stringify(request)}\n`);
      });
      socket.on('data', (chunk: string) => void (buffered += chunk));
      socket.once('end', () => done(buffered));
      // Not there (ENOENT, ECONNREFUSED): no broker. Gone mid-answer: the same, the worker launches its own.
      socket.once('error', (e) => (connected && buffered !== '' ? fail(e) : done(undefined)));
    });
    if (line === undefined || line.trim() === '') return undefined;
    const reply = JSON.parse(line) as Reply;
    if ('error' in reply) throw new FtfError(reply.error.code, reply.error.message, reply.error.hint ? { hint: reply.error.hint } : {});
    return reply.ok;
  } finally {
    clearTimeout(timer);
    socket.destroy();
  }
}
