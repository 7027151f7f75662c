// Copy to the clipboard and clear it 30 seconds later, if it still holds what we copied (so a
// value the user copied since is left alone). Reading the clipboard may be refused; then we clear
// only if the page still has focus, which is when our copy is most likely still there.
export const CLIPBOARD_CLEAR_MS = 30_000;

export interface ClipboardLike {
  writeText(text: string): Promise<void>;
  readText(): Promise<string>;
}

export async function copyWithAutoClear(
  value: string,
  clipboard: ClipboardLike = navigator.clipboard,
  delay = CLIPBOARD_CLEAR_MS,
): Promise<void> {
  await clipboard.writeText(value);
  setTimeout(() => {
    clipboard
      .readText()
      .then(
        (current) => (current === value ? clipboard.writeText('') : undefined),
        () => (document.hasFocus() ? clipboard.writeText('') : undefined),
      )
      .catch(() => undefined);
  }, delay);
}
