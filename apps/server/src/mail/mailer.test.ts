// Mail delivery: over a real SMTP server (smtp-server on 127.0.0.1) when SMTP_URL is set, the
// verification link in it working end to end; and, without SMTP_URL, one log line per message.
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { cookieFrom, postJson, signIn } from '../testing/users.ts';
import { logMailer } from './mailer.ts';
import { verificationMail } from './templates.ts';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

let smtp: SMTPServer;
let port = 0;
const inbox: Received[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  port = (smtp.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

async function waitForMail(to: string): Promise<Received> {
  for (let i = 0; i < 300; i++) {
    const m = inbox.find((x) => x.to.includes(to));
    if (m) return m;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no mail to ${to}`);
}

describe('mail over SMTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'SealVault <vault@example.test>',
    });
  });
  afterAll(() => t.close());

  it('sends the verification mail through the SMTP server; its link verifies', async () => {
    const email = `smtp-${crypto.randomUUID()}@example.test`;
    const password = 'smtp-secret-pw';
    const res = await postJson(t, '/api/auth/sign-up/email', { email, password, name: 'Smtp' });
    expect(res.status).toBe(200);
    const mail = await waitForMail(email);
    expect(mail.from).toBe('vault@example.test');
    expect(mail.raw).toMatch(/^Subject: Verify your SealVault e-mail address/m);
    // The text part is quoted-printable: undo soft line breaks and =XX escapes.
    const text = mail.raw
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    const link = /http:\/\/localhost:3000\/api\/auth\/verify-email\?[^\s"<]+/.exec(text)?.[0];
    expect(link).toBeDefined();
    const url = new URL(link ?? '');
    const verify = await t.request(`${url.pathname}${url.search}`, { redirect: 'manual' });
    expect(verify.status).toBe(302);
    // The link verifies without starting a session (docs/auth.md); the password then signs in.
    expect(cookieFrom(verify)).not.toContain('session_token=');
    expect((await signIn(t, email, password)).status).toBe(200);
    // Nothing secret reached the log on the way.
    expect(t.logs()).not.toContain(password);
    expect(t.logs()).not.toContain(url.searchParams.get('token') ?? 'no token');
    expect(t.mails).toEqual([]);
  });
});

describe('mail without SMTP_URL', () => {
  it('writes one info line with the recipient, the subject and the link', async () => {
    let out = '';
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        out += chunk.toString('utf8');
        cb();
      },
    });
    const mailer = logMailer(createLogger('info', sink));
    await mailer.send(verificationMail('ada@example.test', 'Ada', 'http://localhost:3000/x?t=1'));
    const line = JSON.parse(out.trim()) as { level: number; msg: string };
    expect(line.level).toBe(30);
    expect(line.msg).toBe(
      'mail (no SMTP_URL): to=ada@example.test subject=Verify your SealVault e-mail address link=http://localhost:3000/x?t=1',
    );
  });
});
