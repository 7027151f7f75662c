// The texts of "Move to another provider" (MoveVaultDialog.tsx, issue 27), with what a failure
// says and how a text that names a provider is chosen. Apart from the dialog since its parts
// (MoveChoices.tsx, MoveProgressView.tsx) show them too.
import type { ProviderType } from '@sealvault/protocol';
import { msg } from '../../i18n/i18n.ts';
import { providerInfo } from '../providers.tsx';

/** A provider's name (English, marked): show it with t(). */
export const nameOf = (type: ProviderType) => providerInfo(type).name;

/**
 * The dialog's texts. Those that name a provider have a text for "This browser" of their own
 * (the German needs its own words for it): `[text, local]`, chosen by `named`.
 */
export const moveDialogTexts = {
  title: msg('Move to another provider'),
  intro: msg(
    "The vault's encrypted files or secrets are copied as they are, checked on the new provider, and only then does the vault switch to it. Nothing is decrypted.",
  ),
  deleteOld: [
    msg('Delete the copies on {{provider}} after the move'),
    msg('Delete the copies on This browser after the move'),
  ],
  deleteOldHelp: msg(
    'Recommended. Left unchecked, the old copies stay where they are, still encrypted, but they are not updated any more.',
  ),
  serverSource: msg("SealVault's server deletes its copies once the vault has moved."),
  localWarning: msg(
    'The vault will then live in this browser only: clearing its site data or losing this device loses the vault. Moving it away from This browser later is how to rescue it.',
  ),
  resumed: [
    msg(
      'A move of this vault to {{provider}} was started {{when}} and did not finish. Continue it, or cancel it to remove what was copied.',
    ),
    msg(
      'A move of this vault to This browser was started {{when}} and did not finish. Continue it, or cancel it to remove what was copied.',
    ),
  ],
  done: [msg('The vault is now on {{provider}}.'), msg('The vault is now on This browser.')],
  moving: [msg('Moving to {{provider}}...'), msg('Moving to This browser...')],
  stillOn: [
    msg('{{message}} The vault is still on {{provider}}.'),
    msg('{{message}} The vault is still on This browser.'),
  ],
  from: [msg('Move from {{provider}} to'), msg('Move from This browser to')],
  failed: msg('The move failed.'),
} as const;

/** What a failure says: a text and its values (engine.ts's MoveError, or a message as it came). */
export interface Failure {
  text: string;
  values?: Record<string, string>;
  /** Values that are texts themselves (a provider's name), translated when shown. */
  texts?: Record<string, string>;
}

/** One of moveDialogTexts' `[text, local]` pairs, for a provider, with its values, translated. */
export type Named = (
  pair: readonly [string, string],
  type: ProviderType,
  values?: Record<string, string>,
) => string;
