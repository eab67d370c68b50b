/**
 * Where the matrix goes: the console (fault -> failing scenarios -> verdict), reports/mutation.json (exactly
 * the MutationReport shape) and docs/mutation.md (generated: intro, how to run, the table).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { FAULTS, FAULT_FAMILIES, type FaultFamily } from '../reference/faults.js';
import { CI_SUBSET } from './subsets.js';
import { precisionTally, type FaultResult, type MutationReport, type Verdict } from './verdict.js';

export interface RunFacts {
  wallMs: number;
  workers: number;
  mode: 'targeted' | 'full';
  /** Faults that were not run, each with the reason (e.g. not observable without a clock in no-control mode). */
  notRunnable: Record<string, string>;
  generatedAt: string;
  /** The target the matrix ran against: the reference (default) or the reference without the control API. */
  target?: 'no-control';
}

const MARK: Record<Verdict, string> = { killed: 'killed', 'killed-incidentally': 'KILLED-INCIDENTALLY', survived: 'SURVIVED' };

export function formatMatrix(report: MutationReport, facts: RunFacts): string {
  const lines: string[] = [];
  const width = Math.max(...report.faults.map((f) => f.name.length), 10);
  if (facts.target === 'no-control') lines.push('target: the reference as a sandbox without the control API (fixtures/targets/reference-no-control.yaml)');
  lines.push(`clean reference: ${report.clean.passed} passed, ${report.clean.failed} failed${report.clean.failed ? '  <-- FALSE ALARMS' : ''}`);
  lines.push('');
  lines.push(`${'fault'.padEnd(width)}  ${'verdict'.padEnd(19)}  failing scenarios (clauses the fault breaks)`);
  for (const f of report.faults) {
    const failing = (f.failingScenarios.length ? f.failingScenarios.join(', ') : '-') + (f.erroredScenarios.length ? ` [errored, not counted: ${f.erroredScenarios.join(', ')}]` : '');
    const why = facts.notRunnable[f.name];
    const note = why !== undefined ? ` [not run: ${why}]` : '';
    lines.push(`${f.name.padEnd(width)}  ${(why !== undefined ? 'not run' : MARK[f.verdict]).padEnd(19)}  ${failing}  (${f.clauses.join(', ')})${note}`);
    if (why === undefined) lines.push(`${''.padEnd(width)}  ${'named'.padEnd(19)}  ${(f.named ?? []).join(', ') || '-'} vs the fault's ${f.clauses.join(', ')}: ${f.precision ?? 'none'}`);
  }
  const count = (v: Verdict): number => report.faults.filter((f) => f.verdict === v && facts.notRunnable[f.name] === undefined).length;
  const notRun = Object.keys(facts.notRunnable).length;
  lines.push('');
  lines.push(`${report.faults.length} faults: ${count('killed')} killed, ${count('killed-incidentally')} killed incidentally, ${count('survived')} survived${notRun ? `, ${notRun} not run` : ''}`
    + ` — wall time ${(facts.wallMs / 1000).toFixed(1)} s on ${facts.workers} worker(s), ${facts.mode} mode`);
  lines.push(precisionLine(report));
  return lines.join('\n');
}

/** The precision figure (issue 24): of the killed faults, how many name exactly their clauses, one extra, more. */
export function precisionLine(report: MutationReport): string {
  const p = precisionTally(report.faults);
  return `precision: ${p.exact} of ${p.killed} killed faults name exactly their clauses (${p.percentExact} %), ${p.oneExtra} one extra, ${p.more} more`;
}

export function writeJsonReport(file: string, report: MutationReport): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}

const cell = (s: string): string => s.replace(/\|/g, '\\|');

const scenarioList = (names: readonly string[]): string => (names.length ? names.map((s) => `\`${s}\``).join(', ') : '—');

/** The faults of the run grouped by catalogue family, families in catalogue order (a fault outside the catalogue goes to `others`). */
export function byFamily(report: MutationReport): Array<{ family: FaultFamily; faults: FaultResult[] }> {
  const familyOf = new Map(FAULTS.map((f) => [f.name, f.family]));
  return FAULT_FAMILIES
    .map((family) => ({ family, faults: report.faults.filter((f) => (familyOf.get(f.name) ?? 'others') === family) }))
    .filter((g) => g.faults.length > 0);
}

