/**
 * The conformance certificate: what was tested (target, capabilities, harness version, commit and files digest, hashes
 * of the spec, every scenario and schema file), when, and with which verdict per clause. Signed with
 * Ed25519 over the canonical compact JSON of everything but `signature`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { canonicalJson } from './canonical-json.js';
import { sha256, type ClauseCatalogue } from '../../spec/clauses.js';
import { REPO_ROOT } from '../../repo-root.js';
import { signPayload, verifyPayload, publicKeyFingerprint, type SigningKey } from './signing.js';
import { harnessIdentity, type HarnessIdentity } from './harness-identity.js';
import type { ImplementationVersion } from '../records/implementation.js';
import type { ClauseCoverage } from '../verdicts/clause-coverage.js';
import type { ClauseVerdict, OverallVerdict, ScenarioVerdict, Totals, VerdictSummary } from '../verdicts/verdicts.js';
import type { Waiver } from '../verdicts/waivers.js';

export const CERTIFICATE_FORMAT = 'ftf-conformance-certificate/1';
/** Formats `verify` checks the same way: the server certificate, and the client certificate (client/certificate.ts). */
export const CERTIFICATE_FORMATS: readonly string[] = [CERTIFICATE_FORMAT, 'ftf-client-certificate/1'];

export interface CertificateTarget {
  name: string;
  base_url: string;
  auth_url: string;
  environment: string;
  capabilities: string[];
}

export interface CertificateBody {
  format: typeof CERTIFICATE_FORMAT;
  target: CertificateTarget;
  /** Package name, version, commit and the sha-512 of the harness files that ran (harness-identity.ts). */
  harness: HarnessIdentity;
  /** The implementation under test (profile `implementation`; implementation.ts). */
  implementation: ImplementationVersion;
  spec: { file: string; sha256: string; clauses_sha256: string };
  files: { scenarios: Record<string, string>; schemas: Record<string, string> };
  run: { started_at: string; finished_at: string; fail_on: string; certification: boolean };
  verdict: { overall: OverallVerdict; totals: Totals };
  /** Clauses judged / not judged by level, skips by reason; `partial` when a must clause was not judged (clause-coverage.ts). */
  coverage: ClauseCoverage;
  /** Per environment (Playwright project; an external target: its profile's environment): tests run and skipped, by reason. */
  skips: CertificateSkips[];
  clauses: {
    id: string; level: string; verdict: ClauseVerdict; scenarios: { id: string; verdict: ClauseVerdict }[];
    in_doubt_with?: { clauses: string[]; scenario: string; location?: string; evidence: string }[];
  }[];
  scenarios: {
    id: string; title: string; file: string; verdict: ScenarioVerdict; clauses: string[]; reason?: string; waived_by?: string[];
    /** From the outcome record: the error code and its kind, the clauses the failing check broke, the YAML line. */
    code?: string; kind?: string; failed_clauses?: string[]; location?: string;
  }[];
  waivers: { target: string; owner: string; expires: string; reason: string }[];
  problems: string[];
  evidence: { file: string; sha256: string; entries: number }[];
}

export interface CertificateSkips {
  environment: string;
  tests: number;
  skipped: number;
  not_applicable: number;
  reasons: { reason: string; count: number; not_applicable: boolean }[];
  /** Scenarios of the run with no test in this environment (in none of its counts), and why (test-tally.ts notRun). */
  not_run?: { count: number; reason: string; scenarios: string[] };
}

export interface Certificate extends CertificateBody {
  signature: { algorithm: 'Ed25519'; public_key: string; public_key_sha256: string; value: string };
}

export interface CertificateInput {
  target: CertificateTarget;
  summary: VerdictSummary;
  catalogue: ClauseCatalogue;
  startedAt: string;
  finishedAt: string;
  waivers: Waiver[];
  evidence: CertificateBody['evidence'];
  /** Folders hashed into `files` (defaults: specs/ and schemas/ of the repository). */
  scenarioDir?: string;
  schemaDir?: string;
}

export function buildCertificateBody(input: CertificateInput): CertificateBody {
  const { summary } = input;
  return {
    format: CERTIFICATE_FORMAT,
    target: { ...input.target, capabilities: [...input.target.capabilities].sort() },
    harness: harnessIdentity(),
    spec: { file: 'ftf-interface-spec.md', sha256: input.catalogue.specSha256, clauses_sha256: input.catalogue.clausesSha256 },
    files: {
      scenarios: hashTree(input.scenarioDir ?? join(REPO_ROOT, 'specs'), /\.(ya?ml|ts)$/),
      schemas: hashTree(input.schemaDir ?? join(REPO_ROOT, 'schemas'), /\.(json|ya?ml)$/),
    },
    run: { started_at: input.startedAt, finished_at: input.finishedAt, fail_on: summary.failOn, certification: true },
    implementation: summary.implementation ?? { source: 'none', observed: [] },
    verdict: { overall: summary.overall, totals: summary.totals },
    coverage: summary.coverage,
    skips: skipsOf(summary, input.target.environment),
    clauses: summary.clauses.map((c) => ({
      id: c.id, level: c.level, verdict: c.verdict, scenarios: c.scenarios,
      // In doubt: the clauses it is in doubt with, and the check that links them (scenario, YAML line, what it saw).
      ...(c.doubts ? { in_doubt_with: c.doubts.map((d) => ({ clauses: d.with, scenario: d.scenario, ...(d.location ? { location: d.location } : {}), evidence: (d.message ?? d.check).split('\n')[0]! })) } : {}),
    })),
    scenarios: summary.scenarios.map((s) => ({
      id: s.id,
      title: s.title,
      file: s.file,
      verdict: s.verdict,
      clauses: s.clauses,
      ...(s.reason ? { reason: s.reason.slice(0, 500) } : {}),
      ...(s.waivedBy ? { waived_by: s.waivedBy } : {}),
      ...(s.record.code ? { code: s.record.code, ...(s.record.kind ? { kind: s.record.kind } : {}) } : {}),
      ...(s.record.clauses.length > 0 ? { failed_clauses: s.record.clauses } : {}),
      ...(s.record.location ? { location: s.record.location } : {}),
    })),
    waivers: input.waivers.map((w) => ({ target: w.scenario ? `scenario:${w.scenario}` : `clause:${w.clause}`, owner: w.owner, expires: w.expires, reason: w.reason })),
    problems: summary.problems,
    evidence: input.evidence,
  };
}

