#!/usr/bin/env node
// `npm run mutation:code [-- --sample N [--seed S]]`: StrykerJS on src/reference/{domain,routes,auth,http}
// (stryker.config.mjs; each mutant's test is the conformance suite against the embedded reference, scripts/stryker-test.mjs).
//
// --sample N (or FTF_STRYKER_SAMPLE): a quick pass on about N mutants instead of all of them. The mutants are listed
// with Stryker's own instrumenter, split across the four folders in proportion to their counts (at least one each),
// drawn with a seeded generator (--seed S or FTF_STRYKER_SEED; a random seed is printed) and passed to Stryker as
// `--mutate file:line:col-line:col` ranges of exactly those mutants. Only mutants whose range holds at most 1 other
// are drawn (a block-statement removal's range holds every mutant of its block, which would all be tested with it).
// The score of a sample is the score of that sample, not of the code; the incremental file keeps its results, so a
// later run does not test those mutants again.
// --list: print the selection and exit.
// Writes .ftf/stryker/ (mutation.json, mutation.html, incremental.json, sample.json, summary.md; not reports/, whose
// files a run's leak scan reads: Stryker's reports embed the reference's source) and prints the summary that
// docs/mutation-code.md records.
import { spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readClassificationDir, score, spotOf } from './mutation-code-score.mjs';
import { dropStaleStaticResults } from './mutation-code-incremental.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FOLDERS = ['domain', 'routes', 'auth', 'http'];

