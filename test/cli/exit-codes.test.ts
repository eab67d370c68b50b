/**
 * Exit codes are a contract with CI (docs/cli.md): every "could not start" case is 2 with a message naming
 * the problem, decided from the arguments before a server or Playwright starts; 3 is only for harness bugs.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { cli, fakePlaywright, FIXTURES, scratch, writeProfile } from './helpers.js';

const dir = scratch('ftf-cli-exit-');
after(() => rmSync(dir, { recursive: true, force: true }));

/** Asserts exit 2, the message, and that Playwright never started. */
async function cannotStart(args: string[], message: RegExp): Promise<void> {
  const fake = fakePlaywright(join(FIXTURES, 'playwright-results.json'));
  const r = await cli(...args);
  assert.equal(r.code, 2, `${args.join(' ')}: ${r.err || r.out}`);
  assert.match(r.err, message);
  assert.equal(fake.calls.length, 0, `${args.join(' ')}: Playwright must not start`);
}

// The YAML error sits on line 3, column 1 (the unclosed flow sequence of line 2 runs into it).
const BROKEN_YAML = 'name: broken\nbase_url: [embedded\nauth_url: embedded\n';

describe('usage errors exit 2 before anything starts', () => {
  test('no command, an unknown command, an unknown flag', async () => {
    assert.equal((await cli()).code, 2);
    const unknown = await cli('rnu');
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /unknown command 'rnu'/);
    await cannotStart(['run', '--bogus'], /FTF_E_USAGE: run: Unknown option '--bogus'/);
    await cannotStart(['certify', '--grep', 'x'], /FTF_E_USAGE: certify: Unknown option '--grep'/);
  });

  test('--shard must be i/n with 1 <= i <= n', async () => {
    for (const shard of ['3/2', '0/2', '1/0', 'a/b', '1']) await cannotStart(['run', '--shard', shard], new RegExp(`--shard must be i/n .*got '${shard}'`));
  });

  test('--grep must be a regular expression (run and list)', async () => {
    await cannotStart(['run', '--grep', '(['], /FTF_E_USAGE: run: --grep is not a valid regular expression/);
    await cannotStart(['list', '--grep', '(['], /FTF_E_USAGE: list: --grep is not a valid regular expression/);
  });

  test('Playwright flags after -- are checked before anything starts; reporters, config, trace and timeouts are refused', async () => {
    await cannotStart(['run', '--', '--bogus-flag'], /FTF_E_USAGE: run: '--bogus-flag' after -- is not a Playwright flag this harness passes through/);
    for (const refused of ['--reporter=json', '--add-reporter', '-c', '--trace', '--timeout=0', '--global-timeout', '--ui']) {
      await cannotStart(['run', '--', refused, 'x'], new RegExp(`'${refused}' after -- is not a Playwright flag`));
    }
    await cannotStart(['run', '--', '--retries'], /--retries after -- needs a value/);
    await cannotStart(['run', '--', '--list=yes'], /--list after -- takes no value/);
  });

  test('--fail-on takes must or should', async () => {
    await cannotStart(['run', '--fail-on', 'never'], /--fail-on must be one of must, should \(got 'never'\)/);
  });
});

describe('profile problems exit 2 naming the file', () => {
  test('a missing --target file', async () => {
    await cannotStart(['run', '--target', join(dir, 'nope.yaml')], /FTF_E_PROFILE_NOT_FOUND: target profile not found.*nope\.yaml/);
    await cannotStart(['list', '--target', join(dir, 'nope.yaml')], /FTF_E_PROFILE_NOT_FOUND/);
  });

  test('an unreadable profile (a folder)', async () => {
    const folder = join(dir, 'folder.yaml');
    mkdirSync(folder, { recursive: true });
    await cannotStart(['run', '--target', folder], /FTF_E_PROFILE_NOT_FOUND: target profile not found or unreadable: .*folder\.yaml \(EISDIR\)/);
  });

  test('a YAML syntax error names file:line:col (embedded and remote profiles, run and list)', async () => {
    const embedded = writeProfile(dir, 'broken-embedded.yaml', BROKEN_YAML);
    const remote = writeProfile(dir, 'broken-remote.yaml', BROKEN_YAML.replace('[embedded', '[http://127.0.0.1:9/api/v1'));
    for (const file of [embedded, remote]) {
      const at = new RegExp(`FTF_E_PROFILE_INVALID: .*\\n.*${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:1 YAML syntax`);
      await cannotStart(['run', '--target', file], at);
      await cannotStart(['list', '--target', file], at);
      await cannotStart(['doctor', '--target', file], at);
    }
  });
});