/** The kill table by family: one summary row per family (plus the total), then one table per family. */
export function renderFamilyTables(report: MutationReport, facts: RunFacts): string {
  const descriptions = new Map(FAULTS.map((f) => [f.name, f.description]));
  // A fault not run in this mode (facts.notRunnable) counts in no verdict column; it gets its own column.
  const ran = (f: FaultResult): boolean => facts.notRunnable[f.name] === undefined;
  const tally = (faults: readonly FaultResult[], v: Verdict): number => faults.filter((f) => ran(f) && f.verdict === v).length;
  const anyNotRun = report.faults.some((f) => !ran(f));
  const notRunCell = (faults: readonly FaultResult[]): string => (anyNotRun ? ` ${faults.filter((f) => !ran(f)).length} |` : '');
  const groups = byFamily(report);
  const summary = groups.map(({ family, faults }) => {
    const killers = [...new Set(faults.flatMap((f) => f.failingScenarios))].sort();
    return `| [${family}](#family-${family}) | ${faults.length} | ${tally(faults, 'killed')} | ${tally(faults, 'killed-incidentally')} | ${tally(faults, 'survived')} |${notRunCell(faults)} ${scenarioList(killers)} |`;
  });
  const all = report.faults;
  summary.push(`| **all** | ${all.length} | ${tally(all, 'killed')} | ${tally(all, 'killed-incidentally')} | ${tally(all, 'survived')} |${notRunCell(all)} |`);
  const sections = groups.map(({ family, faults }) => {
    const rows = faults.map((f) => {
      const why = facts.notRunnable[f.name];
      const verdict = why !== undefined ? `not run (${why})` : f.verdict;
      return `| \`${f.name}\` | ${cell(descriptions.get(f.name) ?? '')} | ${f.clauses.join(', ')} | ${scenarioList(f.failingScenarios)} | **${verdict}** | ${(f.named ?? []).join(', ') || '—'} (${f.precision ?? 'none'}) |`;
    });
    return `<a id="family-${family}"></a>
### ${family} (${faults.length}: ${tally(faults, 'killed')} killed)

| fault | deviation | clauses | failing scenarios | verdict | clauses named (precision) |
|---|---|---|---|---|---|
${rows.join('\n')}
`;
  });
  return `| family | faults | killed | killed incidentally | survived |${anyNotRun ? ' not run |' : ''} scenarios that failed |
|---|---|---|---|---|${anyNotRun ? '---|' : ''}---|
${summary.join('\n')}

${sections.join('\n')}`;
}

