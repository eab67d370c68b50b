/**
 * Child process: the reference server with `count` synthetic events visible to alice (ENT-ALPHA, ENT-BETA)
 * on top of the seeded history. Sends { authUrl, baseUrl, secret } over IPC (never printed) and closes on
 * the parent's 'close' message or when the parent goes away.
 */
import { buildReferenceApp } from '../../src/reference/app.js';

const count = Number(process.argv[2] ?? 100_000);
const { app, ctx, domain } = await buildReferenceApp({ seed: 1 });
domain.appendSynthetic(count, ['ENT-ALPHA', 'ENT-BETA']);
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
const authUrl = `http://127.0.0.1:${port}`;
process.send?.({ authUrl, baseUrl: `${authUrl}/api/v1`, secret: ctx.secrets.clients['cc-alice'], head: domain.store.head });
const stop = (): void => {
  void app.close().then(() => process.exit(0));
};
process.on('message', (m) => {
  if (m === 'close') stop();
});
process.on('disconnect', stop);
