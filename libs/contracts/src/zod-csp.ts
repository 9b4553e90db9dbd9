import { config } from 'zod';

/**
 * For the browser: zod compiles object parsers with `new Function` unless told not to, and probes
 * for it with `Function('')`. The admin's Content-Security-Policy forbids eval (no 'unsafe-eval'),
 * so the probe is reported as a violation on every page. Jitless mode parses without it. The API
 * process does not call this and keeps the faster compiled parsers.
 */
export function disableZodEval(): void {
  config({ jitless: true });
}
