/**
 * Opens the target a command works on, through the one profile pipeline: resolve the file (--target,
 * FTF_TARGET, or the embedded reference), read + validate it once (errors name the field and
 * file:line:col; nothing is started to validate), then either resolve it against the environment and
 * probe reachability, or launch the embedded reference server it asks for (src/embedded/launch.ts).
 */
import '../harness/http/wasm-baseline.js';
import { resolve } from 'node:path';
import { FtfError } from '../shared/errors.js';
import { assertReferenceInstalled } from '../embedded/reference-packages.js';
import { classifyCode, errorCode } from '../harness/http/errors.js';
import { Agent, request } from '../harness/http/undici-parts.js';
import { REFERENCE_PROFILE, resolveTargetFile } from '../harness/target/load.js';
import { isEmbedded, readProfile } from '../harness/target/profile.js';
import { resolveTarget } from '../harness/target/resolve.js';
import type { ResolvedTarget } from '../harness/target/types.js';

export interface OpenTarget {
  file: string;
  target: ResolvedTarget;
  /** Environment for child processes (Playwright): FTF_TARGET plus a launched server's URLs/secrets. */
  env: Record<string, string>;
  /** Secret values of this target (for leak scans); never printed. */
  secrets: string[];
  embedded: boolean;
  /** The reference profile for Playwright: each worker launches a server of its own (specs/fixtures.ts). */
  perWorker?: true;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Probe reachability (default true). */
  probe?: boolean;
  /**
   * The target is for a Playwright run. For the reference profile every Playwright worker gets an embedded
   * server of its own (isolated clocks and stores; the worker launches it, specs/fixtures.ts),
   * so this launches none: it only validates the profile and leaves FTF_TARGET unset (`perWorker`). Other
   * embedded profiles share one server launched here.
   */
  forPlaywright?: boolean;
}

export async function openTarget(file: string | undefined, options: OpenOptions = {}): Promise<OpenTarget> {
  const profile = readProfile(file ? resolve(file) : resolveTargetFile());
  const secretsOf = (t: ResolvedTarget): string[] =>
    Object.values(t.credentials).flatMap((c) => [c.secret, c.refreshToken].filter((s): s is string => Boolean(s)));
  if (!isEmbedded(profile) || process.env.FTF_BASE_URL?.trim()) {
    const target = resolveTarget(profile, { env: process.env });
    if (options.probe !== false) await probeReachable(target);
    return { file: profile.file, target, env: { FTF_TARGET: profile.file }, secrets: [...new Set(secretsOf(target))], embedded: false, close: async () => undefined };
  }
  // Before any server or Playwright starts: the embedded server's packages are optional in the installed package.
  assertReferenceInstalled(`the target profile ${profile.file} (base_url: embedded)`);
  if (options.forPlaywright && resolve(profile.file) === resolve(REFERENCE_PROFILE)) {
    const target = resolveTarget(profile, { env: process.env, partial: true });
    return { file: profile.file, target, env: {}, secrets: [], embedded: true, perWorker: true, close: async () => undefined };
  }
  // Loaded only here: a run against an external target never loads the reference server's code (fastify, routes,
  // request schemas) into the CLI.
  const { launchEmbedded } = await import('../embedded/launch.js');
  const launch = await launchEmbedded(profile);
  return {
    file: profile.file,
    target: launch.target,
    env: { FTF_TARGET: profile.file, ...launch.env },
    secrets: [...new Set([...launch.secrets, ...secretsOf(launch.target)])],
    embedded: true,
    close: launch.close,
  };
}

export interface Reachability {
  url: string;
  ok: boolean;
  status?: number;
  ms: number;
  date?: string;
  error?: string;
  /** The target answered with a response that cannot be read (e.g. UND_ERR_HEADERS_OVERFLOW). */
  malformed?: string;
}

/**
 * Any HTTP answer (401 included) means reachable; connection errors and timeouts do not. Sent with the harness's own
 * undici (http/undici-parts.ts), the stack every exchange of the run uses, on an agent of its own that is closed after:
 * Node's fetch would load its own copy of undici for this one request (~50-90 ms of the CLI's CPU, 3 runs each).
 */
export async function reach(url: string, timeoutMs = 5000): Promise<Reachability> {
  const started = Date.now();
  const agent = new Agent({ connect: { timeout: timeoutMs } });
  try {
    const res = await request(url, { dispatcher: agent, method: 'GET', signal: AbortSignal.timeout(timeoutMs), headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    res.body.on('error', () => undefined).destroy(); // not read: its abort is no error here
    const date = res.headers['date'];
    return { url, ok: true, status: res.statusCode, ms: Date.now() - started, ...(typeof date === 'string' ? { date } : {}) };
  } catch (e) {
    const code = errorCode(e);
    // The target answered, if malformed (header overflow): reachable; the run reports each exchange as FTF_E_TARGET_MALFORMED.
    if (classifyCode(code) === 'malformed') return { url, ok: true, ms: Date.now() - started, malformed: code ?? 'malformed response' };
    const error = (e as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (code ?? (e as Error).message);
    return { url, ok: false, ms: Date.now() - started, error };
  } finally {
    agent.destroy().catch(() => undefined);
  }
}

export async function probeReachable(target: ResolvedTarget): Promise<void> {
  const checks = await Promise.all([reach(`${target.baseUrl}${target.paths.health ?? '/health'}`), reach(`${target.authUrl}/oauth/token`)]);
  const down = checks.filter((c) => !c.ok);
  if (down.length > 0) {
    throw new FtfError('FTF_E_TARGET_UNREACHABLE', `target "${target.name}" is unreachable: ${down.map((d) => `${d.url} (${d.error})`).join('; ')}`, {
      hint: 'check base_url/auth_url in the profile (or FTF_BASE_URL/FTF_AUTH_URL), VPN and firewall; `ftf-conformance doctor` explains more',
    });
  }
}
