// The strength of a password being typed (issue 20), for the meter under a secret's or a vault's
// password field. Scored off the render path; an answer for a value already replaced is dropped.
import { useEffect, useState } from 'react';
import { scorePassword, type Strength } from './strength.ts';

/**
 * The strength of `password` against `userInputs` (accountInputs(email, name) for a vault
 * password), or null while it is empty or being scored for the first time.
 */
export function useStrength(password: string, userInputs: readonly string[] = []): Strength | null {
  const [result, setResult] = useState<{ for: string; strength: Strength } | null>(null);
  // A new array each render must not restart the scoring: its contents are the dependency.
  const inputsKey = JSON.stringify(userInputs);
  const key = `${inputsKey}\u0000${password}`;
  useEffect(() => {
    if (password === '') return;
    let current = true;
    scorePassword(password, JSON.parse(inputsKey) as string[]).then(
      (strength) => {
        if (current) setResult({ for: key, strength });
      },
      () => {
        // The engine failed to load (offline after an update): no meter rather than a wrong one.
        if (current) setResult(null);
      },
    );
    return () => {
      current = false;
    };
  }, [password, inputsKey, key]);
  if (password === '') return null;
  // The last answer stays shown while the next is computed, so the meter does not flicker.
  return result?.strength ?? null;
}