describe('waivers problems exit 2 before the run', () => {
  test('a missing --waivers file', async () => {
    await cannotStart(['run', '--waivers', join(dir, 'none.waivers.yaml')], /FTF_E_USAGE: run: --waivers file not found: .*none\.waivers\.yaml/);
  });

  test('a waivers file with a YAML error, a schema error, or unreadable', async () => {
    const syntax = join(dir, 'syntax.waivers.yaml');
    writeFileSync(syntax, 'waivers:\n  - scenario: [x\n');
    await cannotStart(['run', '--waivers', syntax], /FTF_E_WAIVERS_INVALID: waivers file is not valid YAML.*syntax\.waivers\.yaml:\d+:\d+/);
    const schema = join(dir, 'schema.waivers.yaml');
    writeFileSync(schema, 'waivers:\n  - scenario: x\n    owner: qa\n    expires: 2999-01-01\n');
    await cannotStart(['run', '--waivers', schema], /FTF_E_WAIVERS_INVALID: waiver waivers\[0\]\.reason is required/);
    const folder = join(dir, 'folder.waivers.yaml');
    mkdirSync(folder, { recursive: true });
    await cannotStart(['run', '--waivers', folder], /FTF_E_WAIVERS_INVALID: waivers file is unreadable \(EISDIR\)/);
  });
});

describe('nothing to test exits 2', () => {
  test('list: a selection matching nothing', async () => {
    const r = await cli('list', '--grep', 'no-such-scenario-anywhere');
    assert.equal(r.code, 2);
    assert.match(r.err, /FTF_E_NOTHING_SELECTED: the selection \(--grep\/--tag\/--shard\) matched no scenario/);
  });

  test('run: Playwright ran nothing', async () => {
    fakePlaywright(join(FIXTURES, 'playwright-empty.json'), 1);
    const r = await cli('run', '--no-report', '--grep', 'no-such-scenario-anywhere');
    assert.equal(r.code, 2);
    assert.match(r.out, /NOTHING TESTED/);
    assert.match(r.out, /No tests found/);
  });

  test('report: no Allure results; verify: no certificate or no public key file', async () => {
    const report = await cli('report', '--results', join(dir, 'no-results'));
    assert.equal(report.code, 2);
    assert.match(report.err, /FTF_E_REPORT_MISSING: no Allure results in .*no-results/);
    const verify = await cli('verify', join(dir, 'no-certificate.json'));
    assert.equal(verify.code, 2);
    assert.match(verify.err, /FTF_E_USAGE: verify: no such file: .*no-certificate\.json/);
    const cert = join(dir, 'certificate.json');
    writeFileSync(cert, '{}');
    const key = await cli('verify', cert, '--public-key', join(dir, 'no-key.pem'));
    assert.equal(key.code, 2);
    assert.match(key.err, /--public-key file not found: .*no-key\.pem/);
  });
});

test('3 stays for harness failures: Playwright ending without a report', async () => {
  fakePlaywright(undefined, 1);
  const r = await cli('run', '--no-report');
  assert.equal(r.code, 3);
  assert.match(r.err, /FTF_E_INTERNAL: Playwright ended \(exit 1\) without writing/);
});

test('through the bin: the process exit code is the documented one and usage errors are immediate', () => {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin/ftf-conformance.mjs'), 'run', '--shard', '3/2'], { encoding: 'utf8', env: { ...process.env, FTF_REPORTS_DIR: join(dir, 'reports') } });
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /--shard must be i\/n/);
});
