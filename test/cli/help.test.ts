/**
 * Issue 14 item 6: per-command help from data (every flag, variable and an example), `--version`,
 * `--workers`, and docs/cli.md kept in step with the help (npm run docs:cli).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { loadCommands } from '../../src/cli/commands/index.js';
import { ENV_VARS } from '../../src/cli/env-vars.js';
import { renderHelp, updateCliDoc } from '../../src/cli/help.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { loadClauseCatalogue } from '../../src/harness/spec/clauses.js';
import { cli, fakePlaywright, FIXTURES, scratch } from './helpers.js';

const commands = await loadCommands();

const dir = scratch('ftf-cli-help-');
after(() => rmSync(dir, { recursive: true, force: true }));

const names = Object.keys(commands);

describe('help <command> and <command> --help', () => {
  test('every command: usage line, every flag, every variable it reads, an example; exit 0', async () => {
    for (const name of names) {
      const help = commands[name]!.help;
      assert.ok(help.examples.length > 0, `${name}: needs an example`);
      for (const argv of [['help', name], [name, '--help'], [name, '-h']]) {
        const r = await cli(...argv);
        assert.equal(r.code, 0, argv.join(' '));
        assert.equal(r.out, renderHelp(name, commands[name]!), argv.join(' '));
      }
      const text = renderHelp(name, commands[name]!);
      assert.match(text, new RegExp(`^usage: ftf-conformance ${name}`));
      for (const f of help.flags) assert.ok(text.includes(`  ${f.flag}`), `${name}: flag ${f.flag} missing from the help`);
      for (const v of help.env) assert.ok(text.includes(`  ${v} `), `${name}: variable ${v} missing from the help`);
      for (const e of help.examples) assert.ok(text.includes(`  ${e.command}`) && e.command.includes('ftf-conformance '), `${name}: example ${e.command}`);
      assert.ok(help.examples.some((e) => e.command.includes(`ftf-conformance ${name}`)), `${name}: an example of the command itself`);
    }
  });

  test('help of an unknown command exits 2; run -- --help is Playwright\'s word, not help', async () => {
    const r = await cli('help', 'nosuch');
    assert.equal(r.code, 2);
    assert.match(r.err, /unknown command 'nosuch'/);
    const fake = fakePlaywright(join(FIXTURES, 'playwright-results.json'));
    const pass = await cli('run', '--', '--help');
    assert.equal(pass.code, 2, 'run refuses --help after -- (not a passthrough flag)');
    assert.match(pass.err, /'--help' after -- is not a Playwright flag/);
    assert.equal(fake.calls.length, 0);
  });

  test('every documented flag is one the command parses (an unknown flag after it is the one named)', async () => {
    for (const name of names) {
      for (const f of commands[name]!.help.flags) {
        if (f.positional || f.flag === '--') continue;
        const argv = [name, f.flag, ...(f.value && !f.optionalValue ? ['1'] : []), '--definitely-unknown'];
        const r = await cli(...argv);
        assert.equal(r.code, 2, argv.join(' '));
        assert.match(r.err, /Unknown option '--definitely-unknown'/, `${argv.join(' ')}: ${r.err}`);
      }
    }
  });

  test('every flag a command parses is documented in its help', () => {
    // The option tables of the parsers (args.parse in the command files; selftest and reference parse in their modules).
    const files: Record<string, string[]> = {
      selftest: ['src/selftest/mutation.ts', 'src/selftest/variant-cli.ts', 'src/selftest/client-matrix.ts'],
      reference: ['src/reference/cli-args.ts'],
    };
    for (const name of names) {
      const sources = (files[name] ?? [`src/cli/commands/${name}.ts`]).map((f) => readFileSync(join(REPO_ROOT, f), 'utf8')).join('\n');
      const parsed = [...sources.matchAll(/['"]?([a-z][a-z-]*)['"]?: \{ type: '(?:string|boolean)'/g)].map((m) => `--${m[1]}`).filter((f) => f !== '--help');
      assert.ok(parsed.length > 0, `${name}: no option table found in ${(files[name] ?? [name]).join(', ')}`);
      const documented = new Set(commands[name]!.help.flags.map((f) => f.flag));
      for (const flag of new Set(parsed)) assert.ok(documented.has(flag), `${name} parses ${flag} but its help does not list it`);
    }
  });
});

describe('--version', () => {
  test('prints the package version and the sha256 of the spec and clauses.yaml', async () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    const catalogue = loadClauseCatalogue();
    for (const flag of ['--version', '-V']) {
      const r = await cli(flag);
      assert.equal(r.code, 0);
      assert.match(r.out, new RegExp(`^ftf-conformance ${pkg.version.replace(/\./g, '\\.')}\\n`));
      assert.ok(r.out.includes(catalogue.specSha256) && r.out.includes(catalogue.clausesSha256), r.out);
    }
  });
});

test('through the bin: --version exits 0, help run prints the flags, run --workers 0 exits 2', () => {
  const bin = (...args: string[]) => spawnSync(process.execPath, [join(REPO_ROOT, 'bin/ftf-conformance.mjs'), ...args], { encoding: 'utf8', env: { ...process.env } });
  const version = bin('--version');
  assert.equal(version.status, 0, version.stderr);
  assert.match(version.stdout, /^ftf-conformance \d+\.\d+\.\d+\n/);
  const help = bin('help', 'run');
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /--workers N {2,}Playwright workers/);
  const bad = bin('run', '--workers', '0');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /FTF_E_USAGE: run: --workers must be an integer from 1 to 99 \(got '0'\)/);
});

describe('--workers N (run, certify, selftest)', () => {
  test('bad values exit 2 and nothing starts', async () => {
    for (const cmd of ['run', 'certify', 'selftest']) {
      for (const bad of ['0', '-1', 'two', '1.5', '100', '']) {
        const fake = fakePlaywright(join(FIXTURES, 'playwright-results.json'));
        const r = await cli(cmd, `--workers=${bad}`);
        assert.equal(r.code, 2, `${cmd} --workers=${bad}: ${r.err}`);
        assert.match(r.err, /--workers must be an integer from 1 to 99/);
        assert.equal(fake.calls.length, 0);
      }
    }
  });

  test('run --workers 3 hands FTF_WORKERS=3 to Playwright; without it FTF_WORKERS is left alone', async () => {
    let fake = fakePlaywright(join(FIXTURES, 'playwright-results.json'));
    await cli('run', '--no-report', '--workers', '3');
    assert.equal(fake.calls.length, 1);
    assert.equal(fake.calls[0]!.env.FTF_WORKERS, '3');
    fake = fakePlaywright(join(FIXTURES, 'playwright-results.json'));
    await cli('run', '--no-report');
    assert.equal(fake.calls[0]!.env.FTF_WORKERS, undefined);
  });
});

describe('docs/cli.md and the environment table', () => {
  test('docs/cli.md is what `npm run docs:cli` writes (regenerate it after changing a command\'s help)', () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs/cli.md'), 'utf8');
    assert.equal(updateCliDoc(doc, commands), doc, 'docs/cli.md is stale: run `npm run docs:cli`');
    for (const name of names) assert.match(doc, new RegExp(`\\n## ${name}\\n\\n<!-- BEGIN generated help: ${name} `), `docs/cli.md: ## ${name} with its generated block`);
  });

  test('every FTF_* name the code reads is documented (src/cli/env-vars.ts, or a profile name in docs/target-profiles.md); nothing else is described', () => {
    // Not variables: the labels redaction names a secret by (http/redactor.ts, auth/consent.ts), and a prefix.
    const NOT_VARIABLES = new Set(['FTF_SECRET', 'FTF_SECRET_', 'FTF_ACCESS_TOKEN', 'FTF_AUTH_CODE', 'FTF_CODE_VERIFIER', 'FTF_FC_']);
    // The `*_env` names the shipped profiles choose: documented with the profiles, not as the harness's variables.
    const PROFILE_NAMES = new Set(['FTF_PRIMARY_CLIENT_SECRET', 'FTF_SECOND_CLIENT_SECRET', 'FTF_READONLY_CLIENT_SECRET']);
    const profilesDoc = readFileSync(join(REPO_ROOT, 'docs/target-profiles.md'), 'utf8');
    for (const name of PROFILE_NAMES) assert.match(profilesDoc, new RegExp(`\`${name}\``), `docs/target-profiles.md names the profile variable ${name}`);
    // What reads variables: the harness, its configs, its bin, its scripts and its benchmarks.
    const files = [join(REPO_ROOT, 'playwright.config.ts'), join(REPO_ROOT, 'playwright.mutation.config.ts'), ...['specs', 'src', 'bin', 'scripts', 'bench'].flatMap((d) => codeFiles(join(REPO_ROOT, d)))];
    const used = new Set<string>();
    for (const f of files) {
      if (f.endsWith('env-vars.ts')) continue;
      for (const m of readFileSync(f, 'utf8').matchAll(/\bFTF_(?!E_)[A-Z][A-Z0-9_]*/g)) if (!NOT_VARIABLES.has(m[0]) && !PROFILE_NAMES.has(m[0])) used.add(m[0]);
    }
    assert.ok(used.has('FTF_TARGET') && used.has('FTF_LOAD_PROCS') && used.has('FTF_BENCH_KEEP'), 'the scan sees src/, scripts/ and bench/');
    const described = new Set(ENV_VARS.map((v) => v.name));
    for (const name of used) assert.ok(described.has(name), `${name} is read but documented nowhere: describe it in src/cli/env-vars.ts (a user variable, or kind client/script/internal) and run \`npm run docs:cli\``);
    for (const name of described) assert.ok(used.has(name), `${name} is described but nothing reads it`);
    for (const name of names) for (const v of commands[name]!.help.env) assert.ok(described.has(v), `${name} lists unknown variable ${v}`);
    // The users' table holds user variables alone; the process-to-process settings are one variable (shared/run-settings.ts).
    assert.deepEqual(ENV_VARS.filter((v) => v.kind === 'internal').map((v) => v.name), ['FTF_RUN']);
  });
});

