/**
 * The signed client certificate (issue 27): what a client showed on a plan, per CL-* clause, signed with the
 * same Ed25519 machinery and canonical JSON as the server certificate (report/outputs/signing.ts, canonical-json.ts),
 * and checked by the same `ftf-conformance verify` (report/outputs/certificate.ts verifyCertificateText knows the
 * format). Evidence: the HAR of the exchanges, hashed into the signed body.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { canonicalJson } from '../report/outputs/canonical-json.js';
import { assertNoSecrets, listFiles } from '../report/outputs/certificate-bundle.js';
import { harnessIdentity, type HarnessIdentity } from '../report/outputs/harness-identity.js';
import { signPayload, type SigningKey } from '../report/outputs/signing.js';
import { sha256 } from '../spec/clauses.js';
import { clientClausesFile } from './clauses.js';
import type { ClientPlan, ClientVerdicts } from './types.js';

export const CLIENT_CERTIFICATE_FORMAT = 'ftf-client-certificate/1';

export interface ClientCertificateBody {
  format: typeof CLIENT_CERTIFICATE_FORMAT;
  /** The client under test as its integrator named it (`--client-name`), and the command that ran it. */
  client: { name: string; command: string };
  plan: { name: string; file: string; sha256: string };
  harness: HarnessIdentity;
  spec: { file: string; sha256: string };
  run: { started_at: string; finished_at: string };
  verdict: { overall: ClientVerdicts['overall']; counts: ClientVerdicts['counts']; exchanges: number };
  clauses: Array<{ id: string; level: string; verdict: string; note: string; breaches: string[] }>;
  evidence: Array<{ file: string; sha256: string; entries: number }>;
}

export interface ClientCertificate extends ClientCertificateBody {
  signature: { algorithm: 'Ed25519'; public_key: string; public_key_sha256: string; value: string };
}

export interface ClientCertificateOptions {
  outDir: string;
  key: SigningKey;
  plan: ClientPlan;
  verdicts: ClientVerdicts;
  client: { name: string; command: string };
  startedAt: string;
  finishedAt: string;
  /** The HAR of the run (reports.ts). */
  har: string;
  /** Every secret of the plan: none may appear in the bundle. */
  secrets: string[];
}

function markdown(c: ClientCertificate): string {
  const rows = c.clauses.map((x) => `| ${x.id} | ${x.level} | ${x.verdict} | ${(x.breaches[0] ?? x.note).replace(/\|/g, '\\|')} |`);
  return [
    `# Client conformance certificate: ${c.client.name}`,
    '',
    `Plan **${c.plan.name}** (sha256 ${c.plan.sha256.slice(0, 16)}...), ${c.run.started_at} to ${c.run.finished_at}: **${c.verdict.overall}**`,
    `(${c.verdict.counts.passed} passed, ${c.verdict.counts.failed} failed, ${c.verdict.counts.warned} warned, ${c.verdict.counts['not-judged']} not judged; ${c.verdict.exchanges} exchanges).`,
    '',
    '| clause | level | verdict | note |',
    '|---|---|---|---|',
    ...rows,
    '',
    `Signed with Ed25519 key sha256 ${c.signature.public_key_sha256}. Check: \`ftf-conformance verify certificate.json\`.`,
    '',
  ].join('\n');
}

export function writeClientCertificate(o: ClientCertificateOptions): { certificate: ClientCertificate; files: string[] } {
  rmSync(o.outDir, { recursive: true, force: true });
  mkdirSync(join(o.outDir, 'evidence'), { recursive: true });
  const evidenceFile = `evidence/${basename(o.har)}`;
  copyFileSync(o.har, join(o.outDir, evidenceFile));
  const harText = readFileSync(join(o.outDir, evidenceFile));
  const clausesFile = clientClausesFile();
  const body: ClientCertificateBody = {
    format: CLIENT_CERTIFICATE_FORMAT,
    client: o.client,
    plan: { name: o.plan.name, file: basename(o.plan.file), sha256: sha256(readFileSync(o.plan.file)) },
    harness: harnessIdentity(),
    spec: { file: basename(clausesFile), sha256: sha256(readFileSync(clausesFile)) },
    run: { started_at: o.startedAt, finished_at: o.finishedAt },
    verdict: { overall: o.verdicts.overall, counts: o.verdicts.counts, exchanges: o.verdicts.exchanges },
    clauses: o.verdicts.clauses.map((c) => ({ id: c.clause, level: c.level, verdict: c.status, note: c.note, breaches: c.breaches.map((b) => b.message) })),
    evidence: [{ file: evidenceFile, sha256: sha256(harText), entries: o.verdicts.exchanges }],
  };
  const certificate: ClientCertificate = {
    ...body,
    signature: { algorithm: 'Ed25519', public_key: o.key.publicKeyPem, public_key_sha256: o.key.fingerprint, value: signPayload(canonicalJson(body), o.key.privateKey) },
  };
  writeFileSync(join(o.outDir, 'certificate.json'), canonicalJson(certificate, 2));
  writeFileSync(join(o.outDir, 'certificate.md'), markdown(certificate));
  const files = listFiles(o.outDir);
  if (o.secrets.length) assertNoSecrets(files, o.secrets);
  return { certificate, files };
}
