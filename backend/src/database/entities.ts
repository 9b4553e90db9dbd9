import { AuthSession } from '../modules/identity/auth-session.entity';
import { User } from '../modules/identity/user.entity';
import { Organization } from '../modules/organizations/organization.entity';

/** All entities, registered explicitly (no folder scanning: the compiled and test runs see the same). */
export const entities = [Organization, User, AuthSession];
