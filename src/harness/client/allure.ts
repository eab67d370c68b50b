/**
 * Client verdicts as Allure results (issue 27): one result per CL-* clause beside the server side's, so
 * `ftf-conformance report --results <out>/allure-results` builds the same kind of HTML. The status comes from
 * the verdict (failed = failed; warned = passed with its warnings; not judged = skipped with the reason, never
 * passed), the status message starts with an outcome line like the server side's (`outcome: failed client -
 * checks=client:<area> clauses=<id>`), which the shared categories match (report/outputs/allure.ts), and each breach
 * is a step with its evidence exchanges attached. It is given redacted data only (reports.ts passes the
 * verdicts and exchanges through the plan's redactor, the harness's one Redactor, before any report is written).
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { harnessName } from '../report/outputs/harness-identity.js';
import { writeAllureSupportFiles } from '../report/outputs/allure.js';
import { loadClauseCatalogue } from '../spec/clauses.js';
import { CLIENT_DUTY_AREAS } from './areas.js';
import { describeExchange } from './grade.js';
import { areaOf, GRADERS } from './graders/index.js';
import type { ClauseVerdict, ClientExchange, ClientVerdicts } from './types.js';

export interface ClientAllureOptions {
  /** The client under test as the reports name it (`--client-name`, else the command). */
  clientName: string;
  /** Wall-clock ms at which the plan's clock (ClientExchange.atMs) started. */
  originMs: number;
}

type Status = 'passed' | 'failed' | 'skipped';

interface Attachment { name: string; source: string; type: string }
interface Step { name: string; status: Status; statusDetails: { message?: string }; stage: 'finished'; start: number; stop: number; steps: Step[]; attachments: Attachment[]; parameters: never[] }

const STATUS: Record<ClauseVerdict['status'], Status> = { passed: 'passed', warned: 'passed', failed: 'failed', 'not-judged': 'skipped' };
const LINE_STATUS: Record<ClauseVerdict['status'], string> = { passed: 'passed', warned: 'passed', failed: 'failed', 'not-judged': 'skipped' };

/** Where client-clauses.yaml ids link to; FTF_CLIENT_CLAUSE_URL overrides (`{id}` is replaced). */
const clauseUrl = (id: string): string => (process.env.FTF_CLIENT_CLAUSE_URL ?? 'client-clauses.yaml#{id}').replace('{id}', encodeURIComponent(id));

/** The first line of the status message: what the categories match (never text a client or server wrote). */
export function clientOutcomeLine(v: ClauseVerdict): string {
  return `outcome: ${LINE_STATUS[v.status]} client - checks=client:${areaOf(v.clause) ?? 'none'} clauses=${v.clause}`;
}

function statusMessage(v: ClauseVerdict): string | undefined {
  if (v.status === 'passed') return undefined;
  const line = clientOutcomeLine(v);
  if (v.status === 'not-judged') return `${line}\nnot judged: ${v.note}`;
  if (v.status === 'failed') return `${line}\n${v.breaches.map((b) => b.message).join('\n')}`;
  return `${line}\nwarnings: ${v.breaches.map((b) => `[${v.clause}] ${b.message}`).join('\n')}`;
}