/** Source files that may read a variable (TypeScript, JavaScript modules, shell scripts). */
function codeFiles(d: string): string[] {
  return readdirSync(d, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(ts|mjs|js|sh)$/.test(f) && !f.includes('node_modules')).map((f) => join(d, f));
}

describe('usage errors: exit 2 before any server or Playwright starts', () => {
  test('an unknown flag, a bad value: every command', async () => {
    // Every server (the embedded reference, the reference command's) listens through net.Server#listen.
    const net = await import('node:net');
    const listen = net.Server.prototype.listen;
    const listened: string[] = [];
    net.Server.prototype.listen = function (this: InstanceType<typeof net.Server>, ...args: unknown[]) {
      listened.push(String(args[0]));
      return (listen as (...a: unknown[]) => InstanceType<typeof net.Server>).apply(this, args);
    } as typeof listen;
    try {
      // The spy sees an HTTP server (fastify's) start: the control that makes the assertion below able to fail.
      const { createServer } = await import('node:http');
      const control = createServer();
      await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
      await new Promise<void>((resolve) => control.close(() => resolve()));
      assert.equal(listened.length, 1);
      listened.length = 0;
      const cases: string[][] = [
        ...names.map((name) => [name, '--bogus']),
        ['run', '--workers', '0'], ['certify', '--workers', 'x'], ['selftest', '--workers', '0'], ['selftest', '--variants', '--workers', '0'],
        ['run', '--shard', '2/1'], ['run', '--fail-on', 'never'], ['run', '--', '--reporter=json'], ['list', '--grep', '(['],
        ['reference', '--port', '70000'], ['reference', '--fault', 'no-such-fault'], ['selftest', '--subset', 'some'],
        ['verify'], ['init', '--environment'],
      ];
      for (const argv of cases) {
        const fake = fakePlaywright(join(FIXTURES, 'playwright-results.json'));
        const r = await cli(...argv);
        assert.equal(r.code, 2, `${argv.join(' ')}: ${r.err || r.out}`);
        assert.ok(r.err.length > 0, `${argv.join(' ')}: says why on stderr`);
        assert.equal(fake.calls.length, 0, `${argv.join(' ')}: Playwright must not start`);
        assert.deepEqual(listened, [], `${argv.join(' ')}: no server may start`);
      }
    } finally {
      net.Server.prototype.listen = listen;
    }
  });
});
