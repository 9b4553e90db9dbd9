// Group 3 of the end-to-end suites (run-group.ts).
import { runGroup } from './run-group';

runGroup(3);
