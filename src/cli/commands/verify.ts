/** `verify FILE`: checks a certificate's canonical form, Ed25519 signature and evidence hashes. Exit 0 valid, 1 not. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { verifyCertificateText } from '../../harness/report/outputs/certificate.js';
import { parse, UsageError } from '../args.js';
import type { Command } from './types.js';

export const verifyCommand: Command = {
  summary: 'verify a certificate.json (signature, canonical form, evidence hashes); exit 0 valid, 1 invalid',
  help: {
    description: 'Checks that the file is the canonical serialisation, the Ed25519 signature, the evidence files next to it against their hashes and, with --public-key, the signer. '
      + 'Exit 0 valid, 1 invalid, 2 for a missing file.',
    flags: [
      { flag: 'FILE', positional: true, text: 'the certificate.json' },
      { flag: '--public-key', value: 'PEM_FILE', text: 'also require this signer\'s public key' },
    ],
    env: [],
    examples: [{ text: 'check a bundle and its signer', command: 'ftf-conformance verify reports/certificate/certificate.json --public-key vendor.pub.pem' }],
  },
  async run(argv) {
    const { values: v, positionals } = parse('verify', argv, { 'public-key': { type: 'string' } }, true);
    const file = positionals[0];
    if (!file || positionals.length > 1) throw new UsageError('verify', 'give exactly one certificate.json');
    if (!existsSync(file)) throw new UsageError('verify', `no such file: ${file}`);
    if (v['public-key'] !== undefined && !existsSync(v['public-key'])) throw new UsageError('verify', `--public-key file not found: ${v['public-key']}`);
    const result = verifyCertificateText(readFileSync(file, 'utf8'), {
      evidenceDir: dirname(file),
      ...(v['public-key'] ? { publicKeyPem: readFileSync(v['public-key'], 'utf8') } : {}),
    });
    if (result.ok) {
      console.log(`${file}: valid. Verdict ${result.overall}; signed by Ed25519 key sha256 ${result.fingerprint}${v['public-key'] ? ' (the key given)' : ' (compare with the issuer\'s published fingerprint)'}`);
      return 0;
    }
    console.error(`${file}: INVALID\n${result.problems.map((p) => `  - ${p}`).join('\n')}`);
    return 1;
  },
};
