import { KLAVIYO_SCOPES, SYNC_MESSAGES as M } from '@studio/contracts';
import { loadConfig } from '../../../config/config.schema';
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
