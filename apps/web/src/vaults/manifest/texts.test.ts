// Every text the manifest and slot checks can show is listed in docs/product.md ("Manifest
// checks"), word for word, with {placeholders} for what is filled in at run time (issue 25).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { integrityTexts } from './manifestCore.ts';
import { rotationTexts } from './passwordChange.ts';
import { describeProblems, type Problem } from './problems.ts';

const doc = readFileSync(resolve(import.meta.dirname, '../../../../../docs/product.md'), 'utf8');
const section = doc.slice(doc.indexOf('### Manifest checks'), doc.indexOf('### File browser'));
/** The exact texts of the section: everything written in code format. */
const listed = new Set([...section.matchAll(/`([^`]+)`/g)].map((m) => m[1]));

// A number shown as a placeholder: the texts take numbers, the document names them.
const slot = (name: string) => `{${name}}` as unknown as number;
const titleOf = (id: string) => (id === 'named-file' ? '{name}' : undefined);
const one = (p: Problem) => describeProblems([p], titleOf)[0]!;

const texts: string[] = [
  integrityTexts.invalid,
  integrityTexts.older(slot('version'), slot('seen')),
  integrityTexts.fork(slot('version')),
  integrityTexts.missing(slot('seen')),
  integrityTexts.slotsChanged,
  integrityTexts.slotAdded,
  integrityTexts.uncommitted,
  integrityTexts.conflict,
  integrityTexts.rotatedElsewhere,
  rotationTexts.mismatch,
  one({ kind: 'vault-field', field: 'name', expected: '{old}', actual: '{new}' }).replace(
    "vault's name",
    "vault's {field}",
  ),
  one({ kind: 'slots' }),
  one({ kind: 'extra', item: 'file', id: 'x' }).replace('A file', '{item}'),
  one({ kind: 'changed', item: 'secret', id: 'x' }).replace('A secret', '{item}'),
  one({
    kind: 'rolled-back',
    item: 'secret',
    id: 'x',
    revision: slot('revision'),
    expected: slot('expected'),
  }).replace('A secret', '{item}'),
  one({ kind: 'missing', item: 'file', id: 'x' }).replace('A file', 'A {kind}'),
  describeProblems(
    [
      { kind: 'missing', item: 'secret', id: 'x' },
      { kind: 'missing', item: 'secret', id: 'y' },
    ],
    titleOf,
  )[0]!.replace('2 secrets', '{n} {kind}s'),
  ...(['dropped', 'swapped', 'malformed'] as const).map(
    (problem) =>
      describeProblems([{ kind: 'segment', problem, segment: 'x' }], titleOf, '{holder}')[0]!,
  ),
];

it('lists every text of the manifest and slot checks in docs/product.md', () => {
  expect(texts.filter((t) => !listed.has(t))).toEqual([]);
});

it('names the items as the document says', () => {
  expect(one({ kind: 'extra', item: 'file', id: 'named-file' })).toMatch(/^The file “\{name\}” /);
  expect(one({ kind: 'vault-field', field: 'description', expected: '', actual: 'x' })).toBe(
    "The server changed this vault's description from (empty) to “x”.",
  );
  for (const name of ['name', 'description', 'type', 'storage provider', 'storage folder'])
    expect(section).toContain(`\`${name}\``);
  expect(listed.has('This vault does not match its manifest')).toBe(true);
});
