/**
 * Opens the target a command works on: resolves the profile (--target, FTF_TARGET, or the embedded
 * reference), starts the embedded reference server when the profile asks for it, loads and validates the
 * profile (errors name the field and file:line), and probes reachability so an unreachable target is a
 * clear "could not start" (exit 2) instead of a wall of failed scenarios.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { FtfError } from '../shared/errors.js';
import { classifyCode } from '../harness/http/errors.js';
import { loadTargetProfile, REFERENCE_PROFILE, resolveTargetFile } from '../harness/target/load.js';
import type { ResolvedTarget } from '../harness/target/types.js';
import { needsEmbeddedServer, startEmbeddedTarget } from './embedded.js';

export interface OpenTarget {
  file: string;
  target: ResolvedTarget;
  /** Environment for child processes (Playwright): FTF_TARGET plus the embedded server's URLs/secrets. */
  env: Record<string, string>;
  /** Secret values of this target (for leak scans); never printed. */
  secrets: string[];
  embedded: boolean;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Probe reachability (default true). */
  probe?: boolean;
  /**
   * The target is for a Playwright run. For the reference profile the Playwright fixtures start one
   * embedded server per worker (isolated clocks and stores), so the CLI only starts one briefly to load
   * the profile and leaves FTF_TARGET unset. Other embedded profiles share the CLI's server.
   */
  forPlaywright?: boolean;
}

export async function openTarget(file: string | undefined, options: OpenOptions = {}): Promise<OpenTarget> {
  const profile = file ? resolve(file) : resolveTargetFile();
  if (!existsSync(profile)) {
    throw new FtfError('FTF_E_PROFILE_NOT_FOUND', `target profile not found: ${profile}`, {
      hint: 'pass --target FILE (create one with `ftf-conformance init`), or omit it to test the embedded reference server',
      location: { file: profile },
    });
  }
  const embedded = needsEmbeddedServer(profile) ? await startEmbeddedTarget(profile) : undefined;
  try {
    const env = { ...process.env, ...(embedded?.env ?? {}) };
    const target = loadTargetProfile(profile, { env });
    const secrets = [
      ...(embedded?.secrets ?? []),
      ...Object.values(target.credentials).flatMap((c) => [c.secret, c.refreshToken].filter((s): s is string => Boolean(s))),
    ];
    if (options.probe !== false && !embedded) await probeReachable(target);
    if (embedded && options.forPlaywright && resolve(profile) === resolve(REFERENCE_PROFILE)) {
      await embedded.close();
      return { file: profile, target, env: {}, secrets: [], embedded: true, close: async () => undefined };
    }
    return {
      file: profile,
      target,
      env: { FTF_TARGET: profile, ...(embedded?.env ?? {}) },
      secrets: [...new Set(secrets)],
      embedded: Boolean(embedded),
      close: async () => embedded?.close(),
    };
  } catch (e) {
    await embedded?.close();
    throw e;
  }
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

/** Any HTTP answer (401 included) means reachable; connection errors and timeouts do not. */
export async function reach(url: string, timeoutMs = 5000): Promise<Reachability> {
  const started = Date.now();
  try {
    const res = await fetch(url, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return { url, ok: true, status: res.status, ms: Date.now() - started, ...(res.headers.get('date') ? { date: res.headers.get('date')! } : {}) };
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    // The target answered, if malformed (header overflow): reachable; the run reports each exchange as FTF_E_TARGET_MALFORMED.
    if (classifyCode(cause?.code) === 'malformed') return { url, ok: true, ms: Date.now() - started, malformed: cause?.code ?? 'malformed response' };
    const error = (e as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (cause?.code ?? cause?.message ?? (e as Error).message);
    return { url, ok: false, ms: Date.now() - started, error };
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
