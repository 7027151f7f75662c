// Outgoing mail. One small interface (Mailer) with two implementations: nodemailer over SMTP when
// SMTP_URL is set, and otherwise the server log, so the embedded default works with no mail server
// (architecture.md, Mail). Tests pass their own Mailer through the app's deps to read messages.
import nodemailer from 'nodemailer';
import type { Logger } from '../logger.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link the message is about (verification, password reset). */
  link: string;
}

export interface Mailer {
  /** Delivers one message; rejects when the transport refuses it. */
  send(message: MailMessage): Promise<void>;
}

export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(m) {
      await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text, html: m.html });
    },
  };
}

/**
 * Without SMTP_URL the log IS the delivery channel: this is the one place a token-bearing link
 * is ever logged, on purpose, so an operator of the default install can hand it to the user.
 * Nothing else (passwords, cookies, bodies) is logged here or anywhere.
 */
export function logMailer(logger: Logger): Mailer {
  return {
    send(m) {
      logger.info(`mail (no SMTP_URL): to=${m.to} subject=${m.subject} link=${m.link}`);
      return Promise.resolve();
    },
  };
}

export function createMailer(
  mail: { smtpUrl: string | undefined; from: string },
  logger: Logger,
): Mailer {
  return mail.smtpUrl ? smtpMailer(mail.smtpUrl, mail.from) : logMailer(logger);
}
