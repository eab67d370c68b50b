/** Readable renderings of a certificate: Markdown and one self-contained, escaped HTML page. */
import { specArea } from '../../spec/clauses.js';
import type { Certificate } from './certificate.js';
import { describeImplementation } from '../records/implementation.js';

const MARK: Record<string, string> = {
  passed: 'PASS', failed: 'FAIL', 'in-doubt': 'IN DOUBT', warning: 'WARN', errored: 'ERROR', waived: 'WAIVED', skipped: 'SKIP', 'not-applicable': 'N/A', 'not-tested': 'NOT TESTED',
};

const md = (s: string): string => s.replace(/[|\\`*_<>]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');

/** An environment's skip reasons, then the scenarios it has no test of (the production project's share) and why. */
function skipsText(x: Certificate['skips'][number]): string {
  const reasons = x.reasons.map((r) => `${r.count} × ${r.reason}${r.not_applicable ? ' (n/a)' : ''}`);
  if (x.not_run) reasons.push(`${x.not_run.count} scenario${x.not_run.count === 1 ? '' : 's'} not run here (no test, in no count): ${x.not_run.reason}`);
  return reasons.join('; ') || '-';
}

/** The coverage line: "partial" when a must clause was not judged (clause-coverage.ts); nothing for a certificate without it. */
export function coverageText(c: Pick<Certificate, 'coverage'>): string | undefined {
  const k = c.coverage as Certificate['coverage'] | undefined;
  if (!k) return undefined;
  const judged = `must ${k.must.judged} of ${k.must.total}, should ${k.should.judged} of ${k.should.total} clauses judged`;
  return k.status === 'partial' ? `PARTIAL: ${judged}; must clauses not judged: ${k.notJudged.must.map((x) => x.id).join(', ')}` : `full: ${judged}`;
}

export function certificateMarkdown(c: Certificate): string {
  const t = c.verdict.totals;
  const lines = [
    `# FTF conformance certificate: ${md(c.target.name)}`,
    '',
    `**Verdict: ${c.verdict.overall.toUpperCase()}** (fail on: ${c.run.fail_on})${c.coverage?.status === 'partial' ? ` **partial**: ${c.coverage.notJudged.must.length} must clauses not judged` : ''}`,
    '',
    ...(coverageText(c) ? [`Coverage: ${md(coverageText(c)!)}`, ''] : []),
    '| | |',
    '|---|---|',
    `| Target | ${md(c.target.base_url)} (${md(c.target.environment)}) |`,
    `| Auth URL | ${md(c.target.auth_url)} |`,
    `| Capabilities | ${c.target.capabilities.map(md).join(', ') || 'none'} |`,
    `| Implementation | ${md(describeImplementation(c.implementation))} |`,
        `| Harness | ${md(c.harness.name)} ${md(c.harness.version)}, commit ${md(c.harness.commit)} |`,
    `| Harness files | sha512 \`${c.harness.files.digest}\` (${c.harness.files.count} files of the ${c.harness.files.scope}) |`,
    `| Spec sha256 | \`${c.spec.sha256}\` |`,
    `| Run | ${c.run.started_at} to ${c.run.finished_at} |`,
    `| Scenarios | ${t.total} total, ${t.executed} executed: ${t.passed} passed, ${t.failed} failed, ${t.warning} warnings, ${t.errored} errored, ${t.waived} waived, ${t.skipped} skipped, ${t['not-applicable']} not applicable |`,
    `| Signed by | Ed25519 key sha256 \`${c.signature.public_key_sha256}\` |`,
    '',
    '## Clauses',
    '',
    '| Area | Clause | Level | Verdict | Scenarios |',
    '|---|---|---|---|---|',
    ...c.clauses.map((x) => `| ${specArea(x.id)} | ${x.id} | ${x.level} | ${MARK[x.verdict] ?? x.verdict}${md(doubtNote(x))} | ${x.scenarios.map((s) => `${md(s.id)} (${s.verdict})`).join(', ') || '-'} |`),
    '',
    '## Skips per environment',
    '',
    '| Environment | Tests | Skipped | Not applicable | Reasons |',
    '|---|---|---|---|---|',
    ...c.skips.map((e) => `| ${md(e.environment)} | ${e.tests} | ${e.skipped} | ${e.not_applicable} | ${md(skipsText(e))} |`),
    '',
    '## Scenarios not passed',
    '',
    ...notPassed(c).map((s) => `- **${MARK[s.verdict]}** ${md(s.id)} [${s.clauses.join(', ')}]${s.reason ? `: ${md(s.reason)}` : ''}`),
    ...(c.problems.length ? ['', '## Problems', '', ...c.problems.map((p) => `- ${md(p)}`)] : []),
    '',
    `Verify: \`npx ftf-conformance verify certificate.json\``,
    '',
  ];
  return lines.join('\n');
}

