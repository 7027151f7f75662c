// Opening a share link's content on the recipient's page (ShareScreen.tsx, issue 29, ADR 0012):
// the page's texts for what can go wrong, the parts of a link once read from the URL, and the
// content's key checked on its metadata. Apart from the screen because both the screen (a link
// without a password opens at once) and the password form (useSharedContent.ts) use it.
import { asFileId, type FileMeta, type SessionId } from '@sealvault/crypto';
import type { ShareInfo } from '@sealvault/protocol';
import { cryptoClient } from '../crypto/client.ts';
import { msg } from '../i18n/i18n.ts';
import { kdfFromWire } from './links.ts';

export const shareTexts = {
  incomplete: msg(
    'This link is incomplete: the part after "#" is missing. Ask the sender for the whole link.',
  ),
  wrongPassword: msg('Wrong password. Please try again.'),
  tampered: msg(
    "This link's content does not match what was shared: it was changed or cut on the server. Nothing is shown.",
  ),
  failed: msg('The content could not be loaded. Please try again.'),
  opensCounted: msg('Opening counts as one of the link’s opens.'),
} as const;

export interface Link {
  id: string;
  secret: string;
  token: string;
  uuid: string;
}

export interface Unlocked {
  inner: SessionId;
  meta: FileMeta;
}

/**
 * The content's key (with the password, if any), checked on the content's metadata: null when it
 * does not decrypt (a wrong password; without one, a changed link).
 */
export async function openContent(
  link: Pick<Link, 'id' | 'secret' | 'uuid'>,
  info: ShareInfo,
  password: string | null,
): Promise<Unlocked | null> {
  const crypto = cryptoClient();
  const inner = await crypto.openShareContent(
    link.id,
    link.secret,
    password !== null && info.kdf ? { password, kdf: kdfFromWire(info.kdf) } : null,
  );
  try {
    return {
      inner,
      meta: await crypto.decryptMeta(inner, asFileId(link.uuid), null, info.enc_meta),
    };
  } catch {
    await crypto.closeSession(inner);
    return null;
  }
}