export function renderMarkdown(report: MutationReport, facts: RunFacts): string {
  const count = (v: Verdict): number => report.faults.filter((f) => f.verdict === v && facts.notRunnable[f.name] === undefined).length;
  const notRun = Object.keys(facts.notRunnable).length;
  return `# Mutation matrix

<!-- Generated by \`npm run mutation\` (src/selftest/mutation.ts). Do not edit by hand: rerun it. -->

A conformance harness earns trust only if it fails wrong implementations for the right reason and passes the
correct one. The reference server (\`src/reference\`) can inject one fault at a time (\`--fault NAME\`,
\`startReferenceServer({ fault })\`); each is a single deviation from one rule of the spec, implemented where
that rule lives, and names the clause ids (\`/work/shared/spec/clauses.yaml\`) it breaks. The catalogue
(\`src/reference/fault-registry.ts\`) has ${FAULTS.length} faults in ${FAULT_FAMILIES.length} families.

Besides plain breakages, the catalogue holds the deviations an independent implementer is likely to make
(issue 13): an off-by-one only for page sizes other than the default (\`page-size-off-by-one\`), a fence
honoured on the first page only (\`fence-first-page-only\`), a replay cache keyed without the user
(\`idempotency-key-not-user-scoped\`), the allow-list checked on lists but not on a single holding
(\`holding-read-skips-allow-list\`), a write deny-list that forgets DELETE (\`readonly-client-can-delete\`),
a "clock-skew" leeway on token expiry far beyond any skew (\`token-expiry-grace-10min\`), a "nothing to move" PATCH answered before
the version check (\`checkpoint-same-cursor-unversioned\`), a below-minimum amount treated as a schema
failure (\`minimum-as-422\`), today's date taken by calendar day alone after its cut-off
(\`subscription-date-cutoff-not-checked\`, \`default-date-ignores-cutoff\`), a wall-clock cut-off compared in
UTC instead of the product's zone (\`cutoff-compared-in-utc\`; needs the clock: the control API), and an
end_cursor fence compared by the second events were recorded instead of their stream position
(\`fence-by-timestamp\`; needs appends after the fence). Each has a probe in
\`test/reference/faults-probes-*.ts\` showing the faulted server deviates and the clean one does not.

Issue 26 added the deviations found in corners no scenario visited, each killed by what found it: by the amount
boundaries (\`boundaries.amounts\`, src/harness/boundaries/: every bound exactly and one whole unit, cent and
tenth of a cent outside and inside) a limit compared with half a cent of slack (\`minimum-sub-cent-tolerance\`,
\`maximum-sub-cent-tolerance\`); by the model property's new commands a replay answering the subscription as it is
now once the clock moved its state on (\`idempotency-replay-current-state\`), a PATCH that brings a deleted
checkpoint back (\`checkpoint-patch-after-delete\`), a PUT after DELETE that restores the deleted checkpoint
(\`checkpoint-recreate-restores\`), an entity_code filter that skips the allow-list when combined with
event_type (\`event-filter-skips-allow-list\`), a holding served under another of the caller's entities
(\`holding-read-ignores-entity\`) and one webhook registration shared by every user (\`webhook-not-user-scoped\`);
then by the boundaries' negated minimum a sign dropped from the amount (\`amount-sign-dropped\`), and by the model's
token, re-registration and other-credential filter commands a client secret checked only when one is presented
(\`client-secret-optional\`: a grant parameter left out), a webhook POST after a DELETE that reactivates the old URL
(\`webhook-reregister-keeps-old\`) and an entity_code filter of a read-only client that skips the allow-list
(\`event-filter-readonly-skips-allow-list\`).

A kill by the model property alone depends on its random draw: a run whose commands never hit the corner lets the
fault through (\`client-secret-optional\` survived one full matrix on 2026-11-28 that way). So each fault above that
only the model killed also has a scenario step that kills it every time: \`token.bad-client\` (the secret left out),
\`webhooks.user-scope\`, \`webhooks.register-delete\` (a second POST after the DELETE), \`errors.not-found-checkpoint\`
(a PATCH after the DELETE), \`checkpoints.recreate\`, \`events.scope-appended\` (the combined filter),
\`events.scope-readonly\` and \`idempotency.replay-after-issue\`; the model still kills them too.

## Running it

\`\`\`
npm run mutation                       # clean reference + every fault
npm run mutation -- --faults a,b,c     # a subset by name
npm run mutation -- --subset ci        # the fixed CI subset (below)
npm run mutation -- --workers 2        # Playwright workers (default: the machine's cores)
npm run mutation -- --full             # every fault runs the whole suite (slower; lists every failing scenario)
npm run mutation -- --faults a,b --grep '^model: '   # only the tests whose title matches (what they kill on their own)
npm run mutation -- --faults a,b --grep '^model: ' --write-docs   # ... and its section at the end of this page
ftf-conformance selftest --variants --grep '@model' --write-docs     # those tests on every conformant variant (its section)
npm run mutation -- --mode no-control # against the reference without the control API (below)
\`\`\`

One Playwright invocation runs project \`clean\` plus one project per fault (\`playwright.mutation.config.ts\`;
the worker fixture reads \`project.metadata.fault\`). By default the run is **targeted**: a fault's project
first runs only the scenarios whose \`clause\` annotations cover one of the fault's clauses (they alone can
kill it for the right reason); a fault not killed there runs the rest of the suite in a second pass, to tell
"killed incidentally" from "survived". \`--full\` runs the whole suite for every fault.
\`--grep REGEX\` restricts every project (clean and faults, both passes) to the tests whose title matches; such
a run never rewrites the kill table. With \`--write-docs\` it writes its own section at the end of this page
(\`grep-<pattern>\`: command, counts, wall time, machine load), and \`selftest --variants --grep RE --write-docs\`
writes the section of the same tests on every conformant variant (\`variants-grep-<pattern>\`; there RE is the
selection of \`run --grep\`, matched in "<id>: <title> @<tags>"). A full run keeps these sections.

Verdicts come from each scenario's outcome record (\`src/harness/report/records/outcome.ts\`): **killed** — a scenario
*failed* a check whose clause ids include one of the fault's clauses; **killed-incidentally** — checks fail,
but only checks of other clauses; **survived** — no check fails. A scenario that *errored* (target trouble,
timeout, harness error) or was skipped never counts. Exit code 1 when the clean run has a failure or an error,
or any fault is not killed. Results: this page and \`reports/mutation.json\`
(\`{ clean: { passed, failed }, faults: [ { name, clauses, failingScenarios, erroredScenarios, verdict } ] }\`).

Faults whose profile is \`production\` (\`api-key-accepted-in-production\`) change only a production-mode
server: their projects start the reference with \`mode: 'production'\` and load
\`fixtures/targets/reference-production.yaml\` (\`metadata.mode\` / \`metadata.profile\`), where the production
guard skips mutating scenarios and \`token.api-key-production\` sends the profile's refusal-probe API key. When
any production fault runs, the clean run also covers the reference in production mode (project
\`clean-production\`); its counts are added to the clean line.

\`--mode no-control\` runs the matrix against the reference as a sandbox without the control API
(\`fixtures/targets/reference-no-control.yaml\`: real-time clock, a short-lived test client and a test product
whose uid rotates in seconds; docs/target-profiles.md "Targets without clock control"), where scenarios
needing the clock run their clock-less forms. Faults only a clock can show (\`src/selftest/no-control.ts\`
\`CLOCK_ONLY_FAULTS\`) are not run there: the table lists them as "not run" with the reason, and they do not
decide the exit code; every other fault must die. Such a run never rewrites the kill table; with
\`--write-docs\` it writes its own section (\`no-control\`) at the end of this page.

The kill table below is grouped by family (the \`family\` of each fault in the registry): one summary row
per family, then the faults of each family with the scenarios that failed under them.

CI subset (\`--subset ci\`, ${CI_SUBSET.length} faults covering every family): ${CI_SUBSET.map((n) => `\`${n}\``).join(', ')}.

