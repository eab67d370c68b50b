/**
 * Loads fixtures/reference-data/*.yaml into ReferenceData. Deterministic for a seed: uids of bank accounts,
 * holdings, subscriptions and extensions come from a seeded sequence in file order. Secrets are not here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { FtfError } from '../../shared/errors.js';
import { buildHolding } from '../domain/holdings.js';
import { buildHistory, type RawHistoryEntry } from './history.js';
import { idSequence } from './prng.js';
import type {
  Cell, EntityRecord, Extension, Holiday, HoldingStatus, IdentityData, IndicationSpec, ReferenceData, SeededHolding,
} from './types.js';

export const DEFAULT_DATA_DIR = fileURLToPath(new URL('../../../fixtures/reference-data', import.meta.url));

function readYaml(dir: string, name: string): Record<string, unknown> {
  const file = join(dir, name);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    throw new FtfError('FTF_E_REFERENCE_DATA', `cannot read reference data file ${file}`, {
      cause, location: { file }, hint: 'pass dataDir pointing at a folder like fixtures/reference-data',
    });
  }
  const doc = parsedOnce(file, text);
  if (doc === null || typeof doc !== 'object') throw dataError(file, 'top level must be a mapping');
  return doc as Record<string, unknown>;
}

const parsed = new Map<string, { text: string; doc: unknown }>();

/**
 * The YAML of `file`, parsed once per process for the same text: a process may start several servers (`selftest`'s
 * clean pass, the bench, tests). Each caller gets its own copy, so no server's data is another's.
 */
function parsedOnce(file: string, text: string): unknown {
  let entry = parsed.get(file);
  if (entry?.text !== text) {
    entry = { text, doc: parse(text) };
    parsed.set(file, entry);
  }
  return structuredClone(entry.doc);
}

function dataError(file: string, message: string, field?: string): FtfError {
  return new FtfError('FTF_E_REFERENCE_DATA', `invalid reference data: ${message}`, {
    location: field ? { file, field } : { file }, hint: 'fix the YAML file; see docs/reference-server.md',
  });
}

function list<T>(dir: string, file: string, key: string): T[] {
  const value = readYaml(dir, file)[key];
  if (!Array.isArray(value)) throw dataError(join(dir, file), `"${key}" must be a list`, key);
  return value as T[];
}

interface RawHolding {
  key: string;
  entity: string;
  indication: string;
  cost: string;
  issueDate: string;
  status: HoldingStatus;
  extensions?: Array<Omit<Extension, 'uid' | 'finalYield'> & { finalYield?: number }>;
}

export function loadReferenceData(dataDir: string, seed: number): ReferenceData {
  const idDoc = readYaml(dataDir, 'identities.yaml') as unknown as IdentityData;
  for (const key of ['users', 'clients', 'apiKeyUsers'] as const) {
    if (!Array.isArray(idDoc[key])) throw dataError(join(dataDir, 'identities.yaml'), `"${key}" must be a list`, key);
  }
  const nextId = idSequence(seed, 'reference-data');

  const rawEntities = list<Omit<EntityRecord, 'bankAccounts'> & { bankAccounts: Array<{ currency: string; lastDigits: string }> }>(dataDir, 'entities.yaml', 'entities');
  const entities: EntityRecord[] = rawEntities.map((e) => ({
    code: e.code, name: e.name, status: e.status, type: e.type, onboarding: e.onboarding, currency: e.currency,
    bankAccounts: e.bankAccounts.map((b) => ({ uid: nextId(), currency: b.currency, lastDigits: String(b.lastDigits) })),
    accountManager: e.accountManager ?? null, address: e.address ?? null, countryCode: e.countryCode ?? null,
    users: e.users ?? [],
  }));
  const cells = list<Cell>(dataDir, 'cells.yaml', 'cells');
  const holidays = list<Holiday>(dataDir, 'holidays.yaml', 'holidays').map((h) => ({ ...h, date: String(h.date) }));
  const indications = list<IndicationSpec>(dataDir, 'indications.yaml', 'indications');

  const indByCode = new Map(indications.map((i) => [i.code, i]));
  const entityCodes = new Set(entities.map((e) => e.code));
  const holdingsFile = join(dataDir, 'holdings.yaml');
  const holdings: SeededHolding[] = list<RawHolding>(dataDir, 'holdings.yaml', 'holdings').map((h, i) => {
    const ind = indByCode.get(h.indication);
    if (!ind) throw dataError(holdingsFile, `unknown indication ${h.indication}`, `holdings[${i}].indication`);
    if (!entityCodes.has(h.entity)) throw dataError(holdingsFile, `unknown entity ${h.entity}`, `holdings[${i}].entity`);
    const uid = nextId();
    const subscriptionUid = nextId();
    const extensions: Extension[] = (h.extensions ?? []).map((x) => ({
      uid: nextId(), date: String(x.date), maturity: String(x.maturity), yield: x.yield,
      pricePerShare: x.pricePerShare, finalYield: x.finalYield ?? null,
    }));
    const holding = buildHolding(ind, {
      uid, entityCode: h.entity, cost: String(h.cost), issueDate: String(h.issueDate), status: h.status, subscriptionUid, extensions,
    });
    return { key: h.key, holding, extensions };
  });

  const byKey = new Map(holdings.map((h) => [h.key, h]));
  let history;
  try {
    history = buildHistory(list<RawHistoryEntry>(dataDir, 'history.yaml', 'history'), {
      byKey, termOf: (code) => indByCode.get(code)?.termMonths ?? 0,
    });
  } catch (err) {
    throw err instanceof FtfError ? err : dataError(join(dataDir, 'history.yaml'), (err as Error).message);
  }
  for (const e of history) {
    if (!entityCodes.has(e.entityCode)) throw dataError(join(dataDir, 'history.yaml'), `unknown entity ${e.entityCode}`);
  }

  return {
    seed,
    users: idDoc.users,
    clients: idDoc.clients,
    apiKeyUsers: idDoc.apiKeyUsers,
    entities, cells, holidays, indications, holdings, history,
  };
}
