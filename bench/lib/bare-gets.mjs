// The bare baseline of bench/real-path.ts: a plain Node process (no tsx, nothing of the harness) doing the
// workflow's requests with undici: one client_credentials token request, then BENCH_GETS GETs of
// BENCH_HOLDING_PATH, each checked for status 200 and parsed with JSON.parse (no schema check). Settings
// and the client secret come from the environment (never argv, never printed). Prints one JSON line:
// { inToolMs } = token request to last GET, the process start and module loading excluded.
import { performance } from 'node:perf_hooks';
import { request } from 'undici';

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};
const [authUrl, baseUrl, clientId, secret, path] = ['BENCH_AUTH_URL', 'BENCH_BASE_URL', 'BENCH_CLIENT_ID', 'BENCH_CLIENT_SECRET', 'BENCH_HOLDING_PATH'].map(env);
const gets = Number(env('BENCH_GETS'));

const started = performance.now();
const tokenRes = await request(`${authUrl}/oauth/token`, {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
  body: 'grant_type=client_credentials',
});
if (tokenRes.statusCode !== 200) throw new Error(`token request answered ${tokenRes.statusCode}`);
const { access_token: token } = JSON.parse(await tokenRes.body.text());
for (let i = 0; i < gets; i++) {
  const res = await request(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`GET ${path} answered ${res.statusCode}`);
  JSON.parse(text);
}
// Exit at once: undici's idle keep-alive sockets must not hold the process open.
process.stdout.write(`${JSON.stringify({ inToolMs: performance.now() - started })}\n`, () => process.exit(0));
