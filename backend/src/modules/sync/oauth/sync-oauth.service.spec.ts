import { KLAVIYO_SCOPES, SYNC_MESSAGES as M } from '@studio/contracts';
import { loadConfig } from '../../../config/config.schema';
import { FakeHttpServer } from '../../../sync-fakes/fake-http';
import { SyncOAuthService } from './sync-oauth.service';

const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const service = (env: Record<string, string> = {}) =>
  new SyncOAuthService(
    loadConfig({
      KLAVIYO_CLIENT_ID: 'kid',
      KLAVIYO_CLIENT_SECRET: 'ksecret',
      EVENTBRITE_CLIENT_ID: 'eid',
      EVENTBRITE_CLIENT_SECRET: 'esecret',
      ...env,
    }),
  );

describe('SyncOAuthService.authorizationUrl', () => {
  it("Klaviyo: the real https authorize page, the spec's scopes exactly and the S256 challenge", () => {
    const url = new URL(
      service().authorizationUrl('klaviyo', { state: 's1', redirectUri: 'https://app.test/cb', codeChallenge: CHALLENGE }),
    );
    expect(url.origin + url.pathname).toBe('https://www.klaviyo.com/oauth/authorize');
    expect(url.searchParams.get('scope')).toBe('accounts:read lists:read lists:write profiles:read profiles:write');
    expect(url.searchParams.get('scope')).toBe(KLAVIYO_SCOPES.join(' '));
    expect(url.searchParams.get('code_challenge')).toBe(CHALLENGE);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toBe('s1');
    expect(url.searchParams.get('client_id')).toBe('kid');
    expect(url.searchParams.get('response_type')).toBe('code');
  });

  it('Klaviyo without a challenge is refused', () => {
    expect(() => service().authorizationUrl('klaviyo', { state: 's', redirectUri: 'https://app.test/cb' })).toThrow(
      M.codeChallengeRequired,
    );
  });

  it('Eventbrite: no scope and no challenge', () => {
    const url = new URL(service().authorizationUrl('eventbrite', { state: 's', redirectUri: 'https://app.test/cb' }));
    expect(url.origin + url.pathname).toBe('https://www.eventbrite.com/oauth/authorize');
    expect(url.searchParams.has('scope')).toBe(false);
    expect(url.searchParams.has('code_challenge')).toBe(false);
  });

  it('a provider without client credentials names its env vars', () => {
    expect(service().configured('zoom')).toEqual({ configured: false, envVars: ['ZOOM_CLIENT_ID', 'ZOOM_CLIENT_SECRET'] });
    expect(() => service().authorizationUrl('zoom', { state: 's', redirectUri: 'https://app.test/cb' })).toThrow(
      M.oauthNotConfigured('zoom', ['ZOOM_CLIENT_ID', 'ZOOM_CLIENT_SECRET']),
    );
  });

  it('a provider that cannot be reached is a 502 with a clear message, not a 500', async () => {
    const flows = service({ KLAVIYO_BASE_URL: 'http://127.0.0.1:9' });
    await expect(
      flows.exchange('klaviyo', { code: 'c', state: 's', redirectUri: 'https://app.test/cb', codeVerifier: 'v'.repeat(43) }),
    ).rejects.toMatchObject({ status: 502, message: M.providerUnavailable('klaviyo') });
  });
});

describe("SyncOAuthService.exchange: Mailchimp's token answer", () => {
  it('takes "scope": null and "expires_in": 0 (never expires) through oauth4webapi, client credentials in the form', async () => {
    const mailchimp = new FakeHttpServer('mailchimp');
    let form: Record<string, string> = {};
    mailchimp.route('POST', '/oauth2/token', (req) => {
      form = req.body as Record<string, string>;
      return { json: { access_token: 'mc-token', expires_in: 0, scope: null } };
    });
    const base = await mailchimp.listen();
    try {
      const flows = service({ MAILCHIMP_BASE_URL: base, MAILCHIMP_CLIENT_ID: 'mid', MAILCHIMP_CLIENT_SECRET: 'msecret' });
      const tokens = await flows.exchange('mailchimp', { code: 'c1', state: 's', redirectUri: 'https://app.test/cb' });
      expect(tokens).toEqual({ accessToken: 'mc-token', refreshToken: null, scopes: [], expiresAt: null });
      expect(form).toMatchObject({ grant_type: 'authorization_code', code: 'c1', client_id: 'mid', client_secret: 'msecret' });
    } finally {
      await mailchimp.close();
    }
  });
});
