import { createHash, randomBytes } from 'node:crypto';

/**
 * Runs a fake's OAuth code flow over HTTP (authorize → code → token), as the app's Connect does,
 * for tests and `npm run fakes` that need a live token without the browser.
 */
export async function grantOverHttp(options: {
  authorize: string;
  token: string;
  clientId: string;
  clientSecret: string;
  clientAuth: 'basic' | 'post';
  pkce?: boolean;
  scope?: string;
}): Promise<{ accessToken: string; refreshToken: string; expiresIn: number | null }> {
  const redirectUri = 'http://127.0.0.1/oauth/callback';
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL(options.authorize);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: options.clientId,
    redirect_uri: redirectUri,
    state: randomBytes(8).toString('hex'),
    ...(options.scope ? { scope: options.scope } : {}),
    ...(options.pkce
      ? {
          code_challenge: createHash('sha256').update(verifier).digest('base64url'),
          code_challenge_method: 'S256',
        }
      : {}),
  }).toString();
  const back = await fetch(authorize, { redirect: 'manual' });
  const code = new URL(back.headers.get('location') ?? 'http://x/').searchParams.get('code');
  if (!code) throw new Error(`the fake's authorize page answered ${back.status} without a code`);
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
  if (options.pkce) form.set('code_verifier', verifier);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (options.clientAuth === 'basic') {
    headers.authorization = `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64')}`;
  } else {
    form.set('client_id', options.clientId);
    form.set('client_secret', options.clientSecret);
  }
  const res = await fetch(options.token, { method: 'POST', headers, body: form });
  const body = (await res.json()) as { access_token?: string; refresh_token?: string; expires_in?: number };
  if (!res.ok || !body.access_token) throw new Error(`the fake's token endpoint answered ${res.status}`);
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token ?? '',
    expiresIn: body.expires_in ?? null,
  };
}