const { values } = parseArgs({
  options: { report: { type: 'boolean' }, folder: { type: 'string' }, sample: { type: 'string' }, seed: { type: 'string' }, list: { type: 'boolean' }, runner: { type: 'string' }, concurrency: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  allowPositionals: false,
});
if (values.help) {
  console.log('usage: npm run mutation:code [-- --report | --folder domain,routes,auth,http | --sample N [--seed S] [--list]] [--concurrency N] [--runner in-process|command]\n(docs/mutation-code.md)');
  process.exit(0);
}
const runner = values.runner ?? 'in-process';
if (runner !== 'in-process' && runner !== 'command') {
  console.error(`mutation:code: --runner must be in-process or command, got "${runner}"`);
  process.exit(2);
}
if (values.concurrency !== undefined && !/^[1-9]\d*$/.test(values.concurrency)) {
  console.error(`mutation:code: --concurrency must be a positive integer, got "${values.concurrency}"`);
  process.exit(2);
}
// --folder: every mutant of these folders only. The incremental file keeps the results of the others (Stryker carries
// a mutant it did not run over from the last report), so a full run can be done a folder at a time.
const folders = values.folder === undefined ? undefined : values.folder.split(',').map((f) => f.trim());
if (folders !== undefined && (folders.length === 0 || folders.some((f) => !FOLDERS.includes(f)))) {
  console.error(`mutation:code: --folder takes a comma-separated list of ${FOLDERS.join(', ')}, got "${values.folder}"`);
  process.exit(2);
}
if (values.report && (folders !== undefined || values.sample !== undefined || values.runner !== undefined || values.concurrency !== undefined)) {
  console.error('mutation:code: --report runs no Stryker: it takes no --folder, --sample, --runner or --concurrency');
  process.exit(2);
}
if (folders !== undefined && (values.sample !== undefined || process.env.FTF_STRYKER_SAMPLE !== undefined)) {
  console.error('mutation:code: --folder and --sample exclude each other');
  process.exit(2);
}
const sampleRaw = values.sample ?? process.env.FTF_STRYKER_SAMPLE;
const sample = sampleRaw === undefined ? undefined : Number(sampleRaw);
if (sample !== undefined && (!Number.isInteger(sample) || sample < FOLDERS.length)) {
  console.error(`mutation:code: --sample must be an integer >= ${FOLDERS.length} (one mutant per folder at least), got "${sampleRaw}"`);
  process.exit(2);
}
const seedRaw = values.seed ?? process.env.FTF_STRYKER_SEED;
const seed = seedRaw === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(seedRaw);
if (!Number.isInteger(seed)) {
  console.error(`mutation:code: --seed must be an integer, got "${seedRaw}"`);
  process.exit(2);
}

/** mulberry32: a small seeded generator, so a sample can be drawn again. */
function rng(s) {
  let a = s >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function tsFiles(dir) {
  const out = [];
  for (const line of execFileSync('git', ['ls-files', '--', `${dir}/*.ts`, `${dir}/**/*.ts`], { cwd: root, encoding: 'utf8' }).split('\n')) if (line) out.push(line);
  return [...new Set(out)].sort();
}

async function listMutants() {
  const { createInjector } = await import('typed-inject');
  const { createInstrumenter } = await import('@stryker-mutator/instrumenter');
  const { SwitchIgnorer } = await import('./stryker-ignorer.mjs');
  const quiet = () => false;
  const noop = () => undefined;
  const logger = { isTraceEnabled: quiet, isDebugEnabled: quiet, isInfoEnabled: quiet, isWarnEnabled: quiet, isErrorEnabled: quiet, isFatalEnabled: quiet, trace: noop, debug: noop, info: noop, warn: noop, error: noop, fatal: noop };
  const instrumenter = createInstrumenter(createInjector().provideValue('logger', logger).provideValue('getLogger', () => logger));
  const byFolder = new Map();
  for (const folder of FOLDERS) {
    const files = tsFiles(`src/reference/${folder}`).map((name) => ({ name, content: readFileSync(join(root, name), 'utf8'), mutate: true }));
    const { mutants } = await instrumenter.instrument(files, { plugins: null, excludedMutations: [], ignorers: [new SwitchIgnorer()] });
    // Drawn from the mutants Stryker tests: not those the ignorer (stryker.config.mjs) sets aside.
    byFolder.set(folder, mutants.filter((m) => m.status === undefined));
  }
  return byFolder;
}

const inside = (outer, inner) => {
  const before = (a, b) => a.line < b.line || (a.line === b.line && a.column <= b.column);
  return before(outer.start, inner.start) && before(inner.end, outer.end);
};

/** N mutants across the folders, each as a `file:line:col-line:col` range (lines 1-based, columns 0-based, as Stryker reads them). */
function draw(byFolder, n, random) {
  const total = [...byFolder.values()].reduce((s, ms) => s + ms.length, 0);
  const picks = [];
  for (const folder of FOLDERS) {
    const all = byFolder.get(folder);
    const sameFile = (m) => all.filter((o) => o.fileName === m.fileName);
    const narrow = all.filter((m) => sameFile(m).filter((o) => o !== m && inside(m.location, o.location)).length <= 1);
    const want = Math.max(1, Math.round((n * all.length) / total));
    const pool = [...narrow];
    for (let i = 0; i < want && pool.length > 0; i++) {
      const [m] = pool.splice(Math.floor(random() * pool.length), 1);
      const { start, end } = m.location;
      picks.push({ folder, file: m.fileName, mutator: m.mutatorName, replacement: m.replacement, range: `${m.fileName}:${start.line + 1}:${start.column}-${end.line + 1}:${end.column}` });
    }
  }
  return { total, picks };
}

const started = Date.now();
const out = join(root, '.ftf', 'stryker');
mkdirSync(out, { recursive: true });
const args = ['run', 'stryker.config.mjs'];
// The command runner (scripts/stryker-test.mjs): the whole suite through the CLI and Playwright per mutant, with no
// coverage per test, and the budget it had (the clean run's time x 1.5 + 30 s).
if (runner === 'command') args.push('--testRunner', 'command', '--coverageAnalysis', 'off', '--timeoutFactor', '1.5', '--timeoutMS', '30000');
if (values.concurrency !== undefined) args.push('--concurrency', values.concurrency);
if (folders !== undefined) args.push('--mutate', folders.map((f) => `src/reference/${f}/**/*.ts`).join(','));
if (sample !== undefined && !values.report) {
  const byFolder = await listMutants();
  const { total, picks } = draw(byFolder, sample, rng(seed));
  writeFileSync(join(out, 'sample.json'), `${JSON.stringify({ seed, sample, total, byFolder: Object.fromEntries([...byFolder].map(([f, ms]) => [f, ms.length])), picks }, null, 2)}\n`);
  console.log(`mutation:code: sample of ${picks.length} of ${total} mutants (${FOLDERS.map((f) => `${f} ${picks.filter((p) => p.folder === f).length}/${byFolder.get(f).length}`).join(', ')}), seed ${seed}; .ftf/stryker/sample.json`);
  if (values.list) {
    for (const p of picks) console.log(`  ${p.range}  ${p.mutator}: ${p.replacement.split('\n')[0].slice(0, 80)}`);
    process.exit(0);
  }
  args.push('--mutate', picks.map((p) => p.range).join(','));
}

// The sandbox is a copy of the project under .stryker-tmp/: ../shared does not resolve from there, so the spec folder is given.
const env = { ...process.env, FTF_SPEC_DIR: process.env.FTF_SPEC_DIR ?? resolve(root, '..', 'shared', 'spec') };
if (!existsSync(join(env.FTF_SPEC_DIR, 'clauses.yaml'))) {
  console.error(`mutation:code: no clauses.yaml in ${env.FTF_SPEC_DIR} (set FTF_SPEC_DIR)`);
  process.exit(2);
}
// The personas' profiles, written once from the unmutated reference (the harness's profile is data, as a vendor's is;
// generated in a runner process, a static mutant of http/paging.ts or shape.ts would change it with the server).
if (!values.report && runner === 'in-process') env.FTF_MUTATION_PERSONA_DIR = writePersonaProfiles();
// A static mutant's survival is reused by Stryker even when tests were added since: retested then (mutation-code-incremental.mjs).
if (!values.report && runner === 'in-process' && sample === undefined) retestStaticMutants(folders ?? FOLDERS);

// --report: no Stryker run; the score and summary again from the last report (after editing the classification).
const stryker = values.report ? { status: 0 } : spawnSync(process.execPath, [join(root, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js'), ...args], { cwd: root, stdio: 'inherit', env });
const seconds = Math.round((Date.now() - started) / 1000);

const report = join(out, 'mutation.json');
if (!existsSync(report)) {
  console.error(`mutation:code: Stryker wrote no ${relative(root, report)} (exit ${stryker.status})`);
  process.exit(stryker.status || 3);
}
const json = JSON.parse(readFileSync(report, 'utf8'));
const results = Object.entries(json.files).flatMap(([file, f]) => f.mutants.map((m) => ({ file, ...m })));
// The runner names the test that killed each mutant (Stryker's killedBy: ids of the tests in testFiles).
const testName = new Map(Object.values(json.testFiles ?? {}).flatMap((f) => f.tests.map((t) => [t.id, t.name])));
const count = (s) => results.filter((m) => m.status === s).length;
const tested = results.filter((m) => ['Killed', 'Timeout', 'Survived', 'RuntimeError'].includes(m.status)).length;
const CLASSIFIED = join(root, 'fixtures', 'mutation-code');
let entries;
let classified;
try {
  entries = readClassificationDir(CLASSIFIED);
  classified = score(results, entries);
} catch (error) {
  console.error(`mutation:code: ${error.message}`);
  process.exit(2);
}
const pct = (x) => (x === undefined ? '-' : `${x.toFixed(1)} %`);
if (!values.report) console.log(`mutation:code: ${seconds} s wall (${tested} mutants ran tests${tested ? `, ${(seconds / tested).toFixed(1)} s each with the dry run` : ''})${sample !== undefined ? ` (a sample, seed ${seed})` : ''}`);
console.log(`mutation:code: ${results.length} mutants (${results.filter((m) => m.static).length} static): ${count('Killed')} killed, ${count('Timeout')} timeout, ${count('Survived')} survived, ${count('NoCoverage')} no coverage, ${classified.errors} errors, ${classified.ignored} ignored by rule. Stryker's score ${pct(classified.rawPct)}`);
console.log(`mutation:code: of the ${classified.undetected} not detected: ${classified.equivalent} equivalent, ${classified.missed} missed, ${classified.open} open, ${classified.variantOnly} variant-only, ${classified.unclassified} not classified (${relative(root, CLASSIFIED)}). Score of the non-equivalent mutants: ${pct(classified.scorePct)} (${classified.detected} detected of ${classified.detected + classified.undetected - classified.equivalent}; an unclassified one counts as not equivalent); ${pct(classified.floorPct)} if none of the ${classified.timeouts} timeouts counted as detected`);
// The same per folder of src/reference (the classification files are per folder too).
for (const folder of FOLDERS) {
  const part = score(results.filter((m) => m.file.startsWith(`src/reference/${folder}/`)), entries);
  if (part.total === 0) continue;
  console.log(`  ${folder}: ${part.total} mutants, ${part.detected} detected, ${part.ignored} ignored by rule; not detected ${part.undetected}: ${part.equivalent} equivalent, ${part.missed} missed, ${part.open} open, ${part.variantOnly} variant-only, ${part.unclassified} not classified; score ${pct(part.scorePct)} (${pct(part.floorPct)} without its ${part.timeouts} timeouts; Stryker's ${pct(part.rawPct)})`);
}
// A sample's report holds a few mutants: nearly every entry matches none of them, which says nothing of the entry.
if (sample !== undefined) console.log(`  stale classification: not judged on a sample (${classified.stale.length} entries match no mutant of these ${results.length})`);
else for (const e of classified.stale) console.log(`  stale classification (matches no undetected mutant of this report): ${e.at}${e.mutator ? ` ${e.mutator}` : ''}`);
// Every mutant as a table row (docs/mutation-code.md takes its rows from here): where, what, status, and why.
const what = (m) => `${m.mutatorName}: \`${String(m.replacement ?? '').split('\n')[0].slice(0, 60).replace(/\|/g, '\\|')}\``;
const cell = (text, n) => String(text ?? '').split('\n')[0].slice(0, n).replace(/\|/g, '\\|');
const why = ({ m, entry }) => {
  if (m.status === 'Killed') return `killed by ${(m.killedBy ?? []).map((id) => testName.get(id)?.split(': ').slice(0, 2).join(': ') ?? id).join(', ') || '-'}: ${cell(m.statusReason, 120)}`;
  if (entry) return `**${entry.verdict}**: ${cell(entry.why, 300)}`;
  if (m.status === 'NoCoverage') return 'no test reaches it; not classified';
  if (m.status === 'Survived') return 'not classified';
  return cell(m.statusReason, 160);
};
const rows = classified.rows.map((r) => `| \`${spotOf(r.m)}\` ${what(r.m)} | ${r.m.status}${r.m.static ? ' (static)' : ''} | ${why(r)} |`);
writeFileSync(join(out, 'summary.md'), `| mutant | status | by / why |\n|---|---|---|\n${rows.join('\n')}\n`);
console.log(`mutation:code: every mutant with its status, killing test or classification: ${relative(root, join(out, 'summary.md'))}`);
for (const { m } of classified.rows.filter((r) => (r.m.status === 'Survived' || r.m.status === 'NoCoverage') && r.entry === undefined)) {
  console.log(`  not classified: ${m.status === 'Survived' ? 'survived' : 'no coverage'} ${spotOf(m)} ${m.mutatorName}: ${String(m.replacement ?? '').split('\n')[0].slice(0, 100)}`);
}
process.exit(stryker.status ?? 1);

/** The static mutants not detected are tested again when the test set gained tests (mutation-code-incremental.mjs). */
function retestStaticMutants(scope) {
  const file = join(out, 'incremental.json');
  if (!existsSync(file)) return;
  const incremental = JSON.parse(readFileSync(file, 'utf8'));
  // The test names this run's runner will have (FTF_MUTATION_TESTS narrows them as the plugin does).
  const list = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e',
    "const { testSet } = await import('./src/mutation-code/conformance-tests.ts'); const only = process.env.FTF_MUTATION_TESTS; const set = testSet(only ? { only: new RegExp(only) } : {});"
    + ' const tests = await set.load(); await set.dispose?.(); process.stdout.write(JSON.stringify(tests.map((t) => t.name)));'], { cwd: root, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (list.status !== 0) {
    console.error(`mutation:code: the test set did not load to compare it with the last run's:\n${list.stderr}`);
    process.exit(2);
  }
  const { added, dropped } = dropStaleStaticResults(incremental, JSON.parse(list.stdout), scope);
  if (dropped === 0) return;
  writeFileSync(file, JSON.stringify(incremental));
  console.log(`mutation:code: the test set has ${added.length} test(s) the last run did not (e.g. ${added[0]}): the ${dropped} static mutant(s) of ${scope.join(', ')} it did not detect are tested again (each in a fresh runner process with every test)`);
}

function writePersonaProfiles() {
  const dir = join(out, 'personas');
  mkdirSync(dir, { recursive: true });
  const write = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e',
    "const { PERSONAS } = await import('./src/reference/variants.ts'); const { writeVariantProfile } = await import('./src/selftest/variant-profile.ts');"
    + ` for (const p of PERSONAS) writeVariantProfile(${JSON.stringify(dir)}, p.name, p.variants);`], { cwd: root, env, encoding: 'utf8' });
  if (write.status !== 0) {
    console.error(`mutation:code: the personas' profiles could not be written:\n${write.stderr}`);
    process.exit(2);
  }
  return dir;
}
