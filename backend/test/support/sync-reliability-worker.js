/*
 * TEST ONLY. The worker process of test/sync-reliability.e2e-spec.ts: the production worker
 * (dist/worker.js's startWorker, same modules, same SIGTERM handling) plus one test module that
 * registers a provider-effect handler against the test's fake. It stands in for the Mailchimp
 * member upsert until the synclists branch lands; the lead switches the test to it at merge.
 *
 * RELIABILITY_FAKE_URL: the fake provider. RELIABILITY_MODE:
 *   put  (default) the effect is a PUT keyed by the record's local id (an upsert, like Mailchimp's
 *        PUT /lists/{id}/members/{hash} and Klaviyo's profile import), and a record whose mapping
 *        already has a remote id is not sent again;
 *   post the effect is a keyless POST (a create) and the remote id is not checked: what the test
 *        shows fails.
 * RELIABILITY_DELAY_MS: the fake's answer is slow (the SIGTERM test).
 */
const path = require('node:path');
const dist = path.join(__dirname, '..', '..', 'dist');
const { Inject, Module } = require('@nestjs/common');
const { startWorker } = require(path.join(dist, 'worker.js'));
const { SyncModule } = require(path.join(dist, 'modules/sync/sync.module.js'));
const { SyncJobsService } = require(path.join(dist, 'modules/sync/jobs/sync-jobs.service.js'));

const FAKE = process.env.RELIABILITY_FAKE_URL;
const MODE = process.env.RELIABILITY_MODE || 'put';
if (!FAKE) throw new Error('RELIABILITY_FAKE_URL is required');

const handler = {
  provider: 'mailchimp',
  action: 'reliability.member',
  async handle(job, mapping) {
    if (MODE === 'put' && mapping.remoteId) return { remoteId: mapping.remoteId };
    const res =
      MODE === 'put'
        ? await fetch(`${FAKE}/lists/reliability/members/${job.localId}`, {
            method: 'PUT',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ key: job.localId }),
          })
        : await fetch(`${FAKE}/lists/reliability/members`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ key: job.localId }),
          });
    if (!res.ok) throw new Error(`fake provider answered ${res.status}`);
    const body = await res.json();
    return { remoteId: body.id };
  },
};

class ReliabilityTestModule {
  constructor(jobs) {
    this.jobs = jobs;
  }
  onModuleInit() {
    this.jobs.register(handler);
  }
}
Inject(SyncJobsService)(ReliabilityTestModule, undefined, 0);
Module({ imports: [SyncModule] })(ReliabilityTestModule);

startWorker([ReliabilityTestModule]).catch((error) => {
  console.error(error);
  process.exit(1);
});
