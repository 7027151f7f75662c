// The texts of the account mails. Plain text plus a minimal HTML part; the link is the only
// dynamic content besides the name, which is escaped.
import type { MailMessage } from './mailer.ts';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function message(to: string, subject: string, lines: string[], link: string): MailMessage {
  const text = [...lines, '', link, '', 'If you did not ask for this, ignore this message.'].join(
    '\n',
  );
  const html = `${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}<p><a href="${escapeHtml(
    link,
  )}">${escapeHtml(link)}</a></p><p>If you did not ask for this, ignore this message.</p>`;
  return { to, subject, text, html, link };
}

export function verificationMail(to: string, name: string, link: string): MailMessage {
  return message(
    to,
    'Verify your SealVault e-mail address',
    [`Hello ${name || 'there'},`, 'Open this link to verify your e-mail address for SealVault:'],
    link,
  );
}

export function passwordResetMail(to: string, name: string, link: string): MailMessage {
  return message(
    to,
    'Reset your SealVault password',
    [
      `Hello ${name || 'there'},`,
      'Open this link within an hour to choose a new SealVault password:',
    ],
    link,
  );
}
