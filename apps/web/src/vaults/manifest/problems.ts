// What a vault's manifest check finds (ADR 0007), and the words the user reads for each. Pure:
// the inputs are what the server returned (with each record's entry digest) and the manifest the
// device verified; nothing here touches a key. The words are in the reader's language
// (i18next) when describeProblems is called.
import { formatNumber } from '../../i18n/format.ts';
import { i18n, msg } from '../../i18n/i18n.ts';

export interface ManifestVaultFields {
  name: string;
  description: string;
  vault_type: string;
  provider_type: string;
  storage_folder: string;
}

export interface ManifestEntries {
  vault: ManifestVaultFields;
  slots: string[];
  files: [string, string][];
  secrets: [string, number, string][];
  /** ADR 0008: the pinned segments of a secrets vault whose items are in its provider. */
  segments?: [string, string][];
}

export type ItemKind = 'file' | 'secret';

export type Problem =
  | { kind: 'vault-field'; field: keyof ManifestVaultFields; expected: string; actual: string }
  | { kind: 'slots' }
  | { kind: 'missing'; item: ItemKind; id: string }
  | { kind: 'extra'; item: ItemKind; id: string }
  | { kind: 'changed'; item: ItemKind; id: string }
  | { kind: 'rolled-back'; item: ItemKind; id: string; revision: number; expected: number }
  /** ADR 0008: a segment the manifest pins that the provider dropped, swapped or garbled. */
  | { kind: 'segment'; problem: 'dropped' | 'swapped' | 'malformed'; segment: string };