## Last run

${facts.generatedAt}: ${facts.mode} mode, ${facts.workers} worker(s), wall time ${(facts.wallMs / 1000).toFixed(1)} s${facts.target === 'no-control' ? ', against the reference without the control API (`--mode no-control`)' : ''}.
Clean reference: ${report.clean.passed} passed, ${report.clean.failed} failed. Faults: ${report.faults.length};
${count('killed')} killed, ${count('killed-incidentally')} killed incidentally, ${count('survived')} survived${notRun ? `, ${notRun} not run` : ''}.

Precision (issue 24: a verdict names exactly the clause that broke): ${precisionLine(report).replace(/^precision: /, '')}. A fault's
clauses named are those of every failed check of its failing scenarios (each check judges its own clause:
\`clause:\` in the YAML, a response rule's own); "one extra" and "more" count clauses named that the fault does
not break. The last column of each family table lists them.

## Kill table by family

${renderFamilyTables(report, facts)}`;
}

/**
 * Sections of docs/mutation.md written by restricted runs (`--grep RE --write-docs` of the fault or the variant
 * matrix): each between `<!-- section:ID -->` and `<!-- /section:ID -->`. A full run regenerates the page and
 * keeps them; a restricted run replaces only its own.
 */
const SECTION = /<!-- section:([a-z0-9-]+) -->\n[\s\S]*?<!-- \/section:\1 -->\n/g;

function sectionsOf(file: string): string[] {
  return existsSync(file) ? [...readFileSync(file, 'utf8').matchAll(SECTION)].map((m) => m[0]) : [];
}

export function writeMarkdown(file: string, report: MutationReport, facts: RunFacts): void {
  mkdirSync(dirname(file), { recursive: true });
  const kept = sectionsOf(file);
  writeFileSync(file, `${renderMarkdown(report, facts)}${kept.map((s) => `\n${s}`).join('')}`);
}

/** Writes (or replaces) section `id` of a generated page; `body` is its markdown without the markers. */
export function writeSection(file: string, id: string, body: string): void {
  const block = `<!-- section:${id} -->\n${body.trimEnd()}\n<!-- /section:${id} -->\n`;
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const marker = `<!-- section:${id} -->`;
  const next = text.includes(marker)
    ? text.replace(SECTION, (whole, found: string) => (found === id ? block : whole))
    : `${text.trimEnd()}\n\n${block}`;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, next);
}

/** The section id of a restricted run's pattern: `prefix-` + its letters and digits (`^model: ` -> `grep-model`). */
export const sectionId = (prefix: string, grep: string): string =>
  `${prefix}-${grep.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'pattern'}`;

