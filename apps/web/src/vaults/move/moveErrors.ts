// The failures of a vault's move (engine.ts, issue 27) as the user reads them: the texts, the
// error that carries one with its placeholders, and the choice between a provider's text and the
// one for this browser. Apart from the engine so the dialog and the copy step share them.
import type { ProviderType } from '@sealvault/protocol';
import { i18n, msg } from '../../i18n/i18n.ts';
import { providerInfo } from '../providers.tsx';

/** The move's failures, as ids: shown with t(text, values) by the dialog (MoveError). */
export const moveTexts = {
  mismatch: msg(
    'The copy of "{{name}}" on {{provider}} does not match the original, so the vault stays where it is. Please try again.',
  ),
  mismatchLocal: msg(
    'The copy of "{{name}}" on this browser does not match the original, so the vault stays where it is. Please try again.',
  ),
  segmentMismatch: msg(
    "A copy of this vault's secrets on {{provider}} does not match the original, so the vault stays where it is. Please try again.",
  ),
  segmentMismatchLocal: msg(
    "A copy of this vault's secrets on this browser does not match the original, so the vault stays where it is. Please try again.",
  ),
  unreadable: msg(
    "This vault's contents do not match its manifest, so it cannot be moved. The vault page lists what is wrong.",
  ),
  noManifest: msg(
    'This vault cannot be moved until it has a manifest. Lock it, unlock it, and try again.',
  ),
  missingSource: msg(
    '"{{name}}" could not be read from {{provider}}, so the vault stays where it is.',
  ),
  missingSourceLocal: msg(
    '"{{name}}" could not be read from this browser, so the vault stays where it is.',
  ),
  keptChanging: msg(
    "This vault's manifest kept changing while it was being moved. Please try again.",
  ),
  /** A file's name in the texts when this page has not decrypted it. */
  aFile: msg('a file'),
} as const;

/**
 * A move's failure meant for the user: `text` an id of moveTexts, `values` its placeholders, and
 * `texts` those placeholders that are texts themselves (a provider's name, "a file"), translated
 * as they are shown. `message` is the English sentence.
 */
export class MoveError extends Error {
  constructor(
    readonly text: string,
    readonly values: Record<string, string> = {},
    readonly texts: Record<string, string> = {},
    options?: ErrorOptions,
  ) {
    super(i18n.t(text, { ...values, ...texts, lng: 'en' }), options);
    this.name = 'MoveError';
  }
}

/** A failure that names a provider: the "this browser" text for the browser, else `text`. */
export function providerError(
  type: ProviderType,
  [text, localText]: readonly [string, string],
  values: Record<string, string> = {},
  texts: Record<string, string> = {},
  options?: ErrorOptions,
): MoveError {
  return type === 'local'
    ? new MoveError(localText, values, texts, options)
    : new MoveError(text, values, { ...texts, provider: providerInfo(type).name }, options);
}
