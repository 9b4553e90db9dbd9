// Evaluated before every other module of the shell (first import of the bootstrap), so before any
// schema of @studio/contracts is built or parsed: nothing may need eval under the
// Content-Security-Policy, so zod is switched to jitless first. A deep import on purpose: the
// package index would evaluate (and parse) the contracts' schemas before this line runs.
import { disableZodEval } from '@studio/contracts/src/zod-csp';

disableZodEval();
