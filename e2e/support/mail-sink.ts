// A real SMTP server for the end-to-end tests (smtp-server), with a small HTTP API on 127.0.0.1
// to read what arrived: GET /messages?to=<address> answers the messages for that recipient, newest
// last, as { subject, text, links }. Started by playwright.config.ts as one of its web servers;
// the ports come from E2E_SMTP_PORT and E2E_MAIL_API_PORT.
import http from 'node:http';
import { SMTPServer } from 'smtp-server';
import { parseMail, type ParsedMail } from './mail.ts';

interface Stored extends ParsedMail {
  to: string[];
  receivedAt: string;
}

const smtpPort = Number(process.env.E2E_SMTP_PORT);
const apiPort = Number(process.env.E2E_MAIL_API_PORT);
if (!smtpPort || !apiPort) throw new Error('E2E_SMTP_PORT and E2E_MAIL_API_PORT are required');

const inbox: Stored[] = [];

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
      inbox.push({
        ...parseMail(Buffer.concat(chunks).toString('utf8')),
        to,
        receivedAt: new Date().toISOString(),
      });
      callback();
    });
  },
});
smtp.listen(smtpPort, '127.0.0.1');

const api = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', `http://127.0.0.1:${apiPort}`);
  if (url.pathname === '/health') return res.writeHead(200).end('ok');
  if (url.pathname === '/messages' && req.method === 'GET') {
    const to = url.searchParams.get('to')?.toLowerCase() ?? '';
    const found = inbox.filter((m) => !to || m.to.includes(to));
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(JSON.stringify(found));
  }
  res.writeHead(404).end();
});
api.listen(apiPort, '127.0.0.1');

const stop = () => {
  api.close();
  smtp.close(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
