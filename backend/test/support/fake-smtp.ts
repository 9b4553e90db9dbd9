import { ParsedMail, simpleParser } from 'mailparser';
import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A local SMTP server that keeps every message it accepts (tests receive the app's mail here). */
export async function startFakeSmtp() {
  const received: { to: string[]; mail: ParsedMail }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    async onData(stream, session, callback) {
      try {
        const mail = await simpleParser(stream);
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), mail });
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
  });
  // A client killed mid-connection (the worker reliability tests) resets its socket: expected here.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET') console.error(error);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** The messages sent to one address so far. */
    to: (address: string) => received.filter((m) => m.to.includes(address)).map((m) => m.mail),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export async function eventually<T>(read: () => Promise<T> | T, ok: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
