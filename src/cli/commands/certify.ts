/**
 * `certify`: a full run in certification mode (no filters, waivers of must-clauses ignored) that writes the
 * signed certificate bundle to reports/certificate/. Exit codes as for `run`.
 */
import { join } from 'node:path';
import { writeCertificateBundle } from '../../harness/report/outputs/certificate-bundle.js';
import { reportPaths } from '../../harness/report/reports-folder/paths.js';
import { loadSigningKey } from '../../harness/report/outputs/signing.js';
import { oneOf, parse, workersFlag } from '../args.js';
import { runSuite, SUITE_ENV, SUITE_FLAGS, TARGET_FLAG } from './run.js';
import type { Command } from './types.js';

export const certifyCommand: Command = {
  summary: 'full run in certification mode; writes the signed certificate bundle (reports/certificate/)',
  help: {
    description: 'A full run (no --grep/--tag/--shard) in certification mode: waivers touching a must clause are ignored. '
      + 'Writes reports/certificate/ (certificate.json signed with Ed25519, certificate.md, certificate.html, evidence/run.har) and scans every file of it for the run\'s secrets. '
      + 'The signing key is loaded before the run. Exit codes as for run.',
    flags: [
      TARGET_FLAG,
      { flag: '--key', value: 'FILE', text: 'Ed25519 private key, PKCS#8 PEM', default: 'a key pair generated once in .ftf/keys/', env: 'FTF_SIGNING_KEY_FILE' },
      { flag: '--har', value: 'GLOB', text: 'HAR files attached as evidence', default: 'reports/har', repeatable: true },
      SUITE_FLAGS.waivers,
      SUITE_FLAGS.failOn,
      SUITE_FLAGS.allowMutations,
      SUITE_FLAGS.evaluateOnly,
      SUITE_FLAGS.noReport,
      SUITE_FLAGS.workers,
    ],
    env: [...SUITE_ENV, 'FTF_SIGNING_KEY_FILE'],
    examples: [
      { text: 'certify a vendor sandbox with your own key', command: 'ftf-conformance certify --target my-sandbox.yaml --key key.pem' },
      { text: 'then check the bundle', command: 'ftf-conformance verify reports/certificate/certificate.json' },
    ],
  },
  async run(argv) {
    const { values: v } = parse('certify', argv, {
      target: { type: 'string' },
      key: { type: 'string' },
      har: { type: 'string', multiple: true },
      waivers: { type: 'string' },
      'fail-on': { type: 'string' },
      'allow-mutations': { type: 'boolean' },
      'evaluate-only': { type: 'boolean' },
      'no-report': { type: 'boolean' },
      workers: { type: 'string' },
    });
    const workers = workersFlag('certify', v.workers);
    // Load the key before a long run: a bad --key must fail in seconds.
    const key = loadSigningKey(v.key ? { keyFile: v.key } : {});
    const suite = await runSuite('certify', {
      ...(v.target ? { target: v.target } : {}),
      selection: {},
      failOn: oneOf('certify', 'fail-on', v['fail-on'], ['must', 'should'] as const, 'must'),
      ...(v.waivers ? { waivers: v.waivers } : {}),
      allowMutations: v['allow-mutations'] ?? false,
      certification: true,
      evaluateOnly: v['evaluate-only'] ?? false,
      report: !(v['no-report'] ?? false),
      ...(workers ? { workers } : {}),
    });
    try {
      const paths = reportPaths();
      const t = suite.open.target;
      const { certificate } = writeCertificateBundle({
        outDir: paths.certificate,
        key,
        har: v.har ?? [paths.har],
        secrets: suite.open.secrets,
        target: {
          name: t.name,
          // The embedded reference runs one server per Playwright worker: its ports say nothing.
          base_url: suite.open.embedded ? 'embedded reference server' : t.baseUrl,
          auth_url: suite.open.embedded ? 'embedded reference server' : t.authUrl,
          environment: t.environment,
          capabilities: [...t.capabilities],
        },
        summary: suite.evaluation.summary,
        catalogue: suite.evaluation.catalogue,
        startedAt: suite.startedAt,
        finishedAt: suite.finishedAt,
        waivers: suite.evaluation.waiversApplied,
      });
      console.log(`certificate: ${join(paths.certificate, 'certificate.json')} (${certificate.verdict.overall}), signed with Ed25519 key sha256 ${key.fingerprint}${key.generated ? ` (new key generated in ${key.source})` : ''}`);
      if (certificate.evidence.length === 0) console.log(`certify: no HAR files found under ${(v.har ?? [paths.har]).join(', ')}; the certificate has no evidence attached`);
      return suite.exitCode;
    } finally {
      await suite.open.close();
    }
  },
};
