/**
 * `client serve|run|verdict`: client conformance (issue 27, docs/client-conformance.md). The grading server
 * (src/embedded/client-grading.ts) plays a plan; the graders (src/harness/client/) judge every CL-* clause
 * from the recorded, labelled exchanges.
 *   serve   prints the URLs, the variables and the tasks; records until Ctrl-C (recording.jsonl)
 *   verdict grades a recording: console, verdicts.json, junit.xml, exchanges.har
 *   run     serve + the client command (FTF_* variables in its environment) + verdict; exit 0/1/2
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { GradingServer, startGradingServer as StartGradingServer } from '../../embedded/client-grading.js';
import { assertReferenceInstalled } from '../../embedded/reference-packages.js';
import { loadClientClauses } from '../../harness/client/clauses.js';
import { gradeClient } from '../../harness/client/grade.js';
import { loadPlan } from '../../harness/client/plan.js';
import { CLIENT_REPORT_FILES, consoleSummary, readRecording, writeClientReports } from '../../harness/client/reports.js';
import type { Stall } from '../../harness/client/stalls.js';
import type { ClientExchange, ClientPlan, ClientVerdicts } from '../../harness/client/types.js';
import { writeClientCertificate } from '../../harness/client/certificate.js';
import { loadSigningKey, type SigningKey } from '../../harness/report/outputs/signing.js';
import { assertNoSecrets } from '../../harness/report/outputs/certificate-bundle.js';
import { parse, UsageError } from '../args.js';
import { EXIT } from '../errors.js';
import { onStopSignal } from '../process-group.js';
import type { Command } from './types.js';

export const DEFAULT_CLIENT_OUT = 'reports/client';
const SECRET_VARS = new Set(['FTF_CLIENT_SECRET', 'FTF_CODE_CLIENT_SECRET', 'FTF_API_KEY', 'FTF_PROD_CLIENT_SECRET']);

function tasksText(plan: ClientPlan, env: Record<string, string>): string {
  const fill = (t: string) => t.replace(/FTF_[A-Z_]+/g, (name) => (SECRET_VARS.has(name) || env[name] === undefined ? name : `${name} (${env[name]})`));
  return [`Plan ${plan.name}: ${plan.description}`, ...plan.tasks.map((t, i) => `${i + 1}. [${t.id}] ${fill(t.text)}`)].join('\n');
}

interface Certify {
  key: SigningKey;
  client: { name: string; command: string };
  startedAt: string;
}

interface Grading {
  /** Every secret value of the servers (the leak scan of the reports); none for a recording read back. */
  secrets: string[];
  authUrl?: string;
  /** The client as the reports name it. */
  clientName: string;
  /** The plan's redactor (a live grading server's), for what the reports quote. */
  redact?: (text: string) => string;
  /** When the grading process was stalled (a live server's; none for a recording read back). */
  stalls?: readonly Stall[];
  certify?: Certify;
}

/** Grades, writes the reports (and the signed certificate), scans them for secrets, prints the summary. */
async function conclude(plan: ClientPlan, exchanges: readonly ClientExchange[], out: string, g: Grading): Promise<ClientVerdicts> {
  const verdicts = gradeClient(exchanges, plan, loadClientClauses(), g.stalls);
  const files = await writeClientReports(out, verdicts, exchanges, { clientName: g.certify?.client.name ?? g.clientName, ...(g.authUrl ? { authUrl: g.authUrl } : {}), ...(g.redact ? { redact: g.redact } : {}) });
  if (g.secrets.length) assertNoSecrets([...files, join(out, CLIENT_REPORT_FILES.recording)].filter(existsSync), g.secrets);
  console.log(consoleSummary(verdicts));
  console.log(`reports: ${out}/ (${Object.values(CLIENT_REPORT_FILES).join(', ')}); the Allure HTML: \`ftf-conformance report --results ${join(out, CLIENT_REPORT_FILES.allure)} --out ${join(out, 'allure-report')}\``);
  const certify = g.certify;
  if (certify) {
    const dir = join(out, 'certificate');
    writeClientCertificate({ outDir: dir, key: certify.key, plan, verdicts, client: certify.client, startedAt: certify.startedAt, finishedAt: new Date().toISOString(), har: join(out, CLIENT_REPORT_FILES.har), secrets: g.secrets });
    console.log(`certificate: ${join(dir, 'certificate.json')} (${verdicts.overall}), signed with Ed25519 key sha256 ${certify.key.fingerprint}${certify.key.generated ? ` (new key generated in ${certify.key.source})` : ''}; check it with \`ftf-conformance verify ${join(dir, 'certificate.json')}\``);
  }
  return verdicts;
}

/** --certify: the key is loaded before anything runs (a bad --key fails in seconds). */
function certifyOf(values: Record<string, string | boolean | undefined>, command: string): Certify | undefined {
  if (!values.certify) return undefined;
  const key = loadSigningKey(typeof values.key === 'string' ? { keyFile: values.key } : {});
  return { key, client: { name: typeof values['client-name'] === 'string' ? values['client-name'] : command, command }, startedAt: new Date().toISOString() };
}

