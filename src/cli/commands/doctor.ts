/**
 * `doctor`: a preflight in seconds. Profile, reachability of base_url and auth_url, token exchange, the
 * health check, clock skew (Date header), then readiness (src/cli/readiness.ts): every declared path
 * answers and reads through the profile's pointers, every role names a fitting product or entity; finally
 * capabilities and which scenarios will be skipped and why. One clear line per problem. Exit 0 when the
 * target is ready (a correct target then passes every scenario that is not listed as skipped; warnings
 * allowed), 2 when a run could not start or could not pass.
 */
import { describePaging } from '../../harness/target/paging.js';
import { createAuthClient } from '../../harness/auth/client.js';
import { Redactor } from '../../harness/http/redactor.js';
import { createUndiciTransport } from '../../harness/http/undici-transport.js';
import { FtfError } from '../../shared/errors.js';
import { parse } from '../args.js';
import type { ClauseCoverage } from '../../harness/report/verdicts/clause-coverage.js';
import { loadClauseCatalogue } from '../../harness/spec/clauses.js';
import { isFiltered } from '../../harness/scenario/selection.js';
import { selectedCatalogue, SELECTION_HELP, SELECTION_OPTIONS, selectionFlags } from '../scenarios.js';
import { checkCredentials, checkPaths, checkRoles, reportSkips, type Answer, type Level } from '../readiness.js';
import { openTarget, reach } from '../target.js';
import type { FlagHelp } from '../help.js';
import type { Command } from './types.js';

const MAX_SKEW_S = 60;

const TARGET_FLAG_DOCTOR: FlagHelp = { flag: '--target', value: 'FILE', text: 'target profile', default: 'fixtures/targets/reference.yaml, the embedded reference server', env: 'FTF_TARGET' };

