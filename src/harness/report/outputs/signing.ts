/**
 * Ed25519 signing keys for certificates (node:crypto only). The private key comes from --key FILE or
 * FTF_SIGNING_KEY_FILE (PKCS#8 PEM); without one, a key pair is generated once under .ftf/keys/ (git-ignored)
 * and reused. Only the PUBLIC key is ever embedded in a certificate.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FtfError } from '../../../shared/errors.js';
import { REPO_ROOT } from '../../repo-root.js';

export interface SigningKey {
  privateKey: KeyObject;
  /** SPKI PEM of the public key. */
  publicKeyPem: string;
  /** sha256 of the DER public key, hex: what a verifier compares out of band. */
  fingerprint: string;
  /** Where the key came from (path), for the CLI message. */
  source: string;
  generated: boolean;
}

export const DEFAULT_KEY_DIR = resolve(REPO_ROOT, '.ftf/keys');

export function loadSigningKey(options: { keyFile?: string; keyDir?: string } = {}): SigningKey {
  const explicit = options.keyFile ?? process.env.FTF_SIGNING_KEY_FILE;
  if (explicit) return fromFile(resolve(explicit), false);
  const dir = options.keyDir ?? DEFAULT_KEY_DIR;
  const file = join(dir, 'certificate-ed25519.pem');
  if (existsSync(file)) return fromFile(file, false);
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  chmodSync(file, 0o600);
  writeFileSync(join(dir, 'certificate-ed25519.pub.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
  return { ...describeKey(privateKey, file), generated: true };
}

function fromFile(file: string, generated: boolean): SigningKey {
  let key: KeyObject;
  try {
    key = createPrivateKey(readFileSync(file));
  } catch (cause) {
    throw new FtfError('FTF_E_SIGNING_KEY', `cannot read an Ed25519 private key from ${file}`, {
      cause,
      hint: 'pass a PKCS#8 PEM file (openssl genpkey -algorithm ed25519 -out key.pem), or omit --key to generate one under .ftf/keys/',
    });
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new FtfError('FTF_E_SIGNING_KEY', `${file} holds a ${key.asymmetricKeyType} key; certificates are signed with Ed25519`);
  }
  return { ...describeKey(key, file), generated };
}

function describeKey(privateKey: KeyObject, source: string): Omit<SigningKey, 'generated'> {
  const pub = createPublicKey(privateKey);
  return { privateKey, publicKeyPem: String(pub.export({ type: 'spki', format: 'pem' })), fingerprint: publicKeyFingerprint(pub), source };
}

export function publicKeyFingerprint(key: KeyObject | string): string {
  const pub = typeof key === 'string' ? createPublicKey(key) : key;
  return createHash('sha256').update(pub.export({ type: 'spki', format: 'der' })).digest('hex');
}

export function signPayload(payload: string, key: KeyObject): string {
  return sign(null, Buffer.from(payload, 'utf8'), key).toString('base64');
}

export function verifyPayload(payload: string, signatureB64: string, publicKeyPem: string): boolean {
  try {
    return verify(null, Buffer.from(payload, 'utf8'), createPublicKey(publicKeyPem), Buffer.from(signatureB64, 'base64'));
  } catch {
    return false;
  }
}
