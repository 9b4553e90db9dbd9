import type { SyncProviderName } from '@studio/contracts';
import type { AppConfig } from '../../config/config.schema';

/**
 * Where each provider's OAuth and API endpoints are. Real hosts by default; with
 * `<PROVIDER>_BASE_URL` set (the local fakes of `npm run fakes` and the tests), every endpoint of
 * that provider is the same path under that one origin. Mailchimp's API host is per account: it
 * comes from the OAuth metadata call (`api_endpoint`), kept in the connection's metadata.
 */
export interface ProviderEndpoints {
  authorize: string;
  token: string;
  /** RFC 7009-style revocation, where the provider has one. */
  revoke: string | null;
  /** API base, without a trailing slash (Mailchimp: the metadata endpoint; the API base is per account). */
  api: string;
  /** Mailchimp only: the OAuth metadata endpoint that names the account's data centre. */
  metadata: string | null;
  clientId: string | null;
  clientSecret: string | null;
  /** The variables an admin sets to enable Connect, named in the panel when they are missing. */
  envVars: [string, string];
}

const REAL: Record<SyncProviderName, Omit<ProviderEndpoints, 'clientId' | 'clientSecret' | 'envVars'>> = {
  eventbrite: {
    authorize: 'https://www.eventbrite.com/oauth/authorize',
    token: 'https://www.eventbrite.com/oauth/token',
    revoke: null,
    api: 'https://www.eventbriteapi.com/v3',
    metadata: null,
  },
  mailchimp: {
    authorize: 'https://login.mailchimp.com/oauth2/authorize',
    token: 'https://login.mailchimp.com/oauth2/token',
    revoke: null,
    api: 'https://login.mailchimp.com/oauth2/metadata',
    metadata: 'https://login.mailchimp.com/oauth2/metadata',
  },
  klaviyo: {
    authorize: 'https://www.klaviyo.com/oauth/authorize',
    token: 'https://a.klaviyo.com/oauth/token',
    revoke: 'https://a.klaviyo.com/oauth/revoke',
    api: 'https://a.klaviyo.com',
    metadata: null,
  },
  zoom: {
    authorize: 'https://zoom.us/oauth/authorize',
    token: 'https://zoom.us/oauth/token',
    revoke: 'https://zoom.us/oauth/revoke',
    api: 'https://api.zoom.us/v2',
    metadata: null,
  },
};

const PREFIX: Record<SyncProviderName, 'EVENTBRITE' | 'MAILCHIMP' | 'KLAVIYO' | 'ZOOM'> = {
  eventbrite: 'EVENTBRITE',
  mailchimp: 'MAILCHIMP',
  klaviyo: 'KLAVIYO',
  zoom: 'ZOOM',
};

/** Under a fake's origin each endpoint keeps its real path (and Eventbrite's and Zoom's API keep theirs). */
function underBase(real: (typeof REAL)[SyncProviderName], base: string): (typeof REAL)[SyncProviderName] {
  const origin = base.replace(/\/+$/, '');
  const move = (u: string) => `${origin}${new URL(u).pathname}`.replace(/\/+$/, '');
  return {
    authorize: move(real.authorize),
    token: move(real.token),
    revoke: real.revoke === null ? null : move(real.revoke),
    api: move(real.api),
    metadata: real.metadata === null ? null : move(real.metadata),
  };
}

export function providerEndpoints(config: AppConfig, provider: SyncProviderName): ProviderEndpoints {
  const p = PREFIX[provider];
  const base = config[`${p}_BASE_URL`];
  return {
    ...(base ? underBase(REAL[provider], base) : REAL[provider]),
    clientId: config[`${p}_CLIENT_ID`] ?? null,
    clientSecret: config[`${p}_CLIENT_SECRET`] ?? null,
    envVars: [`${p}_CLIENT_ID`, `${p}_CLIENT_SECRET`],
  };
}