const CERTIFY_OPTIONS = { certify: { type: 'boolean' }, key: { type: 'string' }, 'client-name': { type: 'string' } } as const;

function planArgs(command: string, argv: string[], extra: Record<string, { type: 'string' | 'boolean' }> = {}) {
  const { values, positionals } = parse(command, argv, { plan: { type: 'string' }, out: { type: 'string' }, ...extra }, true);
  return { values: values as Record<string, string | boolean | undefined>, positionals, out: resolve(String(values.out ?? DEFAULT_CLIENT_OUT)) };
}

async function serve(argv: string[]): Promise<number> {
  const { values, out } = planArgs('client serve', argv, { 'print-secrets': { type: 'boolean' } });
  const plan = loadPlan(String(values.plan ?? 'full'));
  mkdirSync(out, { recursive: true });
  const tasksFile = join(out, 'tasks.txt');
  const server = await startGradingServer(plan, { recordingFile: join(out, CLIENT_REPORT_FILES.recording), tasksFile });
  writeFileSync(join(out, 'plan.json'), `${JSON.stringify({ plan: plan.file, authUrl: server.authUrl, startedAt: new Date().toISOString() }, null, 2)}\n`);
  writeFileSync(tasksFile, `${tasksText(plan, server.clientEnv)}\n`);
  console.log(`Client grading server for plan ${plan.name} (time scale ${plan.timeScale}: wait <plan seconds> x ${plan.timeScale} real seconds)`);
  console.log('Give your client these variables:');
  for (const [k, v] of Object.entries(server.clientEnv)) console.log(`  ${k}=${SECRET_VARS.has(k) && !values['print-secrets'] ? '(generated for this start; rerun with --print-secrets)' : v}`);
  console.log(`\n${tasksText(plan, server.clientEnv)}\n`);
  console.log(`Recording to ${join(out, CLIENT_REPORT_FILES.recording)}. Run \`ftf-conformance client verdict --out ${out}\` at any time; Ctrl-C stops the server.`);
  let remove: () => void = () => undefined;
  const signal = await new Promise<NodeJS.Signals>((r) => {
    remove = onStopSignal(r);
  });
  remove();
  await server.close();
  console.log(`stopped (${signal})`);
  return EXIT.conformant;
}

async function verdict(argv: string[]): Promise<number> {
  const { values, out } = planArgs('client verdict', argv, CERTIFY_OPTIONS);
  const recording = join(out, CLIENT_REPORT_FILES.recording);
  if (!existsSync(recording)) throw new UsageError('client verdict', `no recording at ${recording}: start \`ftf-conformance client serve\` first (or give --out)`);
  const meta = existsSync(join(out, 'plan.json')) ? JSON.parse(readFileSync(join(out, 'plan.json'), 'utf8')) as { plan?: string; authUrl?: string; startedAt?: string } : {};
  const plan = loadPlan(String(values.plan ?? meta.plan ?? 'full'));
  const certify = certifyOf(values, 'a client taking the plan interactively (client serve)');
  if (certify && meta.startedAt) certify.startedAt = meta.startedAt;
  const v = await conclude(plan, readRecording(recording), out, { secrets: [], ...(meta.authUrl ? { authUrl: meta.authUrl } : {}), clientName: 'a client taking the plan interactively', ...(certify ? { certify } : {}) });
  return v.exitCode;
}

function lineRelay(emit: (line: string) => void): { push(chunk: Buffer): void; end(): void } {
  let rest = '';
  return {
    push(chunk) {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      for (const l of lines) emit(l);
    },
    end() {
      if (rest !== '') emit(rest);
      rest = '';
    },
  };
}

/** Runs the client command with the plan's variables; its output passes through the redactor. */
function runClient(server: GradingServer, command: string[], timeoutMs: number): Promise<{ code: number | null; error?: string; timedOut: boolean }> {
  return new Promise((done) => {
    const child = spawn(command[0] ?? '', command.slice(1), { env: { ...process.env, ...server.clientEnv }, stdio: ['ignore', 'pipe', 'pipe'], cwd: process.cwd() });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
    }, timeoutMs);
    // The client's output, line by line through the plan's redactor (a client may print what it was given).
    const relays = [lineRelay((l) => console.log(`  | ${server.redact(l)}`)), lineRelay((l) => console.error(`  | ${server.redact(l)}`))] as const;
    child.stdout.on('data', relays[0].push);
    child.stderr.on('data', relays[1].push);
    child.on('exit', () => relays.forEach((r) => r.end()));
    child.on('error', (err) => {
      clearTimeout(timer);
      done({ code: null, error: err.message, timedOut });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, timedOut });
    });
  });
}

