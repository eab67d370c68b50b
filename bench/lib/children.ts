/** Spawning the benchmark children (tsx, IPC) and talking to them. */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

function child(file: string, args: string[], execArgv: string[] = [], env: Record<string, string> = {}): ChildProcess {
  return fork(join(HERE, file), args, { execArgv: ['--import', 'tsx', ...execArgv], env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

function nextMessage<T>(c: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    c.once('message', (m) => resolve(m as T));
    c.once('exit', (code) => reject(new Error(`${c.spawnfile} exited with ${code} before answering`)));
  });
}

export interface ServerInfo {
  /** URLs and the generated secrets under the reference profile's variable names (src/embedded/launch.ts). */
  env: Record<string, string>;
  head: number;
  /** API path of one of alice's holdings (GET /holding/{entity_code}/{holding_uid}). */
  holding: string;
}

export interface BenchServer {
  info: ServerInfo;
  close(): Promise<void>;
}

/** The reference server with `events` events visible to alice, in its own process. */
export async function startServerChild(events: number): Promise<BenchServer> {
  const c = child('server-child.ts', [String(events)], ['--max-old-space-size=4096']);
  const info = await nextMessage<ServerInfo>(c);
  return {
    info,
    close: () =>
      new Promise<void>((resolve) => {
        c.once('exit', () => resolve());
        c.send('close');
      }),
  };
}

export interface Traversal {
  events: number;
  pages: number;
  /** The traversal alone (engine: after profile load and schema compilation). */
  wallMs: number;
  /** Engine set-up before the traversal (profile, loader, schema compilation); ~0 for bare. */
  setupMs: number;
  /** CPU time of the harness process during the traversal (user + system). */
  cpuMs: number;
  maxRssMiB: number;
}

/** One traversal in a fresh harness process; `env` adds to its environment (FTF_BENCH_SCENARIOS: another scenario folder). */
export async function traverse(mode: 'engine' | 'bare', info: ServerInfo, execArgv: string[] = [], env: Record<string, string> = {}): Promise<Traversal> {
  const c = child('traverse-child.ts', [mode], execArgv, env);
  const answer = nextMessage<Traversal & { error?: string }>(c);
  const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
  c.send(info);
  const r = await answer;
  await exited; // the child exits right after answering; waiting reaps it (its CPU then counts in waitedChildrenCpuMs)
  if (r.error !== undefined) throw new Error(`${mode} traversal failed: ${r.error || 'no message'}`);
  return r;
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

let ticksPerSecond: number | undefined;
/**
 * CPU time (user + system, ms) of every child process this process has waited for, with the descendants
 * they waited for (Linux: cutime + cstime of /proc/self/stat). The difference across one child's run is the
 * CPU of that child's whole process tree (Playwright's workers included), whatever else loads the machine.
 * NaN where /proc is not available.
 */
export function waitedChildrenCpuMs(): number {
  try {
    ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): cutime is field 16, cstime field 17.
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / ticksPerSecond;
  } catch {
    return Number.NaN;
  }
}
