// The storage providers by name, description and icon (docs/product.md §3 "Provider"), as the
// vault cards, the wizard and Settings show them. Apart from providers.tsx, which says which of
// them are connected here, so that a screen that only names a provider (the dashboard's cards)
// loads none of the connection code and the server's storage configuration (issue 31).
import { Box, Cloud, HardDrive, Server, Triangle, type LucideIcon } from 'lucide-react';
import type { ProviderType } from '@sealvault/protocol';
import { msg, useTranslation } from '../i18n/i18n.ts';

/**
 * A provider's name and descriptions are English, marked for translation: show them with t()
 * (the brands' names have no translation and come back as they are).
 */
export interface ProviderInfo {
  id: ProviderType;
  name: string;
  description: string;
  /** The description for a secrets vault (its items live in the provider too, ADR 0008). */
  secretsDescription: string;
  icon: LucideIcon;
}

export const PROVIDERS: readonly ProviderInfo[] = [
  {
    id: 'server',
    name: msg('SealVault storage'),
    description: msg(
      'Encrypted on this device, stored on this server. Works everywhere you sign in.',
    ),
    secretsDescription: msg(
      'Encrypted on this device, stored on this server. Works everywhere you sign in.',
    ),
    icon: Server,
  },
  {
    id: 'local',
    name: msg('This browser'),
    description: msg('The files stay in this browser only and are lost if site data is cleared.'),
    secretsDescription: msg(
      'The secrets stay in this browser only and are lost if site data is cleared.',
    ),
    icon: HardDrive,
  },
  {
    id: 'googledrive',
    name: 'Google Drive',
    description: msg('Encrypted files in a SealVault folder of your Drive.'),
    secretsDescription: msg('Encrypted secrets in a SealVault folder of your Drive.'),
    icon: Triangle,
  },
  {
    id: 'dropbox',
    name: 'Dropbox',
    description: msg('Encrypted files in a SealVault folder of your Dropbox.'),
    secretsDescription: msg('Encrypted secrets in a SealVault folder of your Dropbox.'),
    icon: Box,
  },
  {
    id: 'onedrive',
    name: 'OneDrive',
    description: msg('Encrypted files in a SealVault folder of your OneDrive.'),
    secretsDescription: msg('Encrypted secrets in a SealVault folder of your OneDrive.'),
    icon: Cloud,
  },
];

/** "Dropbox", "Google Drive", "OneDrive", or "this browser", as texts name who holds the data. */
export const holderName = (type: ProviderType): string =>
  type === 'local' ? 'this browser' : providerInfo(type).name;

export const providerInfo = (id: ProviderType): ProviderInfo =>
  PROVIDERS.find((p) => p.id === id) ?? PROVIDERS[0]!;

export function ProviderIcon({
  provider,
  className = 'size-4',
}: {
  provider: ProviderType;
  className?: string;
}) {
  const { t } = useTranslation();
  const info = providerInfo(provider);
  const Icon = info.icon;
  return <Icon aria-label={t(info.name)} role="img" className={className} />;
}
