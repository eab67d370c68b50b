/**
 * The version of the implementation under test, from the profile's `implementation` block
 * (docs/target-profiles.md): `version` as the profile states it, or the values of the response header
 * `version_header` names, seen in the run's (already redacted) exchanges. Each test's outcome record keeps
 * the values its exchanges carried (`implementationVersions`); the run's version is made from those records
 * and shown by the console summary, verdicts.json, the certificate and the Allure environment.
 */
import type { Exchange, ExchangeSink } from '../../http/types.js';
import type { ResolvedTarget } from '../../target/types.js';
import type { OutcomeRecord } from './outcome.js';

/** A header value longer than this is cut (a hostile target must not fill the reports through it). */
const MAX_VERSION_CHARS = 100;

export interface ImplementationVersion {
  /** What the reports show: the observed header value(s), else the profile's version, else undefined. */
  version?: string;
  source: 'header' | 'profile' | 'none';
  /** The profile's `version_header` (lower-cased), when it names one. */
  header?: string;
  /** Distinct header values seen in the run, in order of first sight (several: the target changed mid-run). */
  observed: string[];
  /** The profile's `version`, when it states one. */
  declared?: string;
}

/** One header value as reports keep it: control characters dropped, trimmed, at most MAX_VERSION_CHARS. */
export function cleanVersion(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, MAX_VERSION_CHARS);
}

/** The header's value in one exchange's response (names are lower-cased by the transports). */
export function versionInExchange(exchange: Exchange, header: string): string | undefined {
  const raw = exchange.response?.headers[header.toLowerCase()];
  if (raw === undefined) return undefined;
  const v = cleanVersion(raw);
  return v === '' ? undefined : v;
}

/** A recorder sink collecting the distinct values of `header` into `into` (the test's evidence). */
export function versionSink(header: string, into: { implementationVersions?: string[] }): ExchangeSink {
  return {
    onExchange(exchange) {
      const v = versionInExchange(exchange, header);
      if (v === undefined) return;
      const seen = (into.implementationVersions ??= []);
      if (!seen.includes(v)) seen.push(v);
    },
  };
}

/** The run's implementation version from the profile and the tests' records. */
export function implementationVersion(profile: ResolvedTarget['implementation'], records: readonly Pick<OutcomeRecord, 'implementationVersions'>[]): ImplementationVersion {
  const observed = [...new Set(records.flatMap((r) => r.implementationVersions ?? []))];
  const base = {
    observed,
    ...(profile?.versionHeader ? { header: profile.versionHeader } : {}),
    ...(profile?.version ? { declared: profile.version } : {}),
  };
  if (profile?.versionHeader && observed.length > 0) return { ...base, version: observed.join(', '), source: 'header' };
  if (profile?.version) return { ...base, version: profile.version, source: 'profile' };
  return { ...base, source: 'none' };
}

/** One line for the console and the certificate. */
export function describeImplementation(i: ImplementationVersion): string {
  if (i.source === 'header') {
    const differs = i.declared && i.declared !== i.version ? ` (the profile states ${i.declared})` : '';
    return `${i.version} (response header ${i.header}${i.observed.length > 1 ? ': several values, the target changed during the run' : ''})${differs}`;
  }
  if (i.source === 'profile') return `${i.version} (stated by the profile${i.header ? `; header ${i.header} was not seen in any response` : ''})`;
  return i.header ? `not known (header ${i.header} was not seen in any response)` : 'not stated (profile field implementation)';
}
