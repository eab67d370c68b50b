/**
 * `init`: writes a commented target profile for a new target. Takes flags, or asks for what is missing
 * when stdin is a terminal. Never overwrites a file; the written profile is validated against the schema.
 * `--discover` (with the secret in its environment variable) asks the target for the caller's entities and
 * picks an indication per role (src/cli/discover.ts), so the scenarios needing them run instead of skipping.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { FtfError } from '../../shared/errors.js';
import { modeline } from '../../harness/yaml/modeline.js';
import { REPO_ROOT } from '../../harness/repo-root.js';
import { parseYaml } from '../../harness/yaml/source.js';
import { validateProfile } from '../../harness/target/validate.js';
import { resolveTarget } from '../../harness/target/resolve.js';
import type { Profile } from '../../harness/target/profile.js';
import { discover, type Discovered } from '../discover.js';
import { parse, UsageError } from '../args.js';
import type { Command } from './types.js';

interface Answers {
  name: string;
  baseUrl: string;
  authUrl: string;
  environment: string;
  clientId: string;
  secretEnv: string;
  out: string;
}

const QUESTIONS: { key: keyof Answers; flag: string; ask: string; fallback?: (a: Partial<Answers>) => string }[] = [
  { key: 'baseUrl', flag: 'base-url', ask: 'API base URL (ends in /api/v1)' },
  { key: 'authUrl', flag: 'auth-url', ask: 'auth URL (environment root; the token endpoint is {auth_url}/oauth/token)', fallback: (a) => a.baseUrl?.replace(/\/api\/v1\/?$/, '') ?? '' },
  { key: 'environment', flag: 'environment', ask: 'environment (sandbox|production)', fallback: () => 'sandbox' },
  { key: 'clientId', flag: 'client-id', ask: 'client_credentials client_id of the primary user' },
  { key: 'secretEnv', flag: 'secret-env', ask: 'NAME of the environment variable holding its client secret', fallback: () => 'FTF_PRIMARY_CLIENT_SECRET' },
  { key: 'name', flag: 'name', ask: 'a name for this target', fallback: (a) => (a.baseUrl ? new URL(a.baseUrl).host : 'my target') },
];

export const initCommand: Command = {
  summary: 'write a commented target profile for a new target (flags or interactive)',
  help: {
    description: 'Writes a commented target profile (first line: the yaml-language-server schema modeline) with the primary client_credentials credential and commented-out sections for the rest, checked against schemas/target.schema.json before it is written. '
      + 'Missing values are asked for when stdin is a terminal; otherwise a missing required flag exits 2 naming it. Never overwrites a file (exit 2).',
    flags: [
      { flag: '--base-url', value: 'URL', text: 'API base URL, ends in /api/v1 (required without a terminal)' },
      { flag: '--auth-url', value: 'URL', text: 'environment root; the token endpoint is {auth_url}/oauth/token', default: 'base URL without /api/v1' },
      { flag: '--environment', value: 'sandbox|production', text: 'the kind of target', default: 'sandbox' },
      { flag: '--client-id', value: 'ID', text: 'client_credentials client id of the primary user (required without a terminal)' },
      { flag: '--secret-env', value: 'VAR', text: 'NAME of the environment variable holding its client secret', default: 'FTF_PRIMARY_CLIENT_SECRET' },
      { flag: '--name', value: 'NAME', text: 'a name for the target', default: 'the base URL\'s host' },
      { flag: '--out', value: 'FILE', text: 'where to write the profile', default: 'target.yaml' },
      { flag: '--discover', text: 'ask the target (secret in --secret-env) for the caller\'s entities and one indication per role' },
    ],
    env: [],
    examples: [
      { text: 'a sandbox profile without questions', command: 'ftf-conformance init --base-url https://sandbox.example.com/api/v1 --client-id my-client --out targets/sandbox.yaml' },
      { text: 'fill entities and indication roles from the target', command: 'FTF_PRIMARY_CLIENT_SECRET=... ftf-conformance init --base-url https://sandbox.example.com/api/v1 --client-id my-client --discover' },
    ],
    runnableExamples: true,
  },
  async run(argv) {
    const { values: v } = parse('init', argv, {
      'base-url': { type: 'string' }, 'auth-url': { type: 'string' }, environment: { type: 'string' },
      'client-id': { type: 'string' }, 'secret-env': { type: 'string' }, name: { type: 'string' }, out: { type: 'string' },
      discover: { type: 'boolean' },
    });
    const flags = v as Record<string, string | undefined>;
    const answers: Partial<Answers> = {};
    const tty = Boolean(process.stdin.isTTY);
    let discoverAsked = false;
    const rl = tty ? createInterface({ input: process.stdin, output: process.stdout }) : undefined;
    try {
      for (const q of QUESTIONS) {
        const given = flags[q.flag];
        const fallback = q.fallback?.(answers);
        if (given !== undefined) answers[q.key] = given;
        else if (rl) answers[q.key] = (await rl.question(`${q.ask}${fallback ? ` [${fallback}]` : ''}: `)).trim() || fallback || '';
        else if (fallback !== undefined) answers[q.key] = fallback;
        else throw new UsageError('init', `--${q.flag} is required when stdin is not a terminal (${q.ask})`);
      }
      // A new user rarely knows which products fit which role: offer to ask the target.
      if (rl && v.discover === undefined) {
        const secretSet = Boolean(process.env[answers.secretEnv ?? '']);
        if (secretSet) discoverAsked = /^y/i.test((await rl.question('list your entities and pick indication roles from the target now? [Y/n]: ')).trim() || 'y');
        else console.log(`(set ${answers.secretEnv} and pass --discover to fill entities and indication roles from the target)`);
      }
    } finally {
      rl?.close();
    }
    const out = resolve(flags.out ?? 'target.yaml');
    if (existsSync(out)) {
      throw new FtfError('FTF_E_INIT_EXISTS', `${out} already exists; init never overwrites a profile`, { hint: 'choose another --out FILE or delete the old one first' });
    }
    let text = checked(profileTemplate(answers as Answers, undefined, out), out);
    if (v.discover || discoverAsked) {
      const source = parseYaml(text, out);
      const found = await discover(resolveTarget({ file: out, raw: source.value as Profile['raw'], source }, { env: process.env }));
      text = checked(profileTemplate(answers as Answers, found, out), out);
      console.log(`discovered ${found.entities.length} entit${found.entities.length === 1 ? 'y' : 'ies'}; indication roles: ${Object.entries(found.indications).map(([r, c]) => `${r}=${c}`).join(', ') || 'none'}`);
      for (const [key, p] of Object.entries(found.paging ?? {})) console.log(`proposed paging.${key}: ${JSON.stringify(p.paging)} (${p.why})`);
    }
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, text, { flag: 'wx' });
    console.log(`wrote ${out}\nnext: export ${answers.secretEnv}=...   then   npx ftf-conformance doctor --target ${out}`);
    return 0;
  },
};

function checked(text: string, out: string): string {
  const source = parseYaml(text, out);
  const issues = validateProfile(source.value, source);
  if (issues.length) {
    const first = issues[0]!;
    throw new FtfError('FTF_E_INIT_INVALID', `the answers do not make a valid profile: ${first.field}: ${first.message}`, { location: { field: first.field }, ...(first.hint ? { hint: first.hint } : {}) });
  }
  return text;
}

const yamlString = (s: string): string => JSON.stringify(s);

function entitiesBlock(found: Discovered | undefined): string {
  if (!found?.entities.length) return `# entities:
#   allowed: [ENT-1]
#   forbidden: ENT-OTHER`;
  return `entities:
  allowed: [${found.entities.map(yamlString).join(', ')}]   # discovered: GET /entity with the primary credential
  # forbidden: ENT-OTHER   # an entity that exists but is not on the primary credential's list`;
}

/** Proposed paging of the lists discovery read (paging.<list>, docs/target-profiles.md#paged-lists): to confirm. */
function pagingBlock(found: Discovered | undefined): string {
  const proposals = Object.entries(found?.paging ?? {});
  if (proposals.length === 0) return '';
  const lines = proposals.flatMap(([key, p]) => [`  # proposed from ${p.why}; the other lists (subscriptions, holdings, ...) are probably paged the same way`, `  ${key}: ${JSON.stringify(p.paging)}`]);
  const fields = proposals.filter(([, p]) => p.pointer !== '').map(([key, p]) => `  ${key}_list: ${yamlString(p.pointer)}`);
  return `# How lists are paged (the spec does not show it): every list read walks every page.\npaging:\n${lines.join('\n')}\n${fields.length ? `fields:\n${fields.join('\n')}\n` : ''}\n`;
}

