// Evaluated first in every remote (before ./drawers): the remote bundles its own copy of the
// contracts and of zod, which must not use eval under the admin's Content-Security-Policy either.
// A deep import on purpose: the package index would build the contracts' schemas first.
import { disableZodEval } from '@studio/contracts/src/zod-csp';

disableZodEval();