/** From the run's test tally; a summary without one (built from scenarios only) counts its scenarios under the target's environment. */
function skipsOf(summary: VerdictSummary, environment: string): CertificateSkips[] {
  if (summary.tests) {
    return Object.entries(summary.tests.environments).map(([env, e]) => ({
      environment: env,
      tests: e.total,
      skipped: e.skipped,
      not_applicable: e['not-applicable'],
      reasons: e.skipReasons.map((r) => ({ reason: r.reason.slice(0, 500), count: r.count, not_applicable: r.notApplicable })),
      ...(e.notRun ? { not_run: { count: e.notRun.scenarios.length, reason: e.notRun.reason.slice(0, 500), scenarios: e.notRun.scenarios } } : {}),
    }));
  }
  const reasons = new Map<string, { reason: string; count: number; not_applicable: boolean }>();
  for (const s of summary.scenarios) {
    if (s.verdict !== 'skipped' && s.verdict !== 'not-applicable') continue;
    const reason = (s.reason ?? s.verdict).slice(0, 500);
    const key = `${s.verdict}\u0000${reason}`;
    const r = reasons.get(key) ?? { reason, count: 0, not_applicable: s.verdict === 'not-applicable' };
    r.count++;
    reasons.set(key, r);
  }
  const t = summary.totals;
  return [{ environment, tests: t.total, skipped: t.skipped, not_applicable: t['not-applicable'], reasons: [...reasons.values()].sort((a, b) => b.count - a.count) }];
}

export function signCertificate(body: CertificateBody, key: SigningKey): Certificate {
  const value = signPayload(canonicalJson(body), key.privateKey);
  return { ...body, signature: { algorithm: 'Ed25519', public_key: key.publicKeyPem, public_key_sha256: key.fingerprint, value } };
}

/** The exact bytes of certificate.json. */
export function serializeCertificate(cert: Certificate): string {
  return canonicalJson(cert, 2);
}

export interface VerifyResult {
  ok: boolean;
  problems: string[];
  fingerprint?: string;
  overall?: string;
}

/** Verifies the file bytes: canonical form, signature with the embedded (or pinned) key, evidence hashes. */
export function verifyCertificateText(text: string, options: { publicKeyPem?: string; evidenceDir?: string } = {}): VerifyResult {
  let cert: Certificate;
  try {
    cert = JSON.parse(text) as Certificate;
  } catch (e) {
    return { ok: false, problems: [`not valid JSON: ${(e as Error).message}`] };
  }
  const problems: string[] = [];
  const sig = cert?.signature;
  if (!sig || sig.algorithm !== 'Ed25519' || typeof sig.value !== 'string' || typeof sig.public_key !== 'string') {
    return { ok: false, problems: ['no Ed25519 signature block'] };
  }
  if (!CERTIFICATE_FORMATS.includes(String(cert.format))) problems.push(`unknown format '${String(cert.format)}'`);
  if (serializeCertificate(cert) !== text) problems.push('the file is not in canonical form: it was edited after signing');
  const { signature: _signature, ...body } = cert;
  const key = options.publicKeyPem ?? sig.public_key;
  if (!verifyPayload(canonicalJson(body), sig.value, key)) problems.push('the signature does not match the content');
  let fingerprint: string | undefined;
  try {
    fingerprint = publicKeyFingerprint(key);
    if (options.publicKeyPem && publicKeyFingerprint(sig.public_key) !== fingerprint) problems.push('signed with a different key than the one given');
  } catch {
    problems.push('the embedded public key is not a valid key');
  }
  if (options.evidenceDir) {
    for (const ev of cert.evidence ?? []) {
      const file = join(options.evidenceDir, ev.file);
      if (!existsSync(file)) problems.push(`evidence ${ev.file} is missing`);
      else if (sha256(readFileSync(file)) !== ev.sha256) problems.push(`evidence ${ev.file} does not match its hash`);
    }
  }
  return { ok: problems.length === 0, problems, ...(fingerprint ? { fingerprint } : {}), overall: cert.verdict?.overall };
}

/** sha256 of every matching file under dir, keyed by path relative to the repository root. */
export function hashTree(dir: string, match: RegExp): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    if (!existsSync(d)) return;
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (match.test(name)) out[relative(REPO_ROOT, p).split('\\').join('/')] = sha256(readFileSync(p));
    }
  };
  walk(dir);
  return out;
}
