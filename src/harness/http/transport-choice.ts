/**
 * Which transport the Playwright fixtures send through (FTF_TRANSPORT): `undici` (default: the undici
 * transport inside the fixture: no Playwright API call, so no captured stack and no protocol round trip per
 * request; docs/performance.md) or `playwright` (Playwright's `request` fixture, an APIRequestContext).
 * Either one is wrapped by the same write guard, recorder and redaction (specs/fixtures.ts).
 */
import { FtfError } from '../../shared/errors.js';

export const TRANSPORT_KINDS = ['playwright', 'undici'] as const;
export type TransportKind = (typeof TRANSPORT_KINDS)[number];

/** FTF_TRANSPORT, or `undici` when unset; anything else is a usage error. */
export function transportKind(env: NodeJS.ProcessEnv = process.env): TransportKind {
  const raw = env.FTF_TRANSPORT?.trim();
  if (!raw) return 'undici';
  const kind = TRANSPORT_KINDS.find((k) => k === raw);
  if (kind) return kind;
  throw new FtfError('FTF_E_USAGE', `FTF_TRANSPORT must be one of ${TRANSPORT_KINDS.join(', ')} (got ${JSON.stringify(raw)})`, {
    hint: "unset it for the default (the undici transport inside the fixture), or set FTF_TRANSPORT=playwright for Playwright's request fixture",
  });
}