function indicationsBlock(found: Discovered | undefined): string {
  const roles = Object.entries(found?.indications ?? {});
  if (!roles.length) return `# indications:
#   primary: FTF-CODE`;
  return `# discovered from GET /indication; enforced_maximum / unenforced_maximum need the product's enforceMaximum
# setting, whose field name the spec does not show: declare them by hand.
indications:
${roles.map(([r, c]) => `  ${r}: ${yamlString(c)}`).join('\n')}`;
}

/** A page of the harness's docs (shipped in the package too: dist/docs), relative to the profile's folder like the modeline. */
function docsLink(out: string, page: string): string {
  const rel = relative(dirname(out), join(REPO_ROOT, 'docs', page)).split(sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** The profile text; its first line is the schema modeline for an editor, relative to `out` (default: the working folder). */
export function profileTemplate(a: Answers, found?: Discovered, out = resolve('target.yaml')): string {
  return `${modeline(out, 'target')}
# ftf-conformance target profile, written by \`ftf-conformance init\`.
# Field reference: ${docsLink(out, 'target-profiles.md')}. Secrets are NEVER written here: the profile only names the
# environment variables that hold them (*_env fields).
name: ${yamlString(a.name)}

# API base, ends in /api/v1 (spec, Versioning). The token endpoint is {auth_url}/oauth/token, at the root.
base_url: ${yamlString(a.baseUrl)}
auth_url: ${yamlString(a.authUrl)}
# control_url: https://sandbox.example.com/_sandbox   # sandbox control API (clock, funding), if the target has one

# sandbox | production. Production refuses API keys; mutations there need allow_mutations AND --allow-mutations.
environment: ${a.environment}
allow_mutations: false

# What the target lets the harness do: mutation (create subscriptions/checkpoints/webhooks), clock (advance
# time), funding (simulate late funding), consent (complete the code-authorisation consent step).
# Scenarios needing a capability the profile lacks are reported as skipped, with the reason.
capabilities: []

credentials:
  primary:
    kind: client_credentials
    client_id: ${yamlString(a.clientId)}
    client_secret_env: ${a.secretEnv}
  # second:      # a second user: checkpoint scoping (EP-CHECKPOINT-SCOPE)
  #   kind: client_credentials
  #   client_id: other-client
  #   client_secret_env: FTF_SECOND_CLIENT_SECRET
  # readonly:    # a read-only client: 403 "Endpoint not enabled for this API user." (AUTH-ENDPOINT-403)
  #   kind: client_credentials
  #   client_id: readonly-client
  #   client_secret_env: FTF_READONLY_CLIENT_SECRET
  # api_key:     # sandbox only
  #   kind: api_key
  #   api_key_env: FTF_API_KEY

# Entities of the primary credential; forbidden = an entity that exists but is not on its allow-list.
${entitiesBlock(found)}

# Indication codes by role (primary, fractional_minimum, enforced_maximum, unenforced_maximum, extendable).
# Scenarios needing a role the profile does not declare are skipped with the role named.
${indicationsBlock(found)}

${pagingBlock(found)}# Paths and field names of operations the spec leaves "not shown"; defaults are the reference server's.
# paths:
#   health: /health

# timeouts:
#   request_ms: 10000
`;
}