/** What the server returned, reduced to what the manifest pins. */
export interface ServerView {
  vault?: ManifestVaultFields;
  slots?: readonly string[];
  files?: readonly { id: string; digest: string }[];
  secrets?: readonly { id: string; revision: number; digest: string }[];
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

/**
 * Compares the server's view with the verified manifest. Each part of the view that is given is
 * checked; a record that is not exactly its manifest entry is reported, never silently used.
 */
export function compareWithManifest(manifest: ManifestEntries, view: ServerView): Problem[] {
  const problems: Problem[] = [];
  if (view.vault) {
    for (const field of Object.keys(manifest.vault) as (keyof ManifestVaultFields)[]) {
      const expected = manifest.vault[field];
      const actual = view.vault[field];
      if (expected !== actual) problems.push({ kind: 'vault-field', field, expected, actual });
    }
  }
  if (view.slots && !sameSet(view.slots, manifest.slots)) problems.push({ kind: 'slots' });
  if (view.files) {
    const pinned = new Map(manifest.files.map(([id, digest]) => [id, digest]));
    const seen = new Set<string>();
    for (const f of view.files) {
      seen.add(f.id);
      const digest = pinned.get(f.id);
      if (digest === undefined) problems.push({ kind: 'extra', item: 'file', id: f.id });
      else if (digest !== f.digest) problems.push({ kind: 'changed', item: 'file', id: f.id });
    }
    for (const [id] of manifest.files)
      if (!seen.has(id)) problems.push({ kind: 'missing', item: 'file', id });
  }
  if (view.secrets) {
    const pinned = new Map(manifest.secrets.map(([id, rev, digest]) => [id, { rev, digest }]));
    const seen = new Set<string>();
    for (const s of view.secrets) {
      seen.add(s.id);
      const entry = pinned.get(s.id);
      if (!entry) problems.push({ kind: 'extra', item: 'secret', id: s.id });
      else if (s.revision < entry.rev)
        problems.push({
          kind: 'rolled-back',
          item: 'secret',
          id: s.id,
          revision: s.revision,
          expected: entry.rev,
        });
      else if (s.revision !== entry.rev || s.digest !== entry.digest)
        problems.push({ kind: 'changed', item: 'secret', id: s.id });
    }
    for (const [id] of manifest.secrets)
      if (!seen.has(id)) problems.push({ kind: 'missing', item: 'secret', id });
  }
  return problems;
}

/** The ids of records that must not be shown: every extra, changed or rolled-back one. */
export function hiddenIds(problems: readonly Problem[]): Set<string> {
  const ids = new Set<string>();
  for (const p of problems)
    if (p.kind === 'extra' || p.kind === 'changed' || p.kind === 'rolled-back') ids.add(p.id);
  return ids;
}

/** A vault field the server changed, one sentence per field ({{old}} and {{new}} quoted). */
const FIELD_TEXTS: Record<keyof ManifestVaultFields, string> = {
  name: msg("The server changed this vault's name from {{old}} to {{new}}."),
  description: msg("The server changed this vault's description from {{old}} to {{new}}."),
  vault_type: msg("The server changed this vault's type from {{old}} to {{new}}."),
  provider_type: msg("The server changed this vault's storage provider from {{old}} to {{new}}."),
  storage_folder: msg("The server changed this vault's storage folder from {{old}} to {{new}}."),
};

/** A segment the manifest pins that `holder` did not return as pinned (ADR 0008). */
const segmentText = {
  dropped: msg(
    "A part of this vault's secrets is missing from {{holder}}: it was deleted outside this app. The secrets it held are not shown.",
  ),
  swapped: msg(
    "A part of this vault's secrets in {{holder}} is not the one its manifest pins: it was changed, swapped or replaced by an older copy outside this app. The secrets it held are not shown.",
  ),
  malformed: msg(
    "A part of this vault's secrets in {{holder}} cannot be read, though its manifest pins it. The secrets it held are not shown.",
  ),
} as const;

/** Items of the manifest that `holder` did not return, by kind and number. */
const missingText = {
  file: {
    one: msg(
      "A file in this vault's manifest is missing from {{holder}}: deleted or withheld outside this app.",
    ),
    many: msg(
      "{{count}} files in this vault's manifest are missing from {{holder}}: deleted or withheld outside this app.",
    ),
  },
  secret: {
    one: msg(
      "A secret in this vault's manifest is missing from {{holder}}: deleted or withheld outside this app.",
    ),
    many: msg(
      "{{count}} secrets in this vault's manifest are missing from {{holder}}: deleted or withheld outside this app.",
    ),
  },
} as const;

/** An item, named when its title is known ({{title}} quoted). */
const itemText = {
  file: { unnamed: msg('A file'), named: msg('The file {{title}}') },
  secret: { unnamed: msg('A secret'), named: msg('The secret {{title}}') },
} as const;

/** Who returned the items when no one else is named. */
const SERVER = msg('the server');

const quoted = (s: string) => (s === '' ? i18n.t('(empty)') : i18n.t('“{{text}}”', { text: s }));

/**
 * One sentence per problem, naming the item when its title is known (`titleOf` answers the
 * decrypted title or name of a record the server returned). Missing items are counted: their
 * names were never on the server to read. `holder` names who returned the items: our server, or
 * for a secrets vault kept in its provider (ADR 0008) that provider ("Dropbox", "this browser").
 */
export function describeProblems(
  problems: readonly Problem[],
  titleOf: (id: string) => string | undefined,
  holder: string = SERVER,
): string[] {
  const { t } = i18n;
  const lines: string[] = [];
  // The holder's name as the texts say it ('the server', 'this browser'; a provider's own name).
  const by = t(holder);
  const name = (item: ItemKind, id: string) => {
    const title = titleOf(id);
    return title === undefined
      ? t(itemText[item].unnamed)
      : t(itemText[item].named, { title: quoted(title) });
  };
  for (const p of problems) {
    switch (p.kind) {
      case 'vault-field':
        lines.push(t(FIELD_TEXTS[p.field], { old: quoted(p.expected), new: quoted(p.actual) }));
        break;
      case 'slots':
        lines.push(
          t(
            "This vault's key slots on the server do not match its manifest: a slot was added, removed or replaced outside this app.",
          ),
        );
        break;
      case 'extra':
        lines.push(
          t(
            "{{item}} is not in this vault's manifest: {{holder}} added it back or made it up. It is not shown.",
            { item: name(p.item, p.id), holder: by },
          ),
        );
        break;
      case 'changed':
        lines.push(
          t(
            "{{item}} does not match this vault's manifest: {{holder}} changed or swapped it. It is not shown.",
            { item: name(p.item, p.id), holder: by },
          ),
        );
        break;
      case 'rolled-back':
        lines.push(
          t(
            '{{item}} was rolled back by {{holder}} to an older version (revision {{revision}}; the manifest has revision {{expected}}). It is not shown.',
            { item: name(p.item, p.id), holder: by, revision: p.revision, expected: p.expected },
          ),
        );
        break;
      case 'segment':
        lines.push(t(segmentText[p.problem], { holder: by }));
        break;
      case 'missing':
        break;
    }
  }
  for (const item of ['file', 'secret'] as const) {
    const n = problems.filter((p) => p.kind === 'missing' && p.item === item).length;
    if (n === 1) lines.push(t(missingText[item].one, { holder: by }));
    else if (n > 1) lines.push(t(missingText[item].many, { count: formatNumber(n), holder: by }));
  }
  return lines;
}