/** " with A, B: <evidence>" for a clause in doubt (one of it and those is broken). */
const doubtNote = (x: Certificate['clauses'][number]): string =>
  x.in_doubt_with?.length ? ` with ${[...new Set(x.in_doubt_with.flatMap((d) => d.clauses))].join(', ')}: ${x.in_doubt_with[0]!.evidence.slice(0, 200)}` : '';

const notPassed = (c: Certificate) => c.scenarios.filter((s) => s.verdict !== 'passed');

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

export function certificateHtml(c: Certificate): string {
  const e = escapeHtml;
  const row = (cells: string[]): string => `<tr>${cells.map((x) => `<td>${x}</td>`).join('')}</tr>`;
  const badge = (v: string): string => `<span class="v ${e(v)}">${e(MARK[v] ?? v)}</span>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>FTF conformance certificate: ${e(c.target.name)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:70rem;color:#1d232a}
table{border-collapse:collapse;width:100%;margin:1rem 0}td,th{border:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top}
.v{font-weight:600;padding:0 .3rem;border-radius:3px}.passed{background:#d1f5d3}.failed,.errored,.non-conformant{background:#ffd7d5}
.warning,.waived{background:#fff1c2}.skipped,.not-applicable,.not-tested{background:#eaeef2}.conformant{background:#d1f5d3}.nothing-tested{background:#eaeef2}
code{font-size:12px;word-break:break-all}
</style></head><body>
<h1>FTF conformance certificate: ${e(c.target.name)}</h1>
<p>Verdict: <span class="v ${e(c.verdict.overall)}">${e(c.verdict.overall.toUpperCase())}</span> (fail on: ${e(c.run.fail_on)})${c.coverage?.status === 'partial' ? ` <strong>partial</strong>: ${c.coverage.notJudged.must.length} must clauses not judged` : ''}</p>
${coverageText(c) ? `<p>Coverage: ${e(coverageText(c)!)}</p>` : ''}
<table>
${row(['Target', `${e(c.target.base_url)} (${e(c.target.environment)})`])}
${row(['Auth URL', e(c.target.auth_url)])}
${row(['Capabilities', e(c.target.capabilities.join(', ') || 'none')])}
${row(['Implementation', e(describeImplementation(c.implementation))])}
${row(['Harness', `${e(c.harness.name)} ${e(c.harness.version)}, commit <code>${e(c.harness.commit)}</code>`])}
${row(['Harness files', `sha512 <code>${e(c.harness.files.digest)}</code> (${c.harness.files.count} files of the ${e(c.harness.files.scope)})`])}
${row(['Spec sha256', `<code>${e(c.spec.sha256)}</code>`])}
${row(['Run', `${e(c.run.started_at)} to ${e(c.run.finished_at)}`])}
${row(['Totals', e(Object.entries(c.verdict.totals).map(([k, v]) => `${k} ${v}`).join(', '))])}
${row(['Signed by', `Ed25519 key sha256 <code>${e(c.signature.public_key_sha256)}</code>`])}
</table>
<h2>Clauses</h2>
<table><tr><th>Area</th><th>Clause</th><th>Level</th><th>Verdict</th><th>Scenarios</th></tr>
${c.clauses.map((x) => row([e(specArea(x.id)), e(x.id), e(x.level), `${badge(x.verdict)}${e(doubtNote(x))}`, e(x.scenarios.map((s) => `${s.id} (${s.verdict})`).join(', ') || '-')])).join('\n')}
</table>
<h2>Skips per environment</h2>
<table><tr><th>Environment</th><th>Tests</th><th>Skipped</th><th>Not applicable</th><th>Reasons</th></tr>
${c.skips.map((x) => row([e(x.environment), String(x.tests), String(x.skipped), String(x.not_applicable), e(skipsText(x))])).join('\n')}
</table>
<h2>Scenarios not passed</h2>
<table><tr><th>Verdict</th><th>Scenario</th><th>Clauses</th><th>Reason</th></tr>
${notPassed(c).map((s) => row([badge(s.verdict), e(s.id), e(s.clauses.join(', ')), e(s.reason ?? '')])).join('\n')}
</table>
${c.problems.length ? `<h2>Problems</h2><ul>${c.problems.map((p) => `<li>${e(p)}</li>`).join('')}</ul>` : ''}
<p>Verify with <code>npx ftf-conformance verify certificate.json</code>.</p>
</body></html>
`;
}
