/**
 * The reports of a client grading: verdicts.json, junit.xml (one testcase per CL-* clause), the HAR of every
 * exchange (written by the harness's HAR sink from the labelled exchanges), Allure results (allure.ts, one
 * result per clause) and the console summary.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redactor } from '../http/redactor.js';
import { harSink } from '../http/sinks.js';
import type { Exchange } from '../http/types.js';
import { xmlAttr, xmlText } from '../report/outputs/junit.js';
import { writeClientAllureResults } from './allure.js';
import { redactDeep } from './label.js';
import { describeExchange } from './grade.js';
import type { ClientExchange, ClientVerdicts } from './types.js';

export const CLIENT_REPORT_FILES = { verdicts: 'verdicts.json', junit: 'junit.xml', har: 'exchanges.har', allure: 'allure-results', recording: 'recording.jsonl' } as const;

/** The labelled exchanges of a recording file (`client serve` writes it; `client verdict` reads it). */
export function readRecording(file: string): ClientExchange[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as ClientExchange);
}

function asHarExchange(e: ClientExchange, origin: number, authUrl: string): Exchange {
  const q = new URLSearchParams(e.query).toString();
  const text = (v: unknown): string | undefined => (v === undefined ? undefined : typeof v === 'string' ? v : JSON.stringify(v));
  const reqBody = text(e.body);
  return {
    id: e.seq,
    label: describeExchange(e),
    startedAt: new Date(origin + e.atMs).toISOString(),
    durationMs: 0,
    request: { method: e.method, url: `${authUrl}${e.path}${q ? `?${q}` : ''}`, headers: e.headers, ...(reqBody === undefined ? {} : { body: reqBody }), timeoutMs: 0 },
    ...(e.dropped ? { error: { code: 'FTF_E_TARGET_RESET', message: `processed by the server, then the connection was dropped (challenge ${e.challenge ?? ''})` } } : {
      response: { status: e.status, headers: e.responseHeaders, bodyText: text(e.responseBody) ?? '', json: e.responseBody, durationMs: 0 },
    }),
    curl: '',
  };
}

export interface ClientReportOptions {
  /** The grading server's auth_url (the HAR's URLs). */
  authUrl?: string;
  /** The client under test as the reports name it. */
  clientName?: string;
  /** The plan's redactor (GradingServer.redact): what the Allure results hold passes through it. */
  redact?: (text: string) => string;
}

/**
 * Writes every report of a grading into `dir`; returns the files written (the leak scan reads them all). The
 * exchanges and verdicts pass through the plan's redactor first (labelled already; any secret left is replaced
 * here too), so every file is written from redacted data.
 */
export async function writeClientReports(dir: string, rawVerdicts: ClientVerdicts, rawExchanges: readonly ClientExchange[], o: ClientReportOptions = {}): Promise<string[]> {
  // A recording read back (`client verdict`) is labelled already; the one Redactor still passes over it.
  const redact = o.redact ?? ((text: string) => new Redactor().redactText(text));
  const verdicts = redactDeep(rawVerdicts, redact);
  const exchanges = redactDeep(rawExchanges, redact);
  mkdirSync(dir, { recursive: true });
  const files = [join(dir, CLIENT_REPORT_FILES.verdicts), join(dir, CLIENT_REPORT_FILES.junit), join(dir, CLIENT_REPORT_FILES.har)];
  writeFileSync(files[0] ?? '', `${JSON.stringify(verdicts, null, 2)}\n`);
  writeFileSync(files[1] ?? '', clientJunit(verdicts));
  const har = harSink(files[2] ?? '');
  const origin = Date.now() - (exchanges.at(-1)?.atMs ?? 0);
  for (const e of exchanges) har.onExchange(asHarExchange(e, origin, o.authUrl ?? 'http://grading-server'));
  await har.flush();
  files.push(...writeClientAllureResults(join(dir, CLIENT_REPORT_FILES.allure), verdicts, exchanges, { clientName: redact(o.clientName ?? 'client'), originMs: origin }));
  return files;
}

export function clientJunit(v: ClientVerdicts): string {
  const cases = v.clauses.map((c) => {
    const open = `    <testcase classname="client.${xmlAttr(v.plan)}" name="${xmlAttr(`${c.clause} (${c.level})`)}">`;
    const detail = c.breaches.map((b) => `${b.message}\n${b.evidence.map((x) => `  ${x}`).join('\n')}`).join('\n');
    if (c.status === 'failed') return `${open}\n      <failure message="${xmlAttr(c.breaches[0]?.message ?? 'breached')}">${xmlText(detail)}</failure>\n    </testcase>`;
    if (c.status === 'not-judged') return `${open}\n      <skipped message="${xmlAttr(`not judged: ${c.note}`)}"/>\n    </testcase>`;
    if (c.status === 'warned') return `${open}\n      <system-out>${xmlText(`WARNING (should): ${detail}`)}</system-out>\n    </testcase>`;
    return `${open}</testcase>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="ftf-conformance client" tests="${v.clauses.length}" failures="${v.counts.failed}" skipped="${v.counts['not-judged']}">\n  <testsuite name="client plan ${xmlAttr(v.plan)}" tests="${v.clauses.length}" failures="${v.counts.failed}" skipped="${v.counts['not-judged']}">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}

const MARK: Record<string, string> = { passed: 'PASS', failed: 'FAIL', warned: 'WARN', 'not-judged': 'N/J ' };

export function consoleSummary(v: ClientVerdicts): string {
  const lines = [`Client conformance, plan ${v.plan}: ${v.exchanges} exchanges recorded`];
  for (const c of v.clauses) {
    lines.push(`  ${MARK[c.status]} ${c.clause.padEnd(32)} ${c.level.padEnd(6)} ${c.status === 'not-judged' ? c.note : c.status === 'passed' ? '' : ''}`.trimEnd());
    for (const b of c.breaches.slice(0, 3)) {
      lines.push(`       ${b.message}`);
      for (const x of b.evidence.slice(0, 4)) lines.push(`         ${x}`);
    }
  }
  if (v.stalls.count > 0) lines.push(`  (the grading server was stalled ${v.stalls.count} time(s), ${(v.stalls.totalMs / 1000).toFixed(1)} s in all: a busy machine; lateness it explains is not counted against the client)`);
  lines.push(`${v.overall.toUpperCase()}: ${v.counts.passed} passed, ${v.counts.failed} failed, ${v.counts.warned} warned, ${v.counts['not-judged']} not judged`);
  return lines.join('\n');
}
