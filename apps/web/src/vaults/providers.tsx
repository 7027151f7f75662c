// Storage providers as the wizard and the vault cards show them (spec §3 "Provider"). 'server'
// is this product's own encrypted storage and is always connected; the others arrive with the
// storage-provider work and are listed, but cannot be chosen until connected.
import { Cloud, HardDrive, Server, type LucideIcon } from 'lucide-react';
import type { ProviderType } from '@sealvault/protocol';

export interface ProviderInfo {
  id: ProviderType;
  name: string;
  description: string;
  icon: LucideIcon;
  connected: boolean;
}

export const PROVIDERS: ProviderInfo[] = [
  {
    id: 'server',
    name: 'SealVault storage',
    description: 'Encrypted on this device, stored on this server. Works everywhere you sign in.',
    icon: Server,
    connected: true,
  },
  {
    id: 'local',
    name: 'This browser',
    description: 'Kept in this browser only. Not available on other devices.',
    icon: HardDrive,
    connected: false,
  },
  {
    id: 'googledrive',
    name: 'Google Drive',
    description: 'Encrypted files in a SealVault folder of your Drive.',
    icon: Cloud,
    connected: false,
  },
  {
    id: 'dropbox',
    name: 'Dropbox',
    description: 'Encrypted files in a SealVault folder of your Dropbox.',
    icon: Cloud,
    connected: false,
  },
  {
    id: 'onedrive',
    name: 'OneDrive',
    description: 'Encrypted files in a SealVault folder of your OneDrive.',
    icon: Cloud,
    connected: false,
  },
];

export const providerInfo = (id: ProviderType): ProviderInfo =>
  PROVIDERS.find((p) => p.id === id) ?? PROVIDERS[0]!;

export function ProviderIcon({
  provider,
  className = 'size-4',
}: {
  provider: ProviderType;
  className?: string;
}) {
  const info = providerInfo(provider);
  const Icon = info.icon;
  return <Icon aria-label={info.name} role="img" className={className} />;
}
