// /dropbox-auth, /google-auth and /onedrive-auth (docs/product.md §2): the pages a provider's sign-in popup comes
// back to (settings/OAuthReturn.tsx), one per provider.
import { OAuthReturn } from '../settings/OAuthReturn.tsx';

export function DropboxAuthScreen() {
  return <OAuthReturn provider="Dropbox" />;
}

export function GoogleAuthScreen() {
  return <OAuthReturn provider="Google Drive" />;
}

export function OneDriveAuthScreen() {
  return <OAuthReturn provider="OneDrive" />;
}
