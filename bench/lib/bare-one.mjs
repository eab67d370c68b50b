// The floor of bench/startup.ts: a bare Node script (plain JavaScript, no tsx, no harness code) that sends the
// requests of the one-scenario run (amounts.indication-get): one client_credentials token request and one GET
// of the primary indication, with undici, and exits. URLs and the secret come from the environment the bench
// server child hands out (the reference profile's variable names); nothing is printed.
/* global URLSearchParams */
import { request } from 'undici';

const { FTF_BASE_URL: base, FTF_AUTH_URL: auth, FTF_PRIMARY_CLIENT_SECRET: secret = '' } = process.env;
const clientId = process.env.FTF_BENCH_CLIENT_ID ?? 'cc-alice';
const code = process.env.FTF_BENCH_INDICATION ?? 'FTF-FIX-1M';
const token = await request(`${auth}/oauth/token`, {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
  body: new URLSearchParams({ grant_type: 'client_credentials' }).toString(),
});
const { access_token: bearer } = JSON.parse(await token.body.text());
const res = await request(`${base}/indication/${code}`, { headers: { authorization: `Bearer ${bearer}`, accept: 'application/json' } });
const body = JSON.parse(await res.body.text());
if (token.statusCode !== 200 || res.statusCode !== 200 || typeof body !== 'object') process.exit(1);
