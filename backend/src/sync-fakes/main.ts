import { startFakeEventbrite } from './eventbrite';
import { startFakeKlaviyo } from './klaviyo';
import { startFakeMailchimp } from './mailchimp';
import { startFakeZoom } from './zoom';

/*
 * `npm run fakes`: starts local fakes of the four sync providers (their OAuth endpoints and the
 * API calls the drivers make) and prints the environment that points `npm start` at them, so a
 * developer can connect each provider and watch a sync with no network. FAKES_PORT_BASE (default
 * 4710) gives them stable ports: Eventbrite +0, Mailchimp +1, Klaviyo +2, Zoom +3.
 */
async function main() {
  const base = Number(process.env.FAKES_PORT_BASE ?? 4710);
  const client = (provider: string) => ({
    clientId: `fake-${provider}-client`,
    clientSecret: `fake-${provider}-secret`,
  });
  const fakes = [
    { prefix: 'EVENTBRITE', ...client('eventbrite'), fake: await startFakeEventbrite({ ...client('eventbrite'), port: base }) },
    { prefix: 'MAILCHIMP', ...client('mailchimp'), fake: await startFakeMailchimp({ ...client('mailchimp'), port: base + 1 }) },
    { prefix: 'KLAVIYO', ...client('klaviyo'), fake: await startFakeKlaviyo({ ...client('klaviyo'), port: base + 2 }) },
    { prefix: 'ZOOM', ...client('zoom'), fake: await startFakeZoom({ ...client('zoom'), port: base + 3 }) },
  ];
  const lines = fakes.flatMap(({ prefix, clientId, clientSecret, fake }) => [
    `${prefix}_BASE_URL=${fake.url}`,
    `${prefix}_CLIENT_ID=${clientId}`,
    `${prefix}_CLIENT_SECRET=${clientSecret}`,
  ]);
  console.log('Fake sync providers are running (no network needed). Start the app with:\n');
  console.log(`  ${lines.join(' \\\n  ')} \\\n  npm start\n`);
  console.log('Connect each provider from Integrations; the fakes approve at once. Ctrl-C stops them.');
  const stop = () => void Promise.all(fakes.map(({ fake }) => fake.close())).then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