/** Writes `dir` afresh: one result per clause, its evidence attachments, categories.json and environment.properties. Returns the files written. */
export function writeClientAllureResults(dir: string, verdicts: ClientVerdicts, exchanges: readonly ClientExchange[], o: ClientAllureOptions): string[] {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  const write = (name: string, text: string): string => {
    const file = join(dir, name);
    writeFileSync(file, text);
    files.push(file);
    return name;
  };
  const bySeq = new Map(exchanges.map((e) => [e.seq, e]));
  const start = Math.round(o.originMs);
  const stop = Math.round(o.originMs + (exchanges.at(-1)?.atMs ?? 0));
  const harness = harnessName();
  for (const v of verdicts.clauses) {
    const uuid = randomUUID();
    const area = CLIENT_DUTY_AREAS.find((a) => a.slug === areaOf(v.clause));
    const judges = GRADERS.find((g) => g.clause === v.clause)?.judges;
    const steps: Step[] = v.breaches.map((b, i) => {
      const shown = b.exchanges.map((s) => bySeq.get(s)).filter((e) => e !== undefined);
      const at = shown.length ? { start: Math.round(o.originMs + (shown[0]?.atMs ?? 0)), stop: Math.round(o.originMs + (shown.at(-1)?.atMs ?? 0)) } : { start, stop };
      return {
        name: `${v.status === 'warned' ? 'warning' : 'breach'}: ${b.message}`,
        status: v.status === 'failed' ? 'failed' : 'passed',
        statusDetails: { message: b.evidence.join('\n') },
        stage: 'finished',
        ...at,
        steps: [],
        parameters: [],
        attachments: [
          { name: `evidence ${i + 1}: the exchanges that show it`, source: write(`${uuid}-evidence-${i + 1}-attachment.txt`, `${b.message}\n\n${shown.map(describeExchange).join('\n')}\n`), type: 'text/plain' },
          { name: `evidence ${i + 1}: exchanges (JSON, secrets labelled)`, source: write(`${uuid}-evidence-${i + 1}-attachment.json`, `${JSON.stringify(shown, null, 2)}\n`), type: 'application/json' },
        ],
      };
    });
    const message = statusMessage(v);
    const result = {
      uuid,
      historyId: createHash('sha256').update(`client\n${verdicts.plan}\n${v.clause}`).digest('hex').slice(0, 32),
      testCaseId: createHash('sha256').update(`client\n${v.clause}`).digest('hex').slice(0, 32),
      name: `${v.clause} (${v.level})`,
      fullName: `client.${verdicts.plan}.${v.clause}`,
      titlePath: ['client', verdicts.plan, area?.name ?? 'other'],
      status: STATUS[v.status],
      statusDetails: { ...(message === undefined ? {} : { message }), ...(steps.length ? { trace: v.breaches.flatMap((b) => [b.message, ...b.evidence.map((x) => `  ${x}`)]).join('\n') } : {}) },
      stage: 'finished',
      start,
      stop,
      description: [`**${v.clause}** (${v.level}): ${v.says.trim()}`, '', judges ? `Judged by: ${judges}.` : 'No grader judges this clause.', '', `Verdict: ${v.status}; ${v.note}.`].join('\n'),
      labels: [
        { name: 'epic', value: 'Client conformance' },
        { name: 'feature', value: area?.name ?? 'other' },
        { name: 'story', value: v.clause },
        { name: 'severity', value: v.level === 'must' ? 'critical' : 'normal' },
        { name: 'tag', value: 'client' },
        { name: 'clause', value: v.clause },
        { name: 'parentSuite', value: `client plan ${verdicts.plan}` },
        { name: 'suite', value: area?.name ?? 'other' },
        { name: 'host', value: o.clientName },
      ],
      links: [{ name: v.clause, url: clauseUrl(v.clause), type: 'clause' }],
      parameters: [{ name: 'client', value: o.clientName }],
      attachments: [],
      steps,
    };
    write(`${uuid}-result.json`, JSON.stringify(result));
  }
  writeAllureSupportFiles(dir, {
    // The history key (allure-history.ts): one trend per client and plan.
    targetName: `client: ${o.clientName}`,
    baseUrl: `grading server, plan ${verdicts.plan}`,
    environment: 'client grading (sandbox and production servers)',
    capabilities: [],
    specSha256: loadClauseCatalogue().specSha256,
    harnessVersion: harness.version,
    ...(harness.commit !== 'unknown' ? { harnessCommit: harness.commit } : {}),
  });
  files.push(join(dir, 'categories.json'), join(dir, 'environment.properties'));
  return files;
}
