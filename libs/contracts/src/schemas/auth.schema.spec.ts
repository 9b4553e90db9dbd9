import { MESSAGES } from '../messages';
import { loginSchema, switchOrganizationSchema } from './auth.schema';

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('sign-in rules', () => {
  it('says which field is missing', () => {
    expect(messages(loginSchema.safeParse({}))).toEqual({
      email: MESSAGES.auth.emailRequired,
      password: MESSAGES.auth.passwordRequired,
    });
    expect(messages(loginSchema.safeParse({ email: 'x', password: 'p' }))).toEqual({ email: MESSAGES.auth.emailInvalid });
  });

  it('accepts a trimmed email', () => {
    expect(loginSchema.parse({ email: ' a@b.co ', password: 'p' }).email).toBe('a@b.co');
  });

  it('requires an organization id for the switch', () => {
    expect(messages(switchOrganizationSchema.safeParse({ org_id: 'nope' }))).toEqual({
      org_id: MESSAGES.superAdmin.organizationRequired,
    });
  });
});