export const doctorCommand: Command = {
  summary: 'preflight a target: reachability, token, health, clock skew, capabilities and skipped scenarios',
  help: {
    description: 'One line per check (OK/WARN/FAIL/INFO): profile valid, base_url and auth_url reachable, token exchange for the primary credential, health check, readiness of every declared path, indication role and entity, every other credential, clock skew, capabilities, which scenarios will be skipped and why (and which run as their clock-less form), and the clause coverage that gives: "ready, partial" when must clauses will not be judged. '
      + 'An embedded profile starts its server for the checks. Secrets are never printed. Exit 0 ready, 2 when a check failed.',
    flags: [TARGET_FLAG_DOCTOR, ...SELECTION_HELP],
    env: ['FTF_TARGET', 'FTF_BASE_URL', 'FTF_AUTH_URL', 'FTF_CONTROL_URL', 'FTF_SPEC_DIR', 'FTF_SPECS_DIR', 'FTF_EMBEDDED_START_MS'],
    examples: [{ text: 'preflight a new profile after exporting its secret', command: 'ftf-conformance doctor --target target.yaml' }],
  },
  async run(argv) {
    const { values: v } = parse('doctor', argv, { target: { type: 'string' }, ...SELECTION_OPTIONS });
    const flags = selectionFlags('doctor', v);
    const lines: [Level, string][] = [];
    const say = (level: Level, text: string): void => {
      lines.push([level, text]);
      console.log(`${level.toUpperCase().padEnd(4)} ${text}`);
    };
    let coverage: ClauseCoverage | undefined;
    const open = await openTarget(v.target, { probe: false });
    const { target } = open;
    const transport = createUndiciTransport();
    try {
      say('ok', `profile ${open.file}: "${target.name}" (${target.environment})${open.embedded ? ', embedded reference server started' : ''}`);
      const [api, auth] = await Promise.all([reach(`${target.baseUrl}${target.paths.health ?? '/health'}`), reach(`${target.authUrl}/oauth/token`)]);
      for (const [what, r] of [['base_url', api], ['auth_url', auth]] as const) {
        if (r.ok) say('ok', `${what} reachable: ${r.url} answered ${r.status} in ${r.ms} ms`);
        else say('fail', `${what} unreachable: ${r.url}: ${r.error} (check the URL, VPN, proxy, firewall)`);
      }
      if (api.ok && auth.ok) {
        const redactor = new Redactor();
        const client = createAuthClient(target, transport, redactor);
        let bearer: string | undefined;
        try {
          bearer = await client.authorization('primary');
          say('ok', `token exchange for credential "primary" succeeded${describeToken(client.tokenInfo('primary'))}`);
        } catch (e) {
          say('fail', `token exchange for credential "primary" failed: ${e instanceof FtfError ? redactor.redactText(e.describe()) : 'error'}`);
        }
        if (bearer) {
          const res = await transport.send({ method: 'GET', url: `${target.baseUrl}${target.paths.health ?? '/health'}`, headers: { authorization: bearer, accept: 'application/json' }, timeoutMs: target.timeouts.requestMs }).catch((e: unknown) => e as Error);
          if (res instanceof Error) say('fail', `health check failed: ${redactor.redactText(res.message)}`);
          else if (res.status === 200 && typeof (res.json as { status?: unknown } | undefined)?.status === 'string') say('ok', `health check: 200 ${JSON.stringify(res.json)}`);
          else say('fail', `health check answered ${res.status} ${redactor.redactText(res.bodyText.slice(0, 200))} (expected 200 {"status": ...})`);
          const getWith = async (authorization: string, path: string): Promise<Answer> => {
            const r = await transport.send({ method: 'GET', url: `${target.baseUrl}${path}`, headers: { authorization, accept: 'application/json' }, timeoutMs: target.timeouts.requestMs });
            return { status: r.status, json: r.json, text: redactor.redactText(r.bodyText) };
          };
          const primary = bearer;
          const get = (path: string): Promise<Answer> => getWith(primary, path);
          try {
            await checkCredentials(target, (name) => client.authorization(name), getWith,
              (e) => (e instanceof FtfError ? redactor.redactText(e.describe()) : redactor.redactText(e instanceof Error ? e.message : String(e))), say);
            await checkPaths(target, get, say);
            await checkRoles(target, get, say);
          } catch (e) {
            say('fail', `readiness probe failed: ${redactor.redactText(e instanceof Error ? e.message : String(e))}`);
          }
        }
      }
      const date = api.date ?? auth.date;
      if (date) {
        const skew = Math.round((Date.parse(date) - Date.now()) / 1000);
        if (Math.abs(skew) > MAX_SKEW_S) say('warn', `clock skew ${skew} s between this machine and the target (Date header); token expiry and date checks may misfire`);
        else say('ok', `clock skew ${skew} s (Date header)`);
      } else if (api.ok) {
        say('warn', 'the target sends no Date header: clock skew unknown');
      }
      const caps = [...target.capabilities].sort();
      say('info', `capabilities: ${caps.join(', ') || 'none'}`);
      // How each list is read (profile paging.<list>; every list read walks every page): issue 25.
      const paged = Object.entries(target.paging).filter(([, p]) => p.kind !== 'none');
      say('info', `list paging: ${paged.length === 0 ? 'none declared (one answer is each whole list)' : paged.map(([k, p]) => `${k}: ${describePaging(p)}`).join('; ')}; a walk reads at most ${target.timeouts.maxListPages} pages`);
      say('info', `request shapes: ${Object.entries(target.shapes).map(([k, s]) => `${k} ${s.in}${s.name ? ` ${s.name}` : ''}`).join(', ')}`);
      let suite;
      try {
        // What a run of the same --grep/--tag/--shard would declare (the one selection, scenario/selection.ts).
        suite = selectedCatalogue(flags);
      } catch (e) {
        say('warn', `scenarios not loaded: ${(e as Error).message}`);
      }
      if (suite) {
        coverage = reportSkips(target, suite.scenarios, say, suite.extras, loadClauseCatalogue());
        if (isFiltered(flags)) say('info', `selected: ${[...suite.scenarios.map((s) => s.id), ...suite.extras.map((x) => x.id)].join(', ') || 'nothing'}`);
        for (const p of suite.problems) say('warn', `broken scenario file ${p.file} (the run reports it errored)`);
      }
    } finally {
      await transport.dispose?.();
      await open.close();
    }
    const fails = lines.filter(([l]) => l === 'fail').length;
    // Below full must coverage a run can be CONFORMANT only over part of the spec: "ready, partial" says so.
    const partial = coverage?.status === 'partial' ? `, partial (${coverage.notJudged.must.length} must clause${coverage.notJudged.must.length === 1 ? '' : 's'} will not be judged: ${coverage.notJudged.must.map((x) => x.id).join(', ')})` : '';
    console.log(fails ? `doctor: ${fails} problem${fails === 1 ? '' : 's'}; a run would not produce a verdict` : `doctor: ready${partial}`);
    return fails ? 2 : 0;
  },
};

function describeToken(info: { expiresAt: number; obtainedAt?: number } | undefined): string {
  if (!info) return '';
  return ` (expires in ${Math.round((info.expiresAt - Date.now()) / 60000)} min)`;
}
