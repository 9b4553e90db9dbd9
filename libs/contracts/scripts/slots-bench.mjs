// Speed of the slot engine (not a test): 60 days, 5 ranges a day, 2,000 busy intervals, 15-minute
// increments. Run after `npm run build -w @studio/contracts`:
//   node libs/contracts/scripts/slots-bench.mjs
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { computeSlots, wallClockToInstant } = require('../dist/index.js');

const zone = 'America/New_York';
const ranges = [
  { start: '07:00', end: '09:00' },
  { start: '09:30', end: '11:30' },
  { start: '12:00', end: '14:00' },
  { start: '14:30', end: '17:00' },
  { start: '18:00', end: '21:00' },
];
const weekly = Object.fromEntries(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].map((d) => [d, ranges]));
// Spans the autumn change (2027-11-07).
const now = wallClockToInstant('2027-10-01', '08:00', zone);
const to = new Date(now.getTime() + 61 * 86_400_000);

// 2,000 busy intervals of 15 to 45 minutes on quarter hours, spread over the 60 days' 24 hours (a
// fixed pseudo-random sequence): about a third of the open hours stay free.
let seed = 42;
const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
const busy = Array.from({ length: 2000 }, () => {
  const start = now.getTime() + Math.floor(random() * 60 * 96) * 15 * 60_000;
  return { start: new Date(start), end: new Date(start + (1 + Math.floor(random() * 3)) * 15 * 60_000) };
});

const input = {
  weekly,
  overrides: [{ date: '2027-10-15', ranges: [] }],
  zone,
  durationMins: 60,
  bufferBeforeMins: 10,
  bufferAfterMins: 15,
  incrementMins: 15,
  minNoticeMins: 120,
  windowDays: 60,
  now,
  from: now,
  to,
  busy,
};

for (let i = 0; i < 5; i++) computeSlots(input); // warm up
const times = [];
let count = 0;
for (let i = 0; i < 50; i++) {
  const t0 = process.hrtime.bigint();
  count = computeSlots(input).length;
  times.push(Number(process.hrtime.bigint() - t0) / 1e6);
}
times.sort((a, b) => a - b);
const pick = (q) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)];
console.log(
  `computeSlots: 60 days, 5 ranges a day, ${busy.length} busy intervals, 15-minute increments -> ${count} slots; ` +
    `50 runs: median ${pick(0.5).toFixed(2)} ms, p99 ${pick(0.99).toFixed(2)} ms`,
);
