// Group 4 of the end-to-end suites (run-group.ts).
import { runGroup } from './run-group';

runGroup(4);
