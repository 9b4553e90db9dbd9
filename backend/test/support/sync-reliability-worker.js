/*
 * TEST ONLY. The production worker (dist/worker.js's startWorker, same modules, same SIGTERM
 * handling) plus one test module that registers a handler (`mailchimp` / `reliability.member`)
 * doing one HTTP call against a generic counting fake. The reliability test's main runs use the
 * real worker and the real Mailchimp upsert; this one serves what that path cannot show:
 * - the duplicate run: a keyless POST (a create) with the remote-id check off, since Mailchimp's
 *   PUT by subscriber hash cannot create a member twice;
 * - the SIGTERM run, whose fake answers slowly on demand;
 * - scripts/bench/sync.mjs, which times our worker against a bare BullMQ Worker doing the same
 *   no-op call.
 *
 * RELIABILITY_FAKE_URL: the fake provider. RELIABILITY_MODE:
 *   put  (default) the effect is a PUT keyed by the record's local id (an upsert), and a record
 *        whose mapping already has a remote id is not sent again;
 *   post the effect is a keyless POST (a create) and the remote id is not checked: what the test
 *        shows fails.
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
