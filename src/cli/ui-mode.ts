/**
 * `run --ui`: Playwright's UI mode over the suite, for a scenario author who wants to pick, rerun and inspect tests
 * by hand. Workers get their servers and settings exactly as in `run` (a server of their own, FTF_RUN, the production
 * write grant); what differs is what a UI session records, and that it is no gate.
 *
 * - UI mode records a trace of every test, whatever the config says. Playwright's `request` fixture would put each
 *   API call, Authorization header and token response included, into those traces, so the session always uses the
 *   undici transport (FTF_TRANSPORT=undici): the traces then hold only what the harness records, through its one
 *   recording and redaction layer. test/cli/ui-mode.test.ts proves both halves on a real trace.
 * - When the session ends, every file left in the reports folder and the output folder (traces included) is leak
 *   scanned with the session's secrets, as after a run: a hit quarantines them and exits 3.
 * - No verdict, exit code or certificate: the config's reporters write what they see of the tests run from the UI,
 *   but which tests run is the user's choice from one moment to the next; `run` is the gate.
 */
import { REPO_ROOT } from '../harness/repo-root.js';
import { assertRunLeakFree, basicCredentialsOf, outputDirOf } from '../harness/report/redaction/leak-scan.js';
import { reportPaths } from '../harness/report/reports-folder/paths.js';
import { lockReports } from '../harness/report/reports-folder/reports-lock.js';
import { refuseSymlinks } from '../harness/report/reports-folder/reports-symlinks.js';
import { issueMutationGrant } from '../harness/target/mutation-grant.js';
import type { SelectionFlags } from '../harness/scenario/selection.js';
import { parse, UsageError, workersFlag } from './args.js';
import { playwright, playwrightEnv } from './playwright.js';
import { InterruptedError } from './process-group.js';
import { openTarget } from './target.js';
import { selectionFlags } from './scenarios.js';
import { RUN_OPTIONS } from './commands/run.js';

export interface UiSessionOptions {
  target?: string;
  selection: SelectionFlags;
  allowMutations: boolean;
  workers?: string;
  /** Where UI mode serves its page; without a port Playwright opens a browser window itself. */
  host?: string;
  port?: string;
}

/** `run --ui`'s own flags: the target, the selection, the write opt-in, workers, and where the UI listens. */
const UI_OPTIONS = {
  ui: { type: 'boolean' },
  'ui-host': { type: 'string' },
  'ui-port': { type: 'string' },
  target: RUN_OPTIONS.target,
  grep: RUN_OPTIONS.grep,
  tag: RUN_OPTIONS.tag,
  clause: RUN_OPTIONS.clause,
  'allow-mutations': RUN_OPTIONS['allow-mutations'],
  workers: RUN_OPTIONS.workers,
} as const;

/** `run --ui …` (`own`: the arguments before any `--`, `afterDash`: whether Playwright arguments followed). */
export function runUiCommand(own: string[], afterDash: boolean): Promise<number> {
  const { values: u } = parse('run', own, UI_OPTIONS);
  if (!u.ui) throw new UsageError('run', '--ui-port and --ui-host take effect only with --ui');
  if (afterDash) throw new UsageError('run', '--ui takes no Playwright arguments after --: pick tests in the UI');
  const workers = workersFlag('run', u.workers);
  return runUiSession({
    ...(u.target ? { target: u.target } : {}),
    selection: selectionFlags('run', u),
    allowMutations: u['allow-mutations'] ?? false,
    ...(workers ? { workers } : {}),
    ...(u['ui-host'] !== undefined ? { host: u['ui-host'] } : {}),
    ...(u['ui-port'] !== undefined ? { port: u['ui-port'] } : {}),
  });
}

/** `playwright test --ui` and where it listens: a port makes Playwright serve the UI instead of opening a window. */
export function uiArgs(o: Pick<UiSessionOptions, 'host' | 'port'>): string[] {
  if (o.port !== undefined && !/^\d{1,5}$/.test(o.port)) throw new UsageError('run', `--ui-port must be a port number (0 for any free port), got '${o.port}'`);
  if (o.host !== undefined && o.port === undefined) throw new UsageError('run', '--ui-host needs --ui-port (without a port, Playwright opens its own window and serves nothing)');
  return ['playwright', 'test', '--ui', ...(o.host !== undefined ? [`--ui-host=${o.host}`] : []), ...(o.port !== undefined ? [`--ui-port=${o.port}`] : [])];
}

/** The environment a UI session's Playwright gets on top of the run's: the undici transport, whatever was asked. */
export function uiEnv(runEnv: Record<string, string>, asked: string | undefined): { env: Record<string, string>; note?: string } {
  const note = asked?.trim() && asked.trim() !== 'undici'
    ? `note   FTF_TRANSPORT=${asked.trim()} is overridden with undici: UI mode records a trace of every test, and Playwright's request fixture would put each API call, Authorization header included, into it`
    : undefined;
  return { env: { ...runEnv, FTF_TRANSPORT: 'undici' }, ...(note ? { note } : {}) };
}

export async function runUiSession(o: UiSessionOptions): Promise<number> {
  const args = uiArgs(o);
  const paths = reportPaths();
  refuseSymlinks(paths.root);
  const lock = lockReports(paths.root, 'run --ui');
  try {
    const open = await openTarget(o.target, { forPlaywright: true });
    try {
      const grant = o.allowMutations ? issueMutationGrant() : undefined;
      const { env, note } = uiEnv({ ...open.env, ...playwrightEnv(o.selection, { grant: grant?.value }), ...(o.workers ? { FTF_WORKERS: o.workers } : {}) }, process.env.FTF_TRANSPORT);
      if (note) console.log(note);
      console.log(`run --ui: Playwright's UI mode against ${open.embedded ? 'the embedded reference' : open.target.name}; no verdict or certificate (run is the gate); every file it leaves is leak-scanned when it ends`);
      let status: number | null = null;
      // Ctrl-C is how a UI session often ends: its files are scanned all the same, then the interruption goes on.
      let interrupted: unknown;
      try {
        status = await playwright.run(args, env);
      } catch (e) {
        if (!(e instanceof InterruptedError)) throw e;
        interrupted = e;
      } finally {
        grant?.revoke();
      }
      const secrets = open.secrets;
      const basic = basicCredentialsOf(open.target.credentials);
      const scanned = await assertRunLeakFree({ reportsRoot: paths.root, outputDir: outputDirOf([], REPO_ROOT, paths.root), secrets, basic });
      console.log(`run --ui: the session ended (${interrupted ? 'interrupted' : `Playwright exit ${status ?? 'killed'}`}); ${scanned} file(s) left in ${paths.root} leak-scanned: clean`);
      if (interrupted) throw interrupted;
      return status ?? 1;
    } finally {
      await open.close();
    }
  } finally {
    lock.release();
  }
}