/** What a restricted run saw: its command line, when, how long, on how many workers, at what machine load. */
export interface RestrictedRunFacts {
  command: string;
  generatedAt: string;
  wallMs: number;
  workers: number;
  /** os.loadavg() when the run started, and the machine's cores. */
  loadAtStart: readonly number[];
  cores: number;
}

export const restrictedRunLine = (f: RestrictedRunFacts): string =>
  `${f.generatedAt}: \`${f.command}\` — ${f.workers} worker(s), wall time ${(f.wallMs / 1000).toFixed(1)} s, `
  + `load average at start ${f.loadAtStart.map((l) => l.toFixed(2)).join(' / ')} (1/5/15 min) on ${f.cores} cores.`;

/** The section of a `--mode no-control --write-docs` run: the kill table against the reference without the control API. */
export function renderNoControlSection(report: MutationReport, facts: RunFacts, run: RestrictedRunFacts): string {
  const count = (v: Verdict): number => report.faults.filter((f) => f.verdict === v && facts.notRunnable[f.name] === undefined).length;
  return `## Against the reference without the control API (\`--mode no-control\`)

<!-- Generated by \`ftf-conformance selftest --mode no-control --write-docs\` (src/selftest/output.ts). Do not edit by hand. -->

${restrictedRunLine(run)}
Clean reference (no control API): ${report.clean.passed} passed, ${report.clean.failed} failed. Faults: ${report.faults.length};
${count('killed')} killed, ${count('killed-incidentally')} killed incidentally, ${count('survived')} survived, ${Object.keys(facts.notRunnable).length} not run (only a clock can show them).

${renderFamilyTables(report, facts).replace(/id="family-/g, 'id="no-control-family-').replace(/\(#family-/g, '(#no-control-family-')}`;
}

/** The text of section `id` of a generated page (without its markers), if the page has it. */
export function readSection(file: string, id: string): string | undefined {
  return sectionsOf(file).find((s) => s.startsWith(`<!-- section:${id} -->\n`));
}

const FAULT_ROW = /^\| `([^`]+)` \| [^|]+ \| \*\*([a-z-]+)\*\* \|.*\|$/gm;

/**
 * The section of a `--grep` fault-matrix run: what the selected tests kill on their own. `previous` (the section as it
 * was): the rows of faults this run did not run are kept below this run's table, under the previous run's line, so
 * a run of a few faults updates their rows without dropping the others.
 */
export function renderGrepSection(report: MutationReport, facts: RestrictedRunFacts, grep: string, previous?: string): string {
  const familyOf = new Map(FAULTS.map((f) => [f.name, f.family]));
  const count = (v: Verdict): number => report.faults.filter((f) => f.verdict === v).length;
  const rows = report.faults.map((f) => `| \`${f.name}\` | ${familyOf.get(f.name) ?? 'others'} | **${f.verdict}** | ${scenarioList(f.failingScenarios)} | ${f.clauses.join(', ')} |`);
  const run = new Set(report.faults.map((f) => f.name));
  const kept = previous === undefined ? [] : [...previous.matchAll(FAULT_ROW)].filter((m) => !run.has(m[1] as string));
  const earlierLine = previous?.split('\n').find((l) => /^(\d{4}-\d{2}-\d{2}T|Kept from )/.test(l));
  const keptCount = (v: string): number => kept.filter((m) => m[2] === v).length;
  const keptPart = kept.length === 0 ? '' : `
Kept from the earlier run of this section (faults this run did not run; ${kept.length}: ${keptCount('killed')} killed, ${keptCount('killed-incidentally')} killed incidentally, ${keptCount('survived')} survived). Its line: ${(earlierLine ?? 'unknown').replace(/^Kept from .*Its line: /, '')}

| fault | family | verdict | failing tests | clauses the fault breaks |
|---|---|---|---|---|
${kept.map((m) => m[0]).join('\n')}
`;
  return `## Restricted to \`--grep ${cell(grep)}\`: what those tests kill on their own

<!-- Generated by \`ftf-conformance selftest --faults … --grep RE --write-docs\` (src/selftest/output.ts). Do not edit by hand. -->

${restrictedRunLine(facts)}
Clean reference (the selected tests only): ${report.clean.passed} passed, ${report.clean.failed} failed. Faults: ${report.faults.length};
${count('killed')} killed, ${count('killed-incidentally')} killed incidentally, ${count('survived')} survived.

| fault | family | verdict | failing tests | clauses the fault breaks |
|---|---|---|---|---|
${rows.join('\n')}
${keptPart}`;
}