async function run(argv: string[]): Promise<number> {
  const sep = argv.indexOf('--');
  const own = sep < 0 ? argv : argv.slice(0, sep);
  const command = sep < 0 ? [] : argv.slice(sep + 1);
  const { values, out } = planArgs('client run', own, CERTIFY_OPTIONS);
  if (command.length === 0) throw new UsageError('client run', 'give the command that runs your client after --, e.g. `client run --plan full -- node examples/client/main.js`');
  const plan = loadPlan(String(values.plan ?? 'full'));
  const certify = certifyOf(values, command.join(' '));
  mkdirSync(out, { recursive: true });
  const server = await startGradingServer(plan, { recordingFile: join(out, CLIENT_REPORT_FILES.recording), tasksFile: join(out, 'tasks.txt') });
  writeFileSync(join(out, 'tasks.txt'), `${tasksText(plan, server.clientEnv)}\n`);
  writeFileSync(join(out, 'plan.json'), `${JSON.stringify({ plan: plan.file, authUrl: server.authUrl }, null, 2)}\n`);
  console.log(`client run: plan ${plan.name} on ${server.authUrl}; client: ${command.join(' ')}`);
  let result;
  try {
    result = await runClient(server, command, plan.timeoutSeconds * 1000);
  } finally {
    await server.close();
  }
  if (result.error !== undefined) {
    console.error(`client run: the client command could not start: ${server.redact(result.error)}`);
    return EXIT.cannotStart;
  }
  console.log(`client run: the client exited ${result.timedOut ? `after the plan's ${plan.timeoutSeconds} s (stopped)` : `with ${result.code}`}`);
  const v = await conclude(plan, server.exchanges, out, { secrets: server.secretValues(), authUrl: server.authUrl, clientName: command.join(' '), redact: server.redact, stalls: server.stalls, ...(certify ? { certify } : {}) });
  if (v.exitCode === 2) console.error('client run: the client sent no request to the grading server (exit 2)');
  return v.exitCode;
}

export const clientCommand: Command = {
  summary: 'client conformance: grade an integrator\'s client against the CL-* duties (serve | run | verdict)',
  help: {
    synopsis: ['client serve [--plan NAME] [--out DIR] [--print-secrets]', 'client run [--plan NAME] [--out DIR] [--certify [--key FILE] [--client-name NAME]] -- COMMAND [ARGS...]', 'client verdict [--plan NAME] [--out DIR] [--certify [--key FILE] [--client-name NAME]]'],
    description: 'Starts the reference server in its grading mode, which plays a test plan (fixtures/client-plans/NAME.yaml) of scripted challenges and records every request. '
      + '`serve` prints the URLs, variables and tasks and records until Ctrl-C; `verdict` grades the recording; `run` runs COMMAND with the FTF_* variables and grades it. '
      + 'Exit 0 conformant (no must duty broken), 1 a must duty broken, 2 could not start or the client sent nothing. Verdict per CL-* clause: docs/client-conformance.md.',
    flags: [
      { flag: '--plan', value: 'NAME|FILE', text: 'the test plan', default: 'full' },
      { flag: '--out', value: 'DIR', text: 'where the recording and the reports go', default: DEFAULT_CLIENT_OUT },
      { flag: '--print-secrets', text: '(serve) print the generated client secret' },
      { flag: '--certify', text: '(run, verdict) also write a signed client certificate to DIR/certificate/ (`ftf-conformance verify` checks it)' },
      { flag: '--key', value: 'FILE', text: 'Ed25519 private key, PKCS#8 PEM', default: 'a key pair generated once in .ftf/keys/', env: 'FTF_SIGNING_KEY_FILE' },
      { flag: '--client-name', value: 'NAME', text: 'the client\'s name in the certificate', default: 'the command' },
      { flag: '-- COMMAND', positional: true, text: '(run) the command that runs your client' },
    ],
    env: ['FTF_SIGNING_KEY_FILE', 'FTF_CLIENT_CLAUSE_URL'],
    examples: [
      { text: 'certify the example client', command: 'ftf-conformance client run --plan full --certify --client-name example -- node examples/client/main.js' },
      { text: 'grade the example client', command: 'ftf-conformance client run --plan full -- node examples/client/main.js' },
      { text: 'take the plan interactively', command: 'ftf-conformance client serve --plan full --print-secrets' },
    ],
  },
  async run(argv) {
    const [sub, ...rest] = argv;
    // Flags before the subcommand: an unknown one is named as such; known ones still need a subcommand.
    if (sub?.startsWith('-')) parse('client', argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv, { plan: { type: 'string' }, out: { type: 'string' }, 'print-secrets': { type: 'boolean' }, ...CERTIFY_OPTIONS }, true);
    if (sub === 'serve') return serve(rest);
    if (sub === 'run') return run(rest);
    if (sub === 'verdict') return verdict(rest);
    throw new UsageError('client', `give serve, run or verdict (got ${sub === undefined ? 'nothing' : `'${sub}'`})`);
  },
};

/** The grading server is the reference in a grading mode: loaded on use, its packages are optional in the installed package. */
async function startGradingServer(...args: Parameters<typeof StartGradingServer>): Promise<GradingServer> {
  assertReferenceInstalled('`client`');
  return (await import('../../embedded/client-grading.js')).startGradingServer(...args);
}
