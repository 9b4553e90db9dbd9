import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { loginSchema, type LoginInput } from '@studio/contracts/src/schemas/auth.schema';
import { MESSAGES } from '@studio/contracts/src/messages';
import { zodResolver } from '@studio/ui/src/form/zod-resolver';
import { login } from '@studio/ui/src/api/session-api';
import { writeSessionToken } from '@studio/ui/src/api/session-token';
import { isApiError } from '@studio/ui/src/api/api-error';
import { useSession } from '@studio/ui/src/session/session-context';
import { APP_PRIMARY_COLOR } from '../app/page-base';
import { SignInField } from './sign-in-field';

function signInFailure(error: unknown): string {
  if (isApiError(error)) {
    if (error.status === 429) return error.body?.message || MESSAGES.auth.tooManyAttempts;
    if (error.body?.message) return error.body.message;
  }
  return MESSAGES.common.internal;
}

const PAGE = {
  display: 'flex',
  justifyContent: 'center',
  alignItems: 'center',
  minHeight: '100vh',
  background: '#f5f6fa',
} as const;
const CARD = {
  width: 380,
  padding: 24,
  background: '#fff',
  borderRadius: 8,
  boxShadow: '0 1px 4px rgba(0,0,0,0.08)',
} as const;

const ALERT = {
  marginBottom: 16,
  padding: '8px 12px',
  border: '1px solid #ffccc7',
  background: '#fff2f0',
  borderRadius: 6,
} as const;

const BUTTON = {
  width: '100%',
  height: 36,
  border: 0,
  borderRadius: 6,
  background: APP_PRIMARY_COLOR,
  color: '#fff',
  fontSize: 14,
  // Buttons do not inherit the page's font by default: use the app's.
  fontFamily: 'inherit',
  cursor: 'pointer',
} as const;

export function SignInPage() {
  const { refresh } = useSession();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<LoginInput>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: '', password: '' },
  });

  const onSubmit = form.handleSubmit(async ({ email, password }) => {
    setFailure(null);
    try {
      const { token } = await login(email, password);
      writeSessionToken(token);
      await refresh();
    } catch (error) {
      setFailure(signInFailure(error));
    }
  });

  return (
    // Plain markup, no antd: Card, Form.Item, Input and the ConfigProvider they need would bring antd's
    // CSS-in-JS engine, rc-form, rc-trigger and more into the first load. antd loads with the admin area.
    <main style={PAGE}>
      <div style={CARD}>
        <h1 style={{ fontSize: 24, fontWeight: 600, margin: '0 0 16px' }}>Sign in</h1>
        <form onSubmit={onSubmit} aria-label="Sign in" noValidate>
          {failure ? (
            <div role="alert" style={ALERT}>
              {failure}
            </div>
          ) : null}
          <SignInField
            control={form.control}
            name="email"
            label="Email"
            type="email"
            autoComplete="username"
          />
          <SignInField
            control={form.control}
            name="password"
            label="Password"
            type="password"
            autoComplete="current-password"
          />
          {/* A plain button: antd's Button brings its wave effect and color tokens into the first load. */}
          <button type="submit" style={BUTTON} disabled={form.formState.isSubmitting}>
            {form.formState.isSubmitting ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
      </div>
    </main>
  );
}
