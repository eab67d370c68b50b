/**
 * Writes reports/certificate/: certificate.json (signed), certificate.md, certificate.html and the merged
 * redacted HAR as evidence. Before returning it scans every written file for the run's secret values
 * (defence in depth behind the recorder's redaction): a hit deletes nothing but fails loudly.
 */
import { assertNoLeaks } from '../redaction/leak-scan.js';
import { DigestSet } from '../redaction/secret-digests.js';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCertificateBody, serializeCertificate, signCertificate, type Certificate, type CertificateInput } from './certificate.js';
import { certificateHtml, certificateMarkdown } from './certificate-render.js';
import { sha256 } from '../../spec/clauses.js';
import { expandHarPaths, mergeHar } from './har.js';
import type { SigningKey } from './signing.js';

export interface BundleOptions extends Omit<CertificateInput, 'evidence'> {
  outDir: string;
  key: SigningKey;
  /** HAR files / folders / globs written by the recorder. */
  har: string[];
  /** Secret values of the run (client secrets, API keys...): none may appear in the bundle. */
  secrets?: string[];
}

export const EVIDENCE_FILE = 'evidence/run.har';

export function writeCertificateBundle(options: BundleOptions): { certificate: Certificate; files: string[] } {
  rmSync(options.outDir, { recursive: true, force: true });
  mkdirSync(join(options.outDir, 'evidence'), { recursive: true });
  const harFiles = expandHarPaths(options.har);
  const evidence: CertificateInput['evidence'] = [];
  if (harFiles.length > 0) {
    const { har, entries } = mergeHar(harFiles, { name: 'ftf-conformance', version: 'run' });
    const text = JSON.stringify(har, null, 2);
    writeFileSync(join(options.outDir, EVIDENCE_FILE), text);
    evidence.push({ file: EVIDENCE_FILE, sha256: sha256(text), entries });
  }
  const certificate = signCertificate(buildCertificateBody({ ...options, evidence }), options.key);
  writeFileSync(join(options.outDir, 'certificate.json'), serializeCertificate(certificate));
  writeFileSync(join(options.outDir, 'certificate.md'), certificateMarkdown(certificate));
  writeFileSync(join(options.outDir, 'certificate.html'), certificateHtml(certificate));
  const files = listFiles(options.outDir);
  assertNoSecrets(files, options.secrets ?? []);
  return { certificate, files };
}

export function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name))
    .sort();
}

/** Throws FTF_E_SECRET_LEAK naming the file (never the secret): the same scanner as after every run (leak-scan.ts). */
export function assertNoSecrets(files: string[], secrets: string[]): void {
  const digests = new DigestSet();
  digests.addValues(secrets);
  assertNoLeaks(files, { digests });
}
